// LoopbackListener: the RFC 8252 loopback redirect for signing in with the system browser. Sendable.

import Foundation
import Hummingbird
import Logging
import TasksCore

/// What the listener answers the browser.
public enum LoopbackAnswer: Sendable {
  /// Send the browser on (the next policy of the flow).
  case redirect(URL)
  /// Show a short page.
  case page(title: String, message: String)
  /// Not the redirect: 404.
  case notFound
  /// A redirect that is not the flow's (wrong or missing `state`): 400, and the flow goes on.
  case rejected

  /// What the browser sees after a sign-in step: the next policy's page, or a short page saying how the flow ended
  /// and, in `closing`, where to go back to (`endsFlow` then tells the caller to stop listening).
  public init(_ step: SignInStep, closing: String) {
    switch step {
    case .notOurs: self = .notFound
    case .load(let next): self = .redirect(next)
    case .signedIn, .profileUpdated: self = .page(title: tr("Signed in to B2C Tasks"), message: closing)
    case .cancelled: self = .page(title: tr("Sign-in cancelled"), message: tr("You can close this tab."))
    case .failed(let error): self = .page(title: tr("Sign-in failed"), message: error.message)
    }
  }

  /// Whether the browser has seen the end of the flow.
  public var endsFlow: Bool {
    if case .page = self { return true }
    return false
  }
}

/// Listens on `127.0.0.1` on a free port for B2C's redirect (RFC 8252 §7.3) and hands each request's URL to a handler
/// that decides what the browser sees next. Only loopback connections are possible; requests to other paths get 404.
public final class LoopbackListener: Sendable {
  /// The port the listener got.
  public let port: Int
  /// The redirect URI to send in authorize requests: the settings' loopback URI with this port, or
  /// `http://127.0.0.1:PORT/`.
  public let redirectURI: RedirectURI
  private let task: Task<Void, any Error>

  private init(port: Int, redirectURI: RedirectURI, task: Task<Void, any Error>) {
    self.port = port
    self.redirectURI = redirectURI
    self.task = task
  }

  /// Starts listening. `registered` is the settings' redirect URI: when it is a loopback URI its host and path are
  /// kept, and its port when it names one (for providers that match redirect URIs exactly instead of on any port, as
  /// RFC 8252 §7.3 asks); otherwise the listener takes a free port. `handler` gets the full URL of every request to
  /// that path.
  public static func start(
    registered: RedirectURI, handler: @escaping @Sendable (String) async -> LoopbackAnswer
  ) async throws -> LoopbackListener {
    let template = registered.kind == .loopback ? URLComponents(string: registered.value) : nil
    let host = template?.host ?? "127.0.0.1"
    let path = (template?.path).flatMap { $0.isEmpty ? nil : $0 } ?? "/"
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let router = Router()
    router.get(RouterPath(path)) { request, _ -> Response in
      let query = request.uri.query.map { "?" + $0 } ?? ""
      let port = request.head.authority?.split(separator: ":").last.map(String.init) ?? ""
      switch await handler("http://\(host):\(port)\(request.uri.path)\(query)") {
      case .redirect(let url):
        return Response(status: .found, headers: [.location: url.absoluteString, .cacheControl: "no-store"])
      case .page(let title, let message):
        return Self.page(title: title, message: message)
      case .notFound:
        return Response(status: .notFound)
      case .rejected:
        var response = Self.page(
          title: tr("Not this sign-in"),
          message: tr("This answer does not belong to the sign-in in progress, so it was ignored."))
        response.status = .badRequest
        return response
      }
    }
    var logger = Logger(label: "b2c-tasks-loopback")
    logger.logLevel = .critical
    let bindHost = host == "localhost" ? "127.0.0.1" : host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    let app = Application(
      router: router,
      configuration: .init(address: .hostname(bindHost, port: template?.port ?? 0), serverName: "b2c-tasks"),
      onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
    let task = Task { try await app.runService(gracefulShutdownSignals: []) }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next(), port > 0 else {
      task.cancel()
      throw CancellationError()
    }
    var components = URLComponents()
    components.scheme = "http"
    components.host = host
    components.port = port
    components.path = path
    guard let string = components.string, let uri = RedirectURI(string) else {
      task.cancel()
      throw CancellationError()
    }
    return LoopbackListener(port: port, redirectURI: uri, task: task)
  }

  /// Stops listening.
  public func stop() async {
    task.cancel()
    _ = await task.result
  }

  private static func page(title: String, message: String) -> Response {
    func escape(_ text: String) -> String {
      text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;")
    }
    let html = """
      <!DOCTYPE html><html><head><meta charset="utf-8"><title>\(escape(title))</title>
      <style>body{font-family:Cantarell,sans-serif;text-align:center;margin-top:15vh;color:#2e3436}</style></head>
      <body><h1>\(escape(title))</h1><p>\(escape(message))</p></body></html>
      """
    return Response(
      status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
  }
}

// LoopbackListener: the RFC 8252 loopback redirect for signing in with the system browser. Sendable.

import FoundationEssentials
import Synchronization
import TasksCore
import TasksSoup

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
  /// The one-time start address asked for a second time: 410, and the flow ends.
  case openedTwice

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

/// Listens on the loopback interface on a free port for B2C's redirect (RFC 8252 §7.3) and hands each request's URL
/// to a handler that decides what the browser sees next (served by libsoup, GIO's HTTP). Only loopback connections
/// are possible; requests to other paths get 404. A `localhost` redirect URI is served on 127.0.0.1 and ::1 on the same port (RFC 8252 §8.3): the
/// browser may resolve the name to either, and another program must not be able to take the other one.
///
/// The browser is never given the authorize request itself: a command line is readable by every local user (in
/// `/proc`), and with the request's state, nonce and code challenge another user could sign the browser's owner into
/// an account of theirs. It gets a one-time start address on this listener (`startURL(redirectingTo:)`), answered
/// once with a redirect to the authorize request; a second request for it ends the flow (`onOpenedTwice`).
public final class LoopbackListener: Sendable {
  /// How long a sign-in in the system browser may take before the app stops waiting for it (the CLI's
  /// `--timeout`, the app's `browser-sign-in-timeout` default).
  public static let defaultTimeout = 300
  /// The port the listener got.
  public let port: Int
  /// The redirect URI to send in authorize requests: the settings' loopback URI with this port, or
  /// `http://127.0.0.1:PORT/`.
  public let redirectURI: RedirectURI
  /// The addresses listened on (`127.0.0.1`, and `::1` for `localhost`).
  public let addresses: [String]
  private let servers: [SoupLoopbackServer]
  private let start: StartPage

  private init(
    port: Int, redirectURI: RedirectURI, addresses: [String], servers: [SoupLoopbackServer], start: StartPage
  ) {
    self.port = port
    self.redirectURI = redirectURI
    self.addresses = addresses
    self.servers = servers
    self.start = start
  }

  /// Why the listener could not start.
  public struct StartError: Error, CustomStringConvertible {
    /// The address and port that could not be had.
    public let address: String
    public var description: String { "could not listen on \(address)" }
  }

  /// Starts listening. `registered` is the settings' redirect URI: when it is a loopback URI its host and path are
  /// kept, and its port when it names one (for providers that match redirect URIs exactly instead of on any port, as
  /// RFC 8252 §7.3 asks); otherwise the listener takes a free port. `handler` gets the full URL of every request to
  /// that path. `onOpenedTwice` runs when the start address is requested again (the caller ends the flow).
  public static func start(
    registered: RedirectURI, onOpenedTwice: @escaping @Sendable () async -> Void,
    handler: @escaping @Sendable (String) async -> LoopbackAnswer
  ) async throws -> LoopbackListener {
    let template = registered.kind == .loopback ? URLComponents(string: registered.value) : nil
    let host = template?.host ?? "127.0.0.1"
    let path = (template?.path).flatMap { $0.isEmpty ? nil : $0 } ?? "/"
    let start = StartPage(path: "/b2c-tasks-sign-in/" + RandomToken.make(bytes: 32))
    let route = Route(paths: [path, start.path], host: host) { url in
      if let answer = start.answer(url) {
        if case .openedTwice = answer { await onOpenedTwice() }
        return Self.reply(to: answer)
      }
      return await Self.reply(to: handler(url))
    }
    let fixedPort = template?.port
    let (servers, port, addresses): ([SoupLoopbackServer], Int, [String])
    if host == "localhost" {
      (servers, port, addresses) = try await serveBothLoopbacks(route, port: fixedPort)
    } else {
      let address = host.trimmed { $0 == "[" || $0 == "]" }
      let served = try await serve(route, on: address, port: fixedPort ?? 0)
      (servers, port, addresses) = ([served], served.port, [address])
    }
    var components = URLComponents()
    components.scheme = "http"
    components.host = host
    components.port = port
    components.path = path
    guard let string = components.string, let uri = RedirectURI(string) else {
      for server in servers { await server.stop() }
      throw StartError(address: host)
    }
    return LoopbackListener(port: port, redirectURI: uri, addresses: addresses, servers: servers, start: start)
  }

  /// The one-time start address: answered once with a redirect to `authorize` (the authorize request, which then
  /// never appears on a command line); a second request for it ends the flow. Replaces an earlier one. Give a browser
  /// `handOverPage(redirectingTo:)` instead: this address on its command line could be read by every local user.
  public func startURL(redirectingTo authorize: URL) -> URL {
    start.offer(authorize)
    var components = URLComponents(string: redirectURI.value) ?? URLComponents()
    components.path = start.path
    components.query = nil
    return components.url ?? authorize
  }

  /// The address to give the browser: a `HandOverPage` only this user can read, leading to the one-time start
  /// address (`startURL(redirectingTo:)`), removed when the listener stops.
  public func handOverPage(redirectingTo authorize: URL) throws(HandOverPage.Failure) -> URL {
    let page = try HandOverPage(leadingTo: startURL(redirectingTo: authorize))
    start.keep(page)
    return page.url
  }

  /// What is served, and to whom the requests go.
  private struct Route: Sendable {
    let paths: Set<String>
    let host: String
    let handler: @Sendable (String) async -> SoupLoopbackServer.Reply
  }

  /// Listens on 127.0.0.1 and ::1 on one port. With a free port, a port whose ::1 side is taken is given up for
  /// another (a few times); a machine without IPv6 loopback has nothing to take ::1, so 127.0.0.1 alone is safe.
  private static func serveBothLoopbacks(_ route: Route, port fixed: Int?) async throws
    -> ([SoupLoopbackServer], Int, [String])
  {
    for _ in 0..<5 {
      let v4 = try await serve(route, on: "127.0.0.1", port: fixed ?? 0)
      do {
        let v6 = try await serve(route, on: "::1", port: v4.port)
        return ([v4, v6], v4.port, ["127.0.0.1", "::1"])
      } catch {
        if let probe = try? await serve(route, on: "::1", port: 0) {
          // IPv6 loopback works, so that port's ::1 side belongs to someone else.
          await probe.stop()
          await v4.stop()
          if fixed != nil { throw StartError(address: "[::1]:\(v4.port)") }
          continue
        }
        return ([v4], v4.port, ["127.0.0.1"])
      }
    }
    throw StartError(address: "[::1]")
  }

  /// Serves `route` on `address`:`port` (0: a free one); throws when the address cannot be had.
  private static func serve(_ route: Route, on address: String, port: Int) async throws -> SoupLoopbackServer {
    do throws(SoupLoopbackServer.ListenError) {
      return try await SoupLoopbackServer.start(
        address: address, port: port, paths: route.paths, host: route.host, handler: route.handler)
    } catch {
      throw StartError(address: address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)")
    }
  }

  private static func reply(to answer: LoopbackAnswer) -> SoupLoopbackServer.Reply {
    switch answer {
    case .redirect(let url):
      // Not kept by the browser, and not sent on as a referrer (it may be the authorize request).
      return .init(
        status: 302,
        headers: [("Location", url.absoluteString), ("Cache-Control", "no-store"), ("Referrer-Policy", "no-referrer")])
    case .page(let title, let message):
      return page(title: title, message: message)
    case .notFound:
      return .init(status: 404)
    case .rejected:
      var reply = page(
        title: tr("Not this sign-in"),
        message: tr("This answer does not belong to the sign-in in progress, so it was ignored."))
      reply.status = 400
      return reply
    case .openedTwice:
      var reply = page(
        title: tr("Sign-in stopped"),
        message: tr("This sign-in page was opened twice, so the sign-in was stopped. Please start it again."))
      reply.status = 410
      return reply
    }
  }

  /// Stops listening, once the answers under way have been written (for at most five seconds): the browser sees the
  /// page that ends the flow even when the caller stops as soon as it knows the outcome.
  public func stop() async {
    start.removePage()
    for server in servers { await server.stop() }
  }

  private static func page(title: String, message: String) -> SoupLoopbackServer.Reply {
    func escape(_ text: String) -> String {
      text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
    }
    let html = """
      <!DOCTYPE html><html><head><meta charset="utf-8"><title>\(escape(title))</title>
      <style>body{font-family:Cantarell,sans-serif;text-align:center;margin-top:15vh;color:#2e3436}</style></head>
      <body><h1>\(escape(title))</h1><p>\(escape(message))</p></body></html>
      """
    return .init(
      status: 200, headers: [("Cache-Control", "no-store")], contentType: "text/html; charset=utf-8",
      body: Data(html.utf8))
  }
}

/// The one-time start address of a listener and the authorize request it leads to. Any thread.
private final class StartPage: Sendable {
  let path: String
  private let state = Mutex<(target: URL?, opened: Bool, page: HandOverPage?)>((nil, false, nil))

  init(path: String) {
    self.path = path
  }

  func offer(_ authorize: URL) {
    let earlier = state.withLock { state in
      defer { state = (authorize, false, nil) }
      return state.page
    }
    earlier?.remove()
  }

  /// Keeps the page that leads here, to remove it once it has served.
  func keep(_ page: HandOverPage) {
    state.withLock { $0.page = page }
  }

  func removePage() {
    state.withLock { state in
      defer { state.page = nil }
      return state.page
    }?.remove()
  }

  /// The answer to a request for `url` when it is the start address (on to the authorize request the first time,
  /// `.openedTwice` the second, 404 before anything is offered or after); nil for any other address. The hand-over
  /// page stays until the listener stops: a second visit must reach `.openedTwice`, which ends the flow for all to
  /// see, not a missing file.
  func answer(_ url: String) -> LoopbackAnswer? {
    guard URLComponents(string: url)?.path == path else { return nil }
    return state.withLock { state -> LoopbackAnswer in
      guard let target = state.target else { return .notFound }
      if state.opened {
        state.target = nil
        return .openedTwice
      }
      state.opened = true
      return .redirect(target)
    }
  }
}

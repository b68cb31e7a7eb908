// TokenGate: a forwarding proxy in front of a token endpoint that holds refresh requests until the test opens it,
// so that another process can act while a refresh is in flight. Sendable.

import Foundation
import Hummingbird
import Logging
import TaskService
import TasksTestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Forwards every POST to `upstream` (same path and query); a refresh-token grant waits while the gate is closed.
final class TokenGate: Sendable {
  /// `http://127.0.0.1:PORT` of the proxy.
  let base: URL
  /// One element each time a refresh request arrives and is held.
  let heldRequests: AsyncStream<Void>
  private let gate: Gate
  private let server: BackgroundServer

  private init(base: URL, heldRequests: AsyncStream<Void>, gate: Gate, server: BackgroundServer) {
    self.base = base
    self.heldRequests = heldRequests
    self.gate = gate
    self.server = server
  }

  /// Starts a closed gate in front of `upstream`.
  static func start(upstream: URL) async throws -> TokenGate {
    let gate = Gate()
    let (heldRequests, held) = AsyncStream.makeStream(of: Void.self)
    let router = Router()
    router.post("**") { request, _ in
      let body = try await request.body.collect(upTo: 1 << 20)
      if String(buffer: body).contains("grant_type=refresh_token") {
        await gate.count()
        held.yield()
        await gate.pass()
      }
      var forwarded = URLRequest(url: URL(string: upstream.absoluteString + request.uri.description)!)
      forwarded.httpMethod = "POST"
      forwarded.setValue(request.headers[.contentType], forHTTPHeaderField: "Content-Type")
      forwarded.httpBody = Data(buffer: body)
      let (data, response) = try await URLSession.shared.data(for: forwarded)
      let http = response as! HTTPURLResponse
      return Response(
        status: .init(code: http.statusCode),
        headers: [.contentType: http.value(forHTTPHeaderField: "Content-Type") ?? "application/json"],
        body: ResponseBody(byteBuffer: ByteBuffer(data: data)))
    }
    let (base, server) = try await serveOnLoopback(router, label: "token-gate")
    return TokenGate(base: base, heldRequests: heldRequests, gate: gate, server: server)
  }

  /// Lets the held requests (and every later one) through.
  func open() async { await gate.open() }

  /// How many refresh requests came (held or passed).
  var refreshes: Int { get async { await gate.refreshes } }

  /// Stops the proxy.
  func stop() async {
    await gate.open()
    await server.stop()
  }

  private actor Gate {
    private(set) var refreshes = 0
    private var isOpen = false

    func count() { refreshes += 1 }
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func pass() async {
      if isOpen { return }
      await withCheckedContinuation { waiting.append($0) }
    }

    func open() {
      isOpen = true
      waiting.forEach { $0.resume() }
      waiting = []
    }
  }
}

extension SessionHarness {
  /// Settings for this harness in the sample's shape (authURL and tokenURL of the sign-in policy), the token URL
  /// through `gate`.
  func settingsFile(through gate: TokenGate) -> SettingsFile {
    let tenant = "b2ctasks.onmicrosoft.com"
    let query = "?p=B2C_1_SignUpOrSignIn"
    return SettingsFile([
      "clientID": settings.clientID,
      "authURL": "\(base.absoluteString)/\(tenant)/oauth2/v2.0/authorize\(query)",
      "tokenURL": "\(gate.base.absoluteString)/\(tenant)/oauth2/v2.0/token\(query)",
      "redirectURI": "urn:ietf:wg:oauth:2.0:oob", "keychain": group, "taskAPI": base.absoluteString,
    ])
  }
}

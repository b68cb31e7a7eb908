// WriteFaults: a forwarding proxy in front of a task service whose writes fail with 503 while the test says so, and
// whose reads always pass: a service that is up but cannot take changes for a while. Sendable.

import Foundation
import Hummingbird
import Logging
import TaskService
import TasksTestSupport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Forwards every request to `upstream` (method, path, query, the API's headers and body), except that a write (PUT, POST,
/// PATCH, DELETE) answers 503 while `failing` is set.
final class WriteFaults: Sendable {
  /// `http://127.0.0.1:PORT` of the proxy.
  let base: URL
  private let state: State
  private let server: BackgroundServer

  private init(base: URL, state: State, server: BackgroundServer) {
    self.base = base
    self.state = state
    self.server = server
  }

  /// Starts the proxy in front of `upstream`, failing writes.
  static func start(upstream: URL) async throws -> WriteFaults {
    let state = State()
    let router = Router()
    for method in [HTTPRequest.Method.get, .put, .post, .patch, .delete] {
      router.on("**", method: method) { request, _ in try await forward(request, to: upstream, state) }
    }
    let (base, server) = try await serveOnLoopback(router, label: "write-faults")
    return WriteFaults(base: base, state: state, server: server)
  }

  /// Whether writes fail now.
  func failWrites(_ failing: Bool) async { await state.set(failing) }

  /// How many writes were refused.
  var refusedWrites: Int { get async { await state.refused } }

  func stop() async { await server.stop() }

  private static func forward(_ request: Request, to upstream: URL, _ state: State) async throws -> Response {
    if request.method != .get, await state.refuse() {
      return Response(
        status: .serviceUnavailable, headers: [.contentType: "application/json"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"error":"writes are paused"}"#)))
    }
    let body = try await request.body.collect(upTo: 1 << 24)
    var outgoing = URLRequest(url: URL(string: upstream.absoluteString + request.uri.description)!)
    outgoing.httpMethod = request.method.rawValue
    for name in ["Authorization", "Accept", "Content-Type", "If-Match", "If-None-Match"] {
      if let value = request.headers[values: .init(name)!].first { outgoing.setValue(value, forHTTPHeaderField: name) }
    }
    if body.readableBytes > 0 { outgoing.httpBody = Data(buffer: body) }
    let (data, response) = try await URLSession.shared.data(for: outgoing)
    let http = response as! HTTPURLResponse
    var headers = HTTPFields()
    for name in ["Content-Type", "ETag", "Retry-After"] {
      if let value = http.value(forHTTPHeaderField: name) { headers[.init(name)!] = value }
    }
    return Response(
      status: .init(code: http.statusCode), headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(data: data)))
  }

  private actor State {
    private var failing = true
    private(set) var refused = 0

    func set(_ value: Bool) { failing = value }

    /// Whether a write is refused now (and counts it).
    func refuse() -> Bool {
      if failing { refused += 1 }
      return failing
    }
  }
}

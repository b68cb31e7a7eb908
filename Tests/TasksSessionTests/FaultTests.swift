// Fault tests of the task API client and the outbox against a hostile server: 500s, HTML and broken JSON, answers
// past the timeout, a server killed mid-request, no server, a host that does not resolve. Each failure is typed, and
// nothing in the outbox is lost. Every test runs over both transports (URLSession and libsoup).

import Foundation
import Hummingbird
import Logging
import Synchronization
import TaskService
import TasksCore
import TasksTestSupport
import Testing

/// A local server whose task API misbehaves in a chosen way, by path prefix: `/500`, `/html`, `/garbage`, `/slow`.
final class HostileServer: Sendable {
  let base: URL
  /// The methods of the requests that reached a `/slow` route (each is then held for two minutes, or until `kill()`).
  private let slowRequests: Methods
  private let server: BackgroundServer

  private final class Methods: Sendable {
    let seen = Mutex<[HTTPRequest.Method]>([])
  }

  private init(base: URL, slowRequests: Methods, server: BackgroundServer) {
    self.base = base
    self.slowRequests = slowRequests
    self.server = server
  }

  /// Whether a request of `method` reached a `/slow` route.
  func holds(_ method: HTTPRequest.Method) -> Bool { slowRequests.seen.withLock { $0.contains(method) } }

  static func start() async throws -> HostileServer {
    let router = Router()
    let slowRequests = Methods()
    for method in [HTTPRequest.Method.get, .post] {
      router.on("/500/api/tasks", method: method) { _, _ in Response(status: .internalServerError) }
      router.on("/html/api/tasks", method: method) { _, _ in
        Response(
          status: .ok, headers: [.contentType: "text/html"],
          body: ResponseBody(byteBuffer: ByteBuffer(string: "<html><body>502 Bad Gateway</body></html>")))
      }
      router.on("/garbage/api/tasks", method: method) { _, _ in
        Response(
          status: .ok, headers: [.contentType: "application/json"],
          body: ResponseBody(byteBuffer: ByteBuffer(string: #"[{"Id":1,"Text":"cut off"#)))
      }
      router.on("/slow/api/tasks", method: method) { _, _ in
        slowRequests.seen.withLock { $0.append(method) }
        try await Task.sleep(for: .seconds(120))
        return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "[]")))
      }
    }
    let (base, server) = try await serveOnLoopback(router, label: "hostile-server")
    return HostileServer(base: base, slowRequests: slowRequests, server: server)
  }

  /// Stops the server, dropping the requests it holds: the listener closes, and what is still running a second
  /// later is cancelled.
  func kill() async {
    await server.stop(grace: .seconds(1))
  }
}

@Suite("Faults of the task API")
struct FaultTests {
  /// A client of `base` over `transport`. The timeout is generous: on a loaded 2-core machine a prompt answer can
  /// take seconds, and only the slow route is meant to outlast it.
  private func client(_ base: URL, _ transport: Transport, timeout: TimeInterval = 60) -> TaskAPIClient {
    TaskAPIClient(baseURL: base, http: transport.client(timeout: timeout)) { _ throws(SessionError) in "a-bearer" }
  }

  /// How `body` failed (nil when it did not).
  private func failure(_ body: () async throws(TaskAPIError) -> Void) async -> TaskAPIError? {
    do throws(TaskAPIError) {
      try await body()
      return nil
    } catch {
      return error
    }
  }

  private func outbox() throws -> Outbox {
    Outbox(file: try TestDesktop.temporaryFolder("fault-outbox").appending(path: "outbox.json"))
  }

  @Test(
    "a 500, an HTML page and cut-off JSON are typed failures; the outbox keeps its tasks",
    arguments: Transport.allCases)
  func badAnswers(_ transport: Transport) async throws {
    let server = try await HostileServer.start()
    try await withTeardown({ await server.kill() }) {
      await #expect(throws: TaskAPIError.server(500)) {
        try await client(server.base.appending(path: "500"), transport).list()
      }
      for path in ["html", "garbage"] {
        let error = await failure { () throws(TaskAPIError) in
          _ = try await client(server.base.appending(path: path), transport).list()
        }
        if case .badResponse = error {} else { Issue.record("\(path): \(String(describing: error))") }
      }
      let box = try outbox()
      _ = try await box.add("typed while the server fails")
      let result = await box.flush(client(server.base.appending(path: "500"), transport))
      #expect(result == Outbox.FlushResult(sent: 0, stoppedBy: .server(500)))
      #expect(await box.pending.map(\.text) == ["typed while the server fails"])
    }
  }

  @Test(
    "an answer past the timeout, and a server killed mid-request, are network failures, in time",
    arguments: Transport.allCases)
  func slowAndKilled(_ transport: Transport) async throws {
    let server = try await HostileServer.start()
    let started = ContinuousClock.now
    await #expect(throws: TaskAPIError.network(.timedOut)) {
      try await client(server.base.appending(path: "slow"), transport, timeout: 3).list()
    }
    #expect(ContinuousClock.now - started < .seconds(90), "the client gave up at its timeout, not the server's")

    let box = try outbox()
    _ = try await box.add("sent while the server dies")
    let flush = Task { await box.flush(client(server.base.appending(path: "slow"), transport)) }
    // The add is in flight (the server holds it). Told apart from the timed-out list above by its method: on a busy
    // machine that GET can reach the server after its client gave up, and counting arrivals then waited for good.
    #expect(await eventually { server.holds(.post) }, "the add never reached the server")
    await server.kill()
    let result = await flush.value
    #expect(result.sent == 0)
    // Cut by the server's end, not given up at the client's own timeout (60 s) as if the kill had changed nothing.
    switch result.stoppedBy {
    case .network(.timedOut): Issue.record("the add timed out: the killed server did not cut it")
    case .network: break
    default: Issue.record("not a network failure: \(String(describing: result))")
    }
    #expect(await box.pending.map(\.text) == ["sent while the server dies"])
  }

  @Test(
    "no server, or a host that does not resolve: unreachable, said in words",
    arguments: ["http://127.0.0.1:9", "https://no-such-host.invalid"], Transport.allCases)
  func unreachable(base: String, _ transport: Transport) async throws {
    let url = try #require(URL(string: base))
    let error = await failure { () throws(TaskAPIError) in _ = try await client(url, transport).list() }
    guard case .network(let network) = error else {
      Issue.record("not a network failure: \(String(describing: error))")
      return
    }
    if case .unreachable = network {} else { Issue.record("not unreachable: \(network)") }
    #expect(!network.message.isEmpty)
  }
}

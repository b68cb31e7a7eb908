// LocalServer: runs a test's Hummingbird router on a free loopback port. Free functions; any thread.

import Foundation
import Hummingbird
import Logging
import Testing

/// Serves `router` on 127.0.0.1 with a free port; answers its base URL and the task to cancel to stop it.
func serveOnLoopback(_ router: Router<BasicRequestContext>, label: String) async throws -> (
  base: URL, task: Task<Void, any Error>
) {
  var logger = Logger(label: label)
  logger.logLevel = .critical
  let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
  let app = Application(
    router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
    onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
  let task = Task { try await app.runService(gracefulShutdownSignals: []) }
  var iterator = ports.makeAsyncIterator()
  let port = try #require(await iterator.next())
  return (try #require(URL(string: "http://127.0.0.1:\(port)")), task)
}

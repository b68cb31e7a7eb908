// LocalServer: runs a test's Hummingbird router on a free loopback port. Free functions; any thread.

import Foundation
import Hummingbird
import Logging
import TaskService
import Testing

/// Serves `router` on 127.0.0.1 with a free port; answers its base URL and the server, to stop.
func serveOnLoopback(_ router: Router<BasicRequestContext>, label: String) async throws -> (
  base: URL, server: BackgroundServer
) {
  var logger = Logger(label: label)
  logger.logLevel = .critical
  let server = try await BackgroundServer.start(logger: logger) { onListening in
    Application(
      router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
      onServerRunning: { await onListening($0.localAddress?.port ?? 0) }, logger: logger)
  }
  return (try #require(URL(string: "http://127.0.0.1:\(server.port)")), server)
}

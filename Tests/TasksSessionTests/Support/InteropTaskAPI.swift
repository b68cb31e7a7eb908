// The task API of the interoperability tests: a playground that trusts the independent provider's tokens.

import B2CPlayground
import Foundation
import Logging
import TasksTestSupport

extension InteropProvider {
  /// A playground in `folder` serving the task API for tokens this provider issues to `clientID`.
  func taskAPI(clientID: String, folder: URL) async throws -> RunningPlayground {
    var configuration = PlaygroundConfiguration(dataDirectory: folder.appending(path: "api"))
    configuration.port = 0
    configuration.externalTenant = .init(
      metadataURL: issuer.appending(path: ".well-known/openid-configuration"), audience: clientID)
    var logger = Logger(label: "b2c-playground-test")
    logger.logLevel = .critical  // stopping a test server logs harmless shutdown errors
    return try await Playground(configuration: configuration, logger: logger).start()
  }
}

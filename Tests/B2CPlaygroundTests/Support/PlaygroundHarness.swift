// PlaygroundHarness: a playground on a free loopback port with its own data folder, and a browser-like HTTP client.

import B2CPlayground
import Foundation
import Logging
import TasksTestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A running playground for one test; call `stop()` at the end.
struct PlaygroundHarness {
  static let clientID = PlaygroundConfiguration.appClientID
  static let tenant = "b2ctasks.onmicrosoft.com"
  static let signIn = "B2C_1_SignUpOrSignIn"
  static let reset = "B2C_1_PasswordReset"
  static let edit = "B2C_1_EditProfile"
  static let oob = "urn:ietf:wg:oauth:2.0:oob"

  let running: RunningPlayground
  let data: URL
  var base: URL { running.baseURL }

  /// Starts a playground; `adjust` changes the test configuration (fast password hashing, port 0).
  static func start(_ adjust: (inout PlaygroundConfiguration) -> Void = { _ in }) async throws -> PlaygroundHarness {
    let data = try TestDesktop.temporaryFolder("playground")
    var configuration = PlaygroundConfiguration(dataDirectory: data)
    configuration.port = 0
    configuration.passwordHashCost = 4
    adjust(&configuration)
    var logger = Logger(label: "b2c-playground-test")
    logger.logLevel = .critical  // stopping a test server logs harmless shutdown errors
    let playground = try await Playground(configuration: configuration, logger: logger)
    return PlaygroundHarness(running: try await playground.start(), data: data)
  }

  func stop() async {
    await running.stop()
    try? FileManager.default.removeItem(at: data)
  }

  /// Runs `body` with a playground started as `start` does, then stops it (also when `body` throws) and waits
  /// until it is gone.
  static func with(
    _ adjust: (inout PlaygroundConfiguration) -> Void = { _ in }, _ body: (PlaygroundHarness) async throws -> Void
  ) async throws {
    let harness = try await start(adjust)
    try await withTeardown({ await harness.stop() }) { try await body(harness) }
  }

  /// `http://127.0.0.1:PORT/{tenant}/{policy}/oauth2/v2.0/{endpoint}` (path form).
  func endpoint(_ endpoint: String, policy: String = signIn) -> URL {
    base.appending(path: "\(Self.tenant)/\(policy)/oauth2/v2.0/\(endpoint)")
  }

  /// `…/{tenant}/oauth2/v2.0/{endpoint}?p={policy}` (the sample's query form).
  func queryFormEndpoint(_ endpoint: String, policy: String = signIn) -> URL {
    var components = URLComponents(
      url: base.appending(path: "\(Self.tenant)/oauth2/v2.0/\(endpoint)"), resolvingAgainstBaseURL: false)!
    components.queryItems = [URLQueryItem(name: "p", value: policy)]
    return components.url!
  }
}

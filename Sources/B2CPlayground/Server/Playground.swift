// Playground: builds and runs the playground's HTTP server. Sendable.

import Foundation
import Hummingbird
import Logging
import NIOCore

/// The b2c-playground server: a local Azure AD B2C tenant and the sample's task API on one port.
public struct Playground: Sendable {
  /// The configuration it serves.
  public let configuration: PlaygroundConfiguration
  private let responder: RouterResponder<BasicRequestContext>
  private let logger: Logger

  /// Prepares the server: loads (or creates) the signing key, opens the database and seeds the demo accounts.
  public init(configuration: PlaygroundConfiguration, logger: Logger = Logger(label: "b2c-playground")) async throws {
    self.configuration = configuration
    self.logger = logger
    let keys = try await SigningKeys.load(from: configuration.dataDirectory)
    let store = try PlaygroundStore(file: configuration.dataDirectory.appending(path: "playground.sqlite"))
    let identity = IdentityService(configuration: configuration, keys: keys, store: store, flows: FlowStore())
    if configuration.seedDemoAccounts { try await DemoAccounts.seed(identity) }
    let validatorKeys: BearerValidator.Keys =
      configuration.externalTenant.map { .external(ExternalTenantKeys($0)) }
      ?? .own(
        keys, flavor: configuration.flavor, tenantID: configuration.tenantID,
        audiences: configuration.clients.map(\.id))
    let router = Router(context: BasicRequestContext.self)
    router.middlewares.add(RequestLog())
    router.middlewares.add(ErrorShield())
    router.get("/health") { _, _ in "ok" }
    IdentityRoutes(service: identity).register(on: router)
    TaskRoutes(
      store: store, validator: BearerValidator(keys: validatorKeys, clockSkew: configuration.clockSkew),
      maxRequestBytes: configuration.maxRequestBytes
    ).register(on: router)
    self.responder = router.buildResponder()
  }

  /// Runs until SIGINT or SIGTERM; `onListening` is told the bound port (useful with port 0).
  public func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
    try await application(onListening: onListening).runService()
  }

  /// Starts the server in the background and returns once it listens.
  public func start() async throws -> RunningPlayground {
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let app = application { port in continuation.yield(port) }
    let task = Task { try await app.runService(gracefulShutdownSignals: []) }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next() else { throw CancellationError() }
    return RunningPlayground(port: port, host: configuration.host, task: task)
  }

  private func application(onListening: @escaping @Sendable (Int) async -> Void) -> some ApplicationProtocol {
    Application(
      responder: responder,
      configuration: .init(
        address: .hostname(configuration.host, port: configuration.port), serverName: "b2c-playground"),
      onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
      logger: logger)
  }
}

/// A playground running in the background (tests and embedding).
public final class RunningPlayground: Sendable {
  /// The port it listens on.
  public let port: Int
  /// `http://127.0.0.1:PORT`.
  public let baseURL: URL
  private let task: Task<Void, any Error>

  init(port: Int, host: String, task: Task<Void, any Error>) {
    self.port = port
    self.baseURL = URL(string: "http://\(host):\(port)")!
    self.task = task
  }

  /// Stops the server and waits for it to finish.
  public func stop() async {
    task.cancel()
    _ = await task.result
  }
}

// Playground: builds and runs the playground's HTTP server. Sendable.

import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import TaskService

/// The b2c-playground server: a local Azure AD B2C tenant and the sample's task API on one port.
public struct Playground: Sendable {
  /// The configuration it serves.
  public let configuration: PlaygroundConfiguration
  private let responder: RouterResponder<ServiceRequestContext>
  private let logger: Logger
  private let origin: ServerOrigin
  private let server: HTTPServerBuilder
  private let tasks: SQLiteTaskStore

  /// Prepares the server: loads (or creates) the signing key, opens the database and seeds the demo accounts.
  public init(configuration: PlaygroundConfiguration, logger: Logger = Logger(label: "b2c-playground")) async throws {
    self.configuration = configuration
    self.logger = logger
    let keys = try await SigningKeys.load(from: configuration.dataDirectory)
    let store = try PlaygroundStore(file: configuration.dataDirectory.appending(path: "playground.sqlite"))
    let origin = ServerOrigin(configuration)
    self.origin = origin
    server = try Self.server(configuration.tls)
    let identity = IdentityService(
      configuration: configuration, keys: keys, store: store, flows: FlowStore(), origin: origin)
    if configuration.seedDemoAccounts { try await DemoAccounts.seed(identity) }
    let validator =
      configuration.externalTenant.map { tenant in
        BearerValidator(
          keys: .issuers([IssuerKeys(metadataURL: tenant.metadataURL)]), audiences: [tenant.audience],
          clockSkew: configuration.clockSkew)
      }
      ?? BearerValidator(
        keys: .local(keys.collection, issuer: { identity.issuer }), audiences: configuration.clients.map(\.id),
        clockSkew: configuration.clockSkew)
    let router = Router(context: ServiceRequestContext.self)
    router.middlewares.add(RequestLog())
    router.middlewares.add(HostCheck(origin: origin))
    router.middlewares.add(ErrorShield())
    router.get("/health") { _, _ in "ok" }
    IdentityRoutes(service: identity).register(on: router)
    // The task API, the same implementation b2c-tasks-api serves, on the playground's own database. Tasks kept
    // before owners named their issuer are the playground's own users' (with --issuer-metadata, a test set-up, they
    // stay where they are).
    let tasks = SQLiteTaskStore(database: store.database)
    self.tasks = tasks
    if configuration.externalTenant == nil { _ = try await tasks.qualifyLegacyOwners(issuer: TaskOwner.localIssuer) }
    TaskRoutes(
      store: tasks, validator: validator,
      maxRequestBytes: configuration.maxRequestBytes
    ).register(on: router)
    let planner = PlannerRoutes(store: tasks, validator: validator, maxRequestBytes: configuration.maxRequestBytes)
    planner.register(on: router)
    DAVRoutes(store: tasks, planner: planner).register(on: router)
    self.responder = router.buildResponder()
  }

  /// Runs until SIGINT or SIGTERM; `onListening` is told the origin it serves (with the bound port, for port 0).
  public func run(onListening: @escaping @Sendable (String) async -> Void = { _ in }) async throws {
    let pruning = Task { [tasks, logger] in await FeedPruning.run(tasks, logger: logger) }
    defer { pruning.cancel() }
    try await application { [origin] _ in await onListening(origin.current) }.runService()
  }

  /// HTTP/1.1, over TLS when the configuration names a certificate and key.
  private static func server(_ tls: PlaygroundConfiguration.TLSFiles?) throws -> HTTPServerBuilder {
    guard let tls else { return .http1() }
    let chain = try NIOSSLCertificate.fromPEMFile(tls.certificate.path).map { NIOSSLCertificateSource.certificate($0) }
    let key = try NIOSSLPrivateKey(file: tls.key.path, format: .pem)
    return try .tls(
      .http1(), tlsConfiguration: .makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key)))
  }

  /// Starts the server in the background and returns once it listens.
  public func start() async throws -> RunningPlayground {
    let server = try await BackgroundServer.start(logger: logger) { application(onListening: $0) }
    return RunningPlayground(server: server, origin: origin.current)
  }

  private func application(onListening: @escaping @Sendable (Int) async -> Void) -> some ApplicationProtocol {
    Application(
      responder: responder, server: server,
      configuration: .init(
        address: .hostname(configuration.host, port: configuration.port), serverName: "b2c-playground"),
      onServerRunning: { [origin] channel in
        origin.bound(port: channel.localAddress?.port ?? 0)
        await onListening(channel.localAddress?.port ?? 0)
      },
      logger: logger)
  }
}

/// A playground running in the background (tests and embedding).
public final class RunningPlayground: Sendable {
  /// The port it listens on.
  public var port: Int { server.port }
  /// Its origin, `http://127.0.0.1:PORT` by default.
  public let baseURL: URL
  private let server: BackgroundServer

  init(server: BackgroundServer, origin: String) {
    self.server = server
    self.baseURL = URL(string: origin)!
  }

  /// Stops the server gracefully (the requests in flight are answered) and waits for it to finish.
  public func stop() async {
    await server.stop()
  }
}

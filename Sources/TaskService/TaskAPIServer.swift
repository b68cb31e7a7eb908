// TaskAPIServer: the task API alone, as b2c-tasks-api serves it: the routes, /health, /ready. Sendable.

import Foundation
import Hummingbird
import Logging

/// The task API on its own, for a real deployment: any number of instances on one database, behind a balancer.
/// `/health` says the process is alive; `/ready` that its database answers (a balancer sends traffic only then).
public struct TaskAPIServer: Sendable {
  /// Where it listens and what it trusts.
  public struct Configuration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// The OpenID Connect metadata documents of the issuers whose tokens are accepted.
    public var issuerMetadata: [URL] = []
    /// The audiences (client ids) accepted tokens must carry one of.
    public var audiences: [String] = []
    /// Allowed clock difference when checking token lifetimes, in seconds.
    public var clockSkew = 300
    /// The largest request body accepted, in bytes.
    public var maxRequestBytes = 64 * 1024
    /// How many bytes of encoded task lists to keep in memory (0: none).
    public var listCacheBytes = 64 << 20
    /// How long an issuer's key set is used before it is read again, in seconds.
    public var keysMaxAge: TimeInterval = 86400
    /// The proxies the issuers' metadata and keys are read through (b2c-tasks-api: the environment's).
    public var outboundProxies = OutboundProxies.none

    public init() {}
  }

  private let configuration: Configuration
  private let responder: RouterResponder<ServiceRequestContext>
  private let logger: Logger
  private let store: any TaskStore & DAVStore
  private let issuers: [IssuerKeys]

  public init(configuration: Configuration, store: any TaskStore & DAVStore, logger: Logger) {
    self.configuration = configuration
    self.logger = logger
    self.store = store
    let fetcher = KeyFetcher(proxies: configuration.outboundProxies)
    let issuers = configuration.issuerMetadata.map {
      IssuerKeys(metadataURL: $0, maxAge: configuration.keysMaxAge, fetcher: fetcher)
    }
    self.issuers = issuers
    let router = Router(context: ServiceRequestContext.self)
    router.middlewares.add(RequestLog())
    router.middlewares.add(ErrorShield())
    router.get("/health") { _, _ in "ok" }
    router.get("/ready") { _, _ -> Response in
      guard await store.isReachable() else {
        return try json(["Message": "The database cannot be reached."], status: .serviceUnavailable)
      }
      return try json(["Message": "ready"])
    }
    TaskRoutes.refuseOtherMethods(on: router, path: "/health", allowed: [.get])
    TaskRoutes.refuseOtherMethods(on: router, path: "/ready", allowed: [.get])
    let validator = BearerValidator(
      keys: .issuers(issuers),
      audiences: configuration.audiences, clockSkew: configuration.clockSkew)
    TaskRoutes(
      store: store, validator: validator, maxRequestBytes: configuration.maxRequestBytes,
      listCacheBytes: configuration.listCacheBytes
    ).register(on: router)
    let planner = PlannerRoutes(store: store, validator: validator, maxRequestBytes: configuration.maxRequestBytes)
    planner.register(on: router)
    DAVRoutes(store: store, planner: planner).register(on: router)
    responder = router.buildResponder()
  }

  /// Trusted metadata documents of two origins declare the same `iss` (OpenID Discovery §4.3 asks that a document's
  /// issuer be its own), or documents of one origin declare it with different keys: the service does not start, as
  /// whoever holds either's keys would own the other's users. (One provider's documents may share an issuer with
  /// the same keys: a B2C tenant's policies all declare the tenant's issuer.)
  public struct SharedIssuer: Error, CustomStringConvertible {
    public let issuer: String
    public let metadata: [URL]
    public var description: String {
      "the issuer \(issuer) is declared by \(metadata.count) trusted metadata documents ("
        + metadata.map(\.absoluteString).sorted().joined(separator: ", ")
        + ") of different origins or with different keys: trust one of them, as owners are kept per issuer"
    }
  }

  /// Serves until SIGINT or SIGTERM, then stops taking connections and finishes the requests in flight.
  /// `onListening` is told the bound port (for port 0). Throws before listening `IssuerKeys.NotItsIssuer` when a
  /// trusted document declares an issuer its address does not name, and `SharedIssuer` when documents of two origins
  /// declare one `iss` (issuers that cannot be read at the start are checked when they can: their tokens are refused
  /// meanwhile).
  public func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
    let declared = await BearerValidator.declarations(issuers)
    if let misnamed = declared.misnamed.first { throw misnamed }
    let proxies = configuration.outboundProxies
    if !proxies.ignoredExceptions.isEmpty {
      logger.warning(
        "no_proxy entries that name no host, domain or address range are left out",
        metadata: ["entries": "\(proxies.ignoredExceptions.joined(separator: ","))"])
    }
    for (url, reason) in declared.unreadable {
      logger.warning(
        "an issuer's metadata cannot be read: its tokens are refused until it can",
        metadata: [
          "metadata": "\(url.absoluteString)", "proxy": "\(proxies.proxy(for: url)?.description ?? "none")",
          "reason": "\(reason)",
        ])
    }
    if let (name, urls) = declared.shared.first { throw SharedIssuer(issuer: name, metadata: urls) }
    let app = Application(
      responder: responder,
      configuration: .init(
        address: .hostname(configuration.host, port: configuration.port), serverName: "b2c-tasks-api"),
      onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
      logger: logger)
    // With one issuer, rows from before owners named their issuer are its users'.
    let migration =
      issuers.count == 1
      ? Task { [store, logger] in
        await LegacyOwners.migrate(store, to: issuers[0], logger: logger)
      } : nil
    defer { migration?.cancel() }
    let pruning = Task { [store, logger] in await FeedPruning.run(store, logger: logger) }
    defer { pruning.cancel() }
    try await app.runService()
  }
}

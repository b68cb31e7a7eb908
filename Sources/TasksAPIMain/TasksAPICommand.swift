// b2c-tasks-api: the sample's task API alone, for a real deployment in front of a real tenant.

import ArgumentParser
import Foundation
import Logging
import TaskService
import TaskServicePostgres

/// The command line of `b2c-tasks-api`.
@main
struct TasksAPICommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "b2c-tasks-api",
    abstract: "The B2C Tasks task API (/api/tasks) on its own, for a real Azure AD B2C, External ID or OpenID "
      + "Connect tenant.",
    discussion: """
      Accepts bearer tokens of the issuers named with --issuer-metadata (a B2C policy's, an External ID tenant's or \
      any OpenID Connect provider's metadata document) that carry one of the --audience values. Keeps tasks in \
      SQLite (--database PATH, one instance) or PostgreSQL (--database postgres://user@host:port/db, or \
      DATABASE_URL; any number of instances on one database; the password from PGPASSWORD or DATABASE_URL, not the \
      command line). Serves /health (alive) and /ready (the database answers). SIGTERM stops taking connections and \
      finishes the requests in flight. Reads https issuers' metadata and keys through the proxy https_proxy (or \
      HTTPS_PROXY, else all_proxy or ALL_PROXY) names, except for the hosts, domains and address ranges in no_proxy \
      (or NO_PROXY).
      """)

  @Option(help: "The address to listen on.") var host = "127.0.0.1"
  @Option(help: "The port to listen on (0 picks a free one).") var port = 8080
  @Option(
    help: """
      The database: a PostgreSQL URL (postgres://user@host:port/database[?sslmode=…]) or a SQLite file path \
      (default: $DATABASE_URL, else $XDG_DATA_HOME/b2c-tasks-api/tasks.sqlite).
      """)
  var database: String?
  @Option(
    help: """
      At most this many pooled connections to PostgreSQL (and three of its own: list versions, feed positions, \
      change notifications).
      """)
  var connections = 20
  @Option(help: "Megabytes of encoded task lists kept in memory, each until its owner's tasks change (0: none).")
  var listCache = 64
  @Option(help: "An issuer's OpenID Connect metadata URL whose tokens are accepted (repeatable).")
  var issuerMetadata: [String] = []
  @Option(help: "An audience (client id) accepted tokens must carry (repeatable).") var audience: [String] = []
  @Option(help: "Allowed clock skew in seconds when checking tokens.") var clockSkew = 300
  @Option(help: "Read the issuers' keys again after this many seconds (a withdrawn key is then no longer trusted).")
  var keysMaxAge = 86400
  @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.") var logLevel = "info"

  func validate() throws {
    guard !issuerMetadata.isEmpty else { throw ValidationError("Name at least one --issuer-metadata.") }
    guard !audience.isEmpty else { throw ValidationError("Name at least one --audience.") }
    for url in issuerMetadata where !IssuerKeys.isTrustworthy(url) {
      throw ValidationError("--issuer-metadata must be an https URL (or http on a loopback address): \(url)")
    }
    guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown log level \(logLevel)") }
    guard connections > 0 else { throw ValidationError("--connections must be at least 1.") }
    guard (0...65536).contains(listCache) else { throw ValidationError("--list-cache must be 0 to 65536 (MB).") }
    if let url = databaseURL, PostgresURL.isPostgres(url) {
      do { _ = try PostgresURL(url) } catch { throw ValidationError("\(error)") }
    }
  }

  /// --database, else DATABASE_URL.
  private var databaseURL: String? { database ?? ProcessInfo.processInfo.environment["DATABASE_URL"] }

  func run() async throws {
    // One descriptor per connection, and the change feed's long poll holds a connection per waiting client: the
    // soft limit (1 024 by default) goes up to the hard one.
    var files = rlimit()
    if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &files) == 0, files.rlim_cur < files.rlim_max {
      files.rlim_cur = files.rlim_max
      _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &files)
    }
    var logger = Logger(label: "b2c-tasks-api")
    logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
    var configuration = TaskAPIServer.Configuration()
    configuration.host = host
    configuration.port = port
    configuration.issuerMetadata = issuerMetadata.compactMap(URL.init(string:))
    configuration.audiences = audience
    configuration.clockSkew = clockSkew
    configuration.keysMaxAge = TimeInterval(max(1, keysMaxAge))
    configuration.listCacheBytes = listCache << 20
    configuration.outboundProxies = try OutboundProxies(environment: ProcessInfo.processInfo.environment)
    let announce: @Sendable (Int) async -> Void = { [host] port in
      // One line a supervisor (or a test) can wait for; the rest goes through the logger.
      FileHandle.standardOutput.write(Data("b2c-tasks-api listening on http://\(host):\(port)\n".utf8))
    }
    guard let url = databaseURL, PostgresURL.isPostgres(url) else {
      let store = try SQLiteTaskStore(path: try databasePath())
      try await TaskAPIServer(configuration: configuration, store: store, logger: logger).run(onListening: announce)
      return
    }
    let postgres = try PostgresURL(url)
    logger.info("using PostgreSQL", metadata: ["database": "\(postgres)"])
    let store = try PostgresTaskStore(configuration: postgres, connections: connections, logger: logger)
    try await withThrowingTaskGroup { group in
      group.addTask { await store.run() }
      do { try await store.migrate() } catch is TaskStoreUnavailable {
        throw StartError(
          description: "PostgreSQL at \(postgres) cannot be reached: is it running, and is the URL right?")
      }
      // The server returns once SIGTERM's requests in flight are answered; only then does the pool close.
      try await TaskAPIServer(configuration: configuration, store: store, logger: logger).run(onListening: announce)
      group.cancelAll()
    }
  }

  private func databasePath() throws -> String {
    if let database = databaseURL { return database }
    let data =
      ProcessInfo.processInfo.environment["XDG_DATA_HOME"].map { URL(filePath: $0) }
      ?? URL(filePath: NSHomeDirectory()).appending(path: ".local/share")
    let folder = data.appending(path: "b2c-tasks-api")
    try FileManager.default.createDirectory(
      at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    return folder.appending(path: "tasks.sqlite").path(percentEncoded: false)
  }
}

/// Why b2c-tasks-api could not start (ArgumentParser prints the description after "Error:").
struct StartError: Error, CustomStringConvertible {
  let description: String
}

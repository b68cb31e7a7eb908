// PostgresURL: a PostgreSQL connection URL (`postgres://user[:password]@host[:port]/database?sslmode=…`) read into
// PostgresNIO's configuration, with a typed error for anything else. Sendable.

import Foundation
import PostgresNIO

/// A PostgreSQL URL as libpq spells it: `postgres://` or `postgresql://`, user, optional password (better in
/// `PGPASSWORD` than on a command line), host and port or a Unix socket folder (`?host=/run/postgresql`), database,
/// and `sslmode` (`disable`, `require`, `verify-ca`, `verify-full`; `prefer` is refused because a man in the middle
/// can always say no). Without `sslmode`, TLS is required with the server's certificate verified, except on a
/// loopback address or a Unix socket.
public struct PostgresURL: Sendable, CustomStringConvertible {
  /// How the connection is secured.
  public enum Security: String, Sendable {
    case disable
    case verifyFull = "verify-full"
  }

  public let user: String
  public let password: String?
  /// The host name or address; nil with a Unix socket.
  public let host: String?
  public let port: Int
  /// The folder of the server's Unix socket (`.s.PGSQL.PORT` in it).
  public let socketFolder: String?
  public let database: String
  public let security: Security

  /// Whether `text` looks like a PostgreSQL URL at all (rather than a SQLite path).
  public static func isPostgres(_ text: String) -> Bool {
    text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
  }

  /// Reads `text`; `environment` supplies `PGPASSWORD` when the URL has no password.
  public init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(Error) {
    guard Self.isPostgres(text), let parts = URLComponents(string: text) else { throw .notPostgresURL }
    let query = Dictionary(
      (parts.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
    let unknown = Set(query.keys).subtracting(["sslmode", "host", "port", "user", "password", "dbname"])
    if let name = unknown.sorted().first { throw .unknownParameter(name) }
    guard let user = (query["user"] ?? parts.user).flatMap({ $0.isEmpty ? nil : $0 }) else { throw .noUser }
    self.user = user
    password = query["password"] ?? parts.password ?? environment["PGPASSWORD"]
    let database = query["dbname"] ?? String(parts.path.dropFirst())
    guard !database.isEmpty, !database.contains("/") else { throw .noDatabase }
    self.database = database
    if let text = query["port"] {
      guard let port = Int(text), (1...65535).contains(port) else { throw .badPort(text) }
      self.port = port
    } else {
      self.port = parts.port ?? 5432
    }
    let host = query["host"] ?? parts.host.map { $0.removingPercentEncoding ?? $0 } ?? ""
    if host.hasPrefix("/") {
      socketFolder = host
      self.host = nil
    } else {
      guard !host.isEmpty else { throw .noHost }
      socketFolder = nil
      self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }
    switch query["sslmode"] {
    case nil: security = socketFolder != nil || Self.isLoopback(self.host ?? "") ? .disable : .verifyFull
    case "disable": security = .disable
    case "require", "verify-ca", "verify-full": security = .verifyFull
    case let mode?: throw .badSSLMode(mode)
    }
  }

  /// The pool configuration PostgresNIO takes.
  public var clientConfiguration: PostgresClient.Configuration {
    guard let socketFolder else {
      let tls: PostgresClient.Configuration.TLS = security == .disable ? .disable : .require(.makeClientConfiguration())
      return .init(host: host ?? "", port: port, username: user, password: password, database: database, tls: tls)
    }
    return .init(unixSocketPath: socketPath(socketFolder), username: user, password: password, database: database)
  }

  /// The configuration of a single connection (outside the pool), as `clientConfiguration`.
  public func connectionConfiguration() throws -> PostgresConnection.Configuration {
    guard let socketFolder else {
      let tls: PostgresConnection.Configuration.TLS =
        security == .disable ? .disable : .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
      return .init(host: host ?? "", port: port, username: user, password: password, database: database, tls: tls)
    }
    return .init(unixSocketPath: socketPath(socketFolder), username: user, password: password, database: database)
  }

  private func socketPath(_ folder: String) -> String { folder + "/.s.PGSQL.\(port)" }

  /// The URL without its password, for logs and messages.
  public var description: String {
    let place = socketFolder.map { "?host=\($0)" } ?? ""
    let address = host.map { $0.contains(":") ? "[\($0)]:\(port)" : "\($0):\(port)" } ?? ""
    return "postgres://\(user)@\(address)/\(database)\(place)"
  }

  /// Whether `host` is a loopback address: `localhost`, `::1`, or an IPv4 address in 127.0.0.0/8 — four decimal
  /// numbers, not a DNS name that merely starts with "127." (`127.db.example.com` is anywhere, and gets TLS).
  static func isLoopback(_ host: String) -> Bool {
    if host.lowercased() == "localhost" || host == "::1" { return true }
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4, parts[0] == "127" else { return false }
    return parts.allSatisfy { part in
      !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber)
        && (Int(part) ?? 256) <= 255
    }
  }

  /// Why a database URL was refused.
  public enum Error: Swift.Error, Equatable, CustomStringConvertible {
    case notPostgresURL
    case unknownParameter(String)
    case noUser
    case noHost
    case noDatabase
    case badPort(String)
    case badSSLMode(String)

    public var description: String {
      switch self {
      case .notPostgresURL: "not a PostgreSQL URL (postgres://user@host:port/database)"
      case .unknownParameter(let name): "the PostgreSQL URL has an unknown parameter \(name)"
      case .noUser: "the PostgreSQL URL names no user (postgres://user@host/database)"
      case .noHost: "the PostgreSQL URL names no host (or ?host=/socket/folder)"
      case .noDatabase: "the PostgreSQL URL names no database (postgres://user@host/database)"
      case .badPort(let port): "the PostgreSQL URL's port is not a port number: \(port)"
      case .badSSLMode(let mode):
        "sslmode \(mode) is not supported: use disable, require, verify-ca or verify-full"
      }
    }
  }
}

// PlaygroundStore: users, tasks and refresh tokens in SQLite (GRDB). Sendable; GRDB serialises access.

import Foundation
import GRDB
import TaskService

/// A user of the tenant. The password is kept only as a bcrypt hash.
struct User: Codable, FetchableRecord, PersistableRecord, Sendable, Equatable {
  static let databaseTableName = "users"
  /// The object id (`oid`, `sub`).
  var oid: String
  var email: String
  var displayName: String
  var passwordHash: String
  var createdAt: Date
}

/// A refresh token, stored as the SHA-256 of its value. Each use rotates it: the old one is marked used and a new
/// one of the same family is issued, until the family's sliding window ends.
struct RefreshTokenRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
  static let databaseTableName = "refreshTokens"
  enum Status: String, Codable, Sendable { case active, used, revoked }
  var tokenHash: String
  var family: String
  var oid: String
  var clientID: String
  var policy: String
  var scope: String
  var authTime: Int
  var issuedAt: Date
  var expiresAt: Date
  var familyExpiresAt: Date
  var status: Status
}

/// The playground's database: `playground.sqlite` in the data folder.
final class PlaygroundStore: Sendable {
  let database: DatabaseQueue

  /// Opens (creating and migrating) the database at `file`.
  init(file: URL) throws {
    try PrivateFiles.createFolder(file.deletingLastPathComponent())
    // Its tasks are the task API's (SQLiteTaskStore over this queue): the same durability and mapping.
    database = try DatabaseQueue(path: file.path, configuration: SQLiteTaskStore.configuration)
    try Self.migrator.migrate(database)
  }

  private static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.create(table: "users") { t in
        t.primaryKey("oid", .text)
        t.column("email", .text).notNull().unique().collate(.nocase)
        t.column("displayName", .text).notNull()
        t.column("passwordHash", .text).notNull()
        t.column("createdAt", .datetime).notNull()
      }
      try SQLiteTaskStore.createTables(db)
      try db.create(table: "refreshTokens") { t in
        t.primaryKey("tokenHash", .text)
        t.column("family", .text).notNull().indexed()
        t.column("oid", .text).notNull()
        t.column("clientID", .text).notNull()
        t.column("policy", .text).notNull()
        t.column("scope", .text).notNull()
        t.column("authTime", .integer).notNull()
        t.column("issuedAt", .datetime).notNull()
        t.column("expiresAt", .datetime).notNull()
        t.column("familyExpiresAt", .datetime).notNull()
        t.column("status", .text).notNull()
      }
    }
    SQLiteTaskStore.registerListVersions(in: &migrator)
    SQLiteTaskStore.registerPlanner(in: &migrator)
    return migrator
  }

  // MARK: Users

  func user(email: String) async throws -> User? {
    try await database.read { db in
      try User.filter(Column("email").collating(.nocase) == email).fetchOne(db)
    }
  }

  func user(oid: String) async throws -> User? {
    try await database.read { db in try User.fetchOne(db, key: oid) }
  }

  /// Inserts `user`; answers false when the email is taken.
  func insert(_ user: User) async throws -> Bool {
    try await database.write { db in
      guard try User.filter(Column("email").collating(.nocase) == user.email).fetchCount(db) == 0 else {
        return false
      }
      try user.insert(db)
      return true
    }
  }

  func update(_ user: User) async throws {
    try await database.write { db in try user.update(db) }
  }

  func userCount() async throws -> Int {
    try await database.read { db in try User.fetchCount(db) }
  }

  // MARK: Refresh tokens

  func insert(_ token: RefreshTokenRecord) async throws {
    try await database.write { db in try token.insert(db) }
  }

  func refreshToken(hash: String) async throws -> RefreshTokenRecord? {
    try await database.read { db in try RefreshTokenRecord.fetchOne(db, key: hash) }
  }

  /// Marks the token used, if it was active; answers the record as it was before, or nil when unknown. Done in one
  /// transaction so that two concurrent uses of one token cannot both succeed.
  func consume(tokenHash: String) async throws -> RefreshTokenRecord? {
    try await database.write { db in
      guard var record = try RefreshTokenRecord.fetchOne(db, key: tokenHash) else { return nil }
      let before = record
      if record.status == .active {
        record.status = .used
        try record.update(db)
      }
      return before
    }
  }

  /// Revokes every refresh token descended from the same sign-in (`family`): a rotated token used again means it
  /// leaked, so the whole chain ends (RFC 9700 §4.14.2).
  func revokeFamily(_ family: String) async throws {
    try await database.write { db in
      try db.execute(
        sql: "UPDATE refreshTokens SET status = 'revoked' WHERE family = ? AND status = 'active'", arguments: [family])
    }
  }

  /// Revokes every refresh token of `oid` (sign-out everywhere, password reset).
  func revokeRefreshTokens(oid: String) async throws {
    try await database.write { db in
      try db.execute(
        sql: "UPDATE refreshTokens SET status = 'revoked' WHERE oid = ? AND status = 'active'", arguments: [oid])
    }
  }
}

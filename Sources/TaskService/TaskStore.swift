// TaskStore: where the task API keeps tasks and idempotency keys: SQLite (GRDB) here, PostgreSQL beside it. Sendable.

import Foundation
import GRDB

/// A task as the task API stores it.
public struct TaskRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable, Equatable {
  public static let databaseTableName = "tasks"
  public var id: Int64?
  public var owner: String
  public var text: String
  public var completed: Bool
  public var dateModified: Date

  public init(id: Int64?, owner: String, text: String, completed: Bool, dateModified: Date) {
    self.id = id
    self.owner = owner
    self.text = text
    self.completed = completed
    self.dateModified = dateModified
  }

  public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// The task API's storage. Every call names the owner: a user only ever reads and changes their own tasks.
public protocol TaskStore: Sendable {
  /// The owner's tasks, oldest first.
  func tasks(owner: String) async throws -> [TaskRecord]
  /// For each owner, a number that changes whenever the owner's tasks change (kept by the database itself, so every
  /// instance and every writer agrees); an owner left out has 0 (no task yet). Lets a list be answered from memory,
  /// or with 304. Many owners at once: concurrent list requests share one read (`ListVersionReads`). Calls
  /// `completion` once, on any thread: `ListVersionReads` starts the next read from there, on the database's own
  /// thread, without a hop through Swift's executor.
  func readListVersions(owners: [String], completion: @escaping @Sendable (Result<[String: Int64], any Error>) -> Void)
  /// Adds a task and returns its id; with an idempotency key the same owner used before, adds nothing and returns
  /// the id of the task added then (even if it has been deleted since: a retried add never brings a task back).
  func addTask(owner: String, text: String, idempotencyKey: String?) async throws -> Int64
  /// Deletes the owner's task `id`; a missing one is no error, as in the original API.
  func deleteTask(owner: String, id: Int64) async throws
  /// Changes the owner's task `id`; false when the owner has no such task.
  func updateTask(owner: String, id: Int64, text: String?, completed: Bool?) async throws -> Bool
  /// Whether the database answers (`/ready`).
  func isReachable() async -> Bool
  /// Gives the rows kept before owners named their issuer (`TaskOwner`) to `issuer`'s users: tasks and idempotency
  /// keys whose owner is a bare subject become `issuer`'s. Run only when `issuer` is the one issuer the service
  /// trusts (the rows can only be its users'). Answers how many tasks moved.
  func qualifyLegacyOwners(issuer: String) async throws -> Int
}

/// The database cannot be reached (or did not answer in time): the request may succeed later, so the API answers
/// 503 with Retry-After rather than 500, and `/ready` takes the instance out of its balancer's rotation.
public struct TaskStoreUnavailable: Error, CustomStringConvertible {
  public init() {}
  public var description: String { "the task database cannot be reached" }
}

/// Tasks in SQLite through GRDB: the embedded default, and the playground's own database.
public final class SQLiteTaskStore: TaskStore {
  let database: any DatabaseWriter
  /// The change feed's long poll, rung after each commit that moved members' feed positions.
  public let feedBell = FeedBell()

  /// Uses `database`, whose schema its owner keeps (the playground creates the tables with `createTables`).
  public init(database: any DatabaseWriter) {
    self.database = database
    Self.ring(feedBell, from: database)
  }

  /// How every connection to a database of tasks is set up (the service's pool, the playground's queue).
  public static var configuration: Configuration {
    var configuration = Configuration()
    // Another process holding the file for a moment (an instance stopping on the same file, its last connection
    // checkpointing; an administrator's sqlite3) makes a statement wait for it, up to 10 s, instead of failing at
    // once (an instance started as the last one stopped refused to start: "database is locked").
    configuration.busyMode = .timeout(10)
    configuration.prepareDatabase { db in
      // Durable on commit: an acknowledged task survives kill -9 and power loss.
      try db.execute(sql: "PRAGMA synchronous = FULL")
      // Pages read through a mapping of the file instead of a copy into each connection's small cache: a first
      // sync's feed read of 10 000 tasks spent a quarter of its time in pread (Tests/Benchmarks/RESULTS.md).
      try db.execute(sql: "PRAGMA mmap_size = 268435456")
    }
    return configuration
  }

  /// Opens (creating and migrating) the database file at `path`.
  public convenience init(path: String) throws {
    // WAL: readers do not wait for a writer (and a second process may open the same file).
    let pool = try DatabasePool(path: path, configuration: Self.configuration)
    var migrator = DatabaseMigrator()
    migrator.registerMigration("tasks-v1") { db in try Self.createTables(db) }
    Self.registerListVersions(in: &migrator)
    Self.registerPlanner(in: &migrator)
    try migrator.migrate(pool)
    self.init(database: pool)
  }

  /// The task API's tables: tasks, and idempotency keys unique per owner.
  public static func createTables(_ db: Database) throws {
    try db.create(table: "tasks", options: .ifNotExists) { t in
      t.autoIncrementedPrimaryKey("id")
      t.column("owner", .text).notNull().indexed()
      t.column("text", .text).notNull()
      t.column("completed", .boolean).notNull().defaults(to: false)
      t.column("dateModified", .datetime).notNull()
    }
    try db.create(table: "idempotencyKeys", options: .ifNotExists) { t in
      t.column("owner", .text).notNull()
      t.column("key", .text).notNull()
      t.column("taskID", .integer).notNull()
      t.column("createdAt", .datetime).notNull()
      t.primaryKey(["owner", "key"])
    }
  }

  /// Adds the list versions (`listVersions`, kept by triggers on `tasks`) to a database made by `createTables`.
  public static func registerListVersions(in migrator: inout DatabaseMigrator) {
    migrator.registerMigration("tasks-v2-list-versions") { db in
      try db.execute(
        sql: """
          CREATE TABLE listVersions (owner TEXT PRIMARY KEY NOT NULL, version INTEGER NOT NULL) WITHOUT ROWID;
          INSERT INTO listVersions (owner, version) SELECT owner, 1 FROM tasks GROUP BY owner;
          CREATE TRIGGER tasksInsertedListVersion AFTER INSERT ON tasks BEGIN
            INSERT INTO listVersions (owner, version) VALUES (NEW.owner, 1)
              ON CONFLICT (owner) DO UPDATE SET version = version + 1;
          END;
          CREATE TRIGGER tasksUpdatedListVersion AFTER UPDATE ON tasks BEGIN
            INSERT INTO listVersions (owner, version) VALUES (NEW.owner, 1)
              ON CONFLICT (owner) DO UPDATE SET version = version + 1;
          END;
          CREATE TRIGGER tasksDeletedListVersion AFTER DELETE ON tasks BEGIN
            INSERT INTO listVersions (owner, version) VALUES (OLD.owner, 1)
              ON CONFLICT (owner) DO UPDATE SET version = version + 1;
          END;
          """)
    }
  }

  /// On GRDB's reader queue, which then runs the completion (no task and no hop to Swift's executor per read).
  public func readListVersions(
    owners: [String], completion: @escaping @Sendable (Result<[String: Int64], any Error>) -> Void
  ) {
    database.asyncRead { db in completion(Result { try Self.listVersions(db.get(), owners: owners) }) }
  }

  private static func listVersions(_ db: Database, owners: [String]) throws -> [String: Int64] {
    let statement = try db.cachedStatement(sql: "SELECT version FROM listVersions WHERE owner = ?")
    var versions: [String: Int64] = [:]
    for owner in owners { versions[owner] = try Int64.fetchOne(statement, arguments: [owner]) }
    return versions
  }

  public func tasks(owner: String) async throws -> [TaskRecord] {
    try await database.read { db in
      // Columns by position from a cached statement, not Codable: decoding records through Decoder took a fifth of
      // the CPU time of a 100-task answer (Tests/Benchmarks/RESULTS.md). The owner's default list (v2), whoever
      // added the task.
      let statement = try db.cachedStatement(
        sql: """
          SELECT id, text, completed, dateModified FROM tasks
          WHERE listID = (SELECT id FROM lists WHERE owner = ? AND isDefault) ORDER BY id
          """)
      var tasks: [TaskRecord] = []
      let rows = try Row.fetchCursor(statement, arguments: [owner])
      while let row = try rows.next() {
        tasks.append(
          TaskRecord(id: row[0], owner: owner, text: row[1], completed: row[2], dateModified: row[3]))
      }
      return tasks
    }
  }

  public func addTask(owner: String, text: String, idempotencyKey: String?) async throws -> Int64 {
    try await database.write { db in
      if let idempotencyKey,
        let existing = try Int64.fetchOne(
          db, sql: "SELECT taskID FROM idempotencyKeys WHERE owner = ? AND key = ?",
          arguments: [owner, idempotencyKey])
      {
        return existing
      }
      let list = try Self.defaultList(db, caller: owner, displayName: nil)
      let seq = try Self.tick(db)
      let now = Date()
      try db.execute(
        sql: """
          INSERT INTO tasks (owner, text, completed, dateModified, uuid, listID, createdAt, version, seq, changedBy)
          VALUES (?, ?, 0, ?, ?, ?, ?, 1, ?, \(Self.changedBy))
          """, arguments: [owner, text, now, UUID().lowercased, list, now, seq, list, owner])
      let id = db.lastInsertedRowID
      try db.execute(sql: "UPDATE lists SET seq = ? WHERE id = ?", arguments: [seq, list])
      if let idempotencyKey {
        try db.execute(
          sql: "INSERT INTO idempotencyKeys (owner, key, taskID, createdAt) VALUES (?, ?, ?, ?)",
          arguments: [owner, idempotencyKey, id, now])
      }
      return id
    }
  }

  /// The v1 id's task in the owner's default list (uuid and list), if there is one.
  private static func defaultListTask(_ db: Database, owner: String, id: Int64) throws -> Row? {
    try Row.fetchOne(
      db,
      sql: """
        SELECT t.uuid, t.listID FROM tasks t JOIN lists l ON l.id = t.listID
        WHERE t.id = ? AND l.owner = ? AND l.isDefault
        """, arguments: [id, owner])
  }

  public func deleteTask(owner: String, id: Int64) async throws {
    try await database.write { db in
      guard let row = try Self.defaultListTask(db, owner: owner, id: id) else { return }
      let uuid: String = row[0]
      let seq = try Self.tick(db)
      try Self.deleteTasks(db, where: "uuid = ? OR parentID = ?", [uuid, uuid], seq: seq, now: Date())
      try db.execute(sql: "UPDATE lists SET seq = ? WHERE id = ?", arguments: [seq, row[1] as String])
    }
  }

  public func updateTask(owner: String, id: Int64, text: String?, completed: Bool?) async throws -> Bool {
    try await database.write { db in
      guard let row = try Self.defaultListTask(db, owner: owner, id: id) else { return false }
      let seq = try Self.tick(db)
      let now = Date()
      try db.execute(
        sql: """
          UPDATE tasks SET text = coalesce(?, text), completed = coalesce(?, completed),
            completedAt = CASE WHEN NOT coalesce(?, completed) THEN NULL ELSE coalesce(completedAt, ?) END,
            dateModified = ?, version = version + 1, seq = ?, changedBy = \(Self.changedBy)
          WHERE id = ?
          """, arguments: [text, completed, completed, now, now, seq, row[1] as String, owner, id])
      try db.execute(sql: "UPDATE lists SET seq = ? WHERE id = ?", arguments: [seq, row[1] as String])
      return true
    }
  }

  public func isReachable() async -> Bool {
    (try? await database.read { db in try Int.fetchOne(db, sql: "SELECT 1") }) == 1
  }

  public func qualifyLegacyOwners(issuer: String) async throws -> Int {
    try await database.write { db in
      let prefix = issuer + " "
      try db.execute(
        sql: "UPDATE idempotencyKeys SET owner = ? || owner WHERE instr(owner, ' ') = 0", arguments: [prefix])
      try db.execute(
        sql: """
          UPDATE lists SET owner = ? || owner WHERE instr(owner, ' ') = 0;
          UPDATE members SET member = ? || member WHERE instr(member, ' ') = 0;
          UPDATE invitations SET usedBy = ? || usedBy WHERE instr(usedBy, ' ') = 0;
          UPDATE tombstones SET member = ? || member WHERE instr(member, ' ') = 0;
          UPDATE memberFeed SET member = ? || member WHERE instr(member, ' ') = 0;
          """, arguments: [prefix, prefix, prefix, prefix, prefix])
      try db.execute(sql: "UPDATE tasks SET owner = ? || owner WHERE instr(owner, ' ') = 0", arguments: [prefix])
      return db.changesCount
    }
  }
}

// SQLiteDAVStore: the CalDAV face's storage in SQLite (GRDB): each task's resource in three columns of its row, the
// names of deleted resources on their tombstones, and the app passwords' table. Sendable (SQLiteTaskStore).

import Foundation
import GRDB
import TasksCalendar

extension SQLiteTaskStore: DAVStore {
  /// A task's resource: `davName` (unique in its list; nil: `<uuid>.ics`), `davUID` (nil: its id) and `ical`, the
  /// text its client last wrote. A task moved to another list leaves a tombstone with its name and loses the name
  /// (a move is a deletion in one collection and a new resource in the other).
  static func registerDAV(in migrator: inout DatabaseMigrator) {
    migrator.registerMigration("caldav-v1") { db in
      try db.execute(
        sql: """
          ALTER TABLE tasks ADD COLUMN davName TEXT;
          ALTER TABLE tasks ADD COLUMN davUID TEXT;
          ALTER TABLE tasks ADD COLUMN ical TEXT;
          CREATE UNIQUE INDEX tasksDAVName ON tasks (listID, davName) WHERE davName IS NOT NULL;
          CREATE INDEX tasksDAVUID ON tasks (listID, davUID) WHERE davUID IS NOT NULL;
          ALTER TABLE tombstones ADD COLUMN davName TEXT;
          ALTER TABLE lists ADD COLUMN davName TEXT;
          ALTER TABLE members ADD COLUMN davColor TEXT;
          CREATE TABLE appPasswords (id TEXT PRIMARY KEY NOT NULL, owner TEXT NOT NULL, displayName TEXT,
            username TEXT NOT NULL, name TEXT NOT NULL, hash TEXT NOT NULL, createdAt DATETIME NOT NULL,
            lastUsedAt DATETIME);
          CREATE INDEX appPasswordsOwner ON appPasswords (owner);
          CREATE INDEX appPasswordsUsername ON appPasswords (username);
          """)
    }
  }

  /// A task's resource name as a tombstone keeps it.
  static let davName = "coalesce(davName, uuid || '.ics')"

  static func record(_ db: Database, id: UUID) throws -> DAVRecord? {
    try Row.fetchOne(db, sql: "SELECT davName, davUID, ical FROM tasks WHERE uuid = ?", arguments: [id.lowercased])
      .map { DAVRecord(name: $0[0], uid: $0[1], ical: $0[2]) }
  }

  static func setRecord(_ db: Database, _ record: DAVRecord, id: UUID) throws {
    try db.execute(
      sql: "UPDATE tasks SET davName = ?, davUID = ?, ical = ? WHERE uuid = ?",
      arguments: [record.name, record.uid, record.ical, id.lowercased])
  }

  public func davCollection(caller: String, listID: UUID, _ selection: DAVSelection) async throws -> DAVCollection? {
    try await database.read { db in
      guard let list = try Self.memberList(db, caller: caller, id: listID),
        let row = try Row.fetchOne(
          db,
          sql: """
            SELECT l.seq, l.davName, m.davColor FROM lists l JOIN members m ON m.listID = l.id
            WHERE l.id = ? AND m.member = ?
            """, arguments: [listID.lowercased, caller])
      else { return nil }
      var collection = DAVCollection(list: list, position: row[0], name: row[1])
      collection.color = row[2]
      let position = collection.position
      let columns = """
        \(Self.taskColumns("t")), t.davName, t.davUID, t.ical,
          (SELECT coalesce(p.davUID, p.uuid) FROM tasks p WHERE p.uuid = t.parentID)
        """
      let key = listID.lowercased
      let sql: String
      let arguments: StatementArguments
      switch selection {
      case .none: return collection
      case .all:
        (sql, arguments) = ("SELECT \(columns) FROM tasks t WHERE t.listID = ?", [key])
      case .lookup(let names, let uids):
        let ids = names.compactMap(DAVTask.id(ofDefaultName:)).map(\.lowercased) + uids
        sql = """
          SELECT \(columns) FROM tasks t WHERE t.listID = ? AND (t.davName IN \(Self.placeholders(names.count))
            OR t.davUID IN \(Self.placeholders(uids.count)) OR t.uuid IN \(Self.placeholders(ids.count)))
          """
        arguments = StatementArguments([key] + names + uids + ids)
      case .since(let after):
        let horizon = try Int64.fetchOne(db, sql: "SELECT horizon FROM plannerClock") ?? 0
        try PlannerFeedRefusal.check(after, position: position, horizon: horizon)
        (sql, arguments) = ("SELECT \(columns) FROM tasks t WHERE t.listID = ? AND t.seq > ?", [key, after])
        collection.deleted = try String.fetchAll(
          db,
          sql: """
            SELECT DISTINCT d.davName FROM tombstones d WHERE d.listID = ? AND d.kind = 'task' AND d.seq > ?
              AND d.davName IS NOT NULL AND NOT EXISTS (SELECT 1 FROM tasks x WHERE x.listID = d.listID
                AND coalesce(x.davName, x.uuid || '.ics') = d.davName)
            """, arguments: [key, after])
      }
      collection.tasks = try Self.rows(db, sql: sql, arguments: arguments) { row in
        DAVTask(
          stored: Self.storedTask(row), record: DAVRecord(name: row[11], uid: row[12], ical: row[13]),
          parentUID: row[14])
      }
      return collection
    }
  }

  public func nameCollection(caller: String, listID: UUID, name: String) async throws {
    try await database.write { db in
      try db.execute(
        sql: "UPDATE lists SET davName = ? WHERE id = ? AND owner = ?", arguments: [name, listID.lowercased, caller])
    }
  }

  public func colorCollection(caller: String, listID: UUID, color: String?) async throws {
    try await database.write { db in
      try db.execute(
        sql: "UPDATE members SET davColor = ? WHERE listID = ? AND member = ?",
        arguments: [color, listID.lowercased, caller])
    }
  }

  /// `(?, ?, …)` for `count` values (`(NULL)` for none: `IN (NULL)` matches nothing).
  static func placeholders(_ count: Int) -> String {
    count == 0 ? "(NULL)" : "(" + Array(repeating: "?", count: count).joined(separator: ", ") + ")"
  }

  // MARK: App passwords

  static func appPassword(_ row: Row) -> AppPasswordRecord {
    AppPasswordRecord(
      id: UUID(text: row[0]) ?? UUID(), owner: row[1], displayName: row[2], username: row[3], name: row[4],
      hash: row[5], createdAt: row[6], lastUsedAt: row[7])
  }

  static let appPasswordColumns = "id, owner, displayName, username, name, hash, createdAt, lastUsedAt"

  public func addAppPassword(_ record: AppPasswordRecord) async throws -> Bool {
    try await database.write { db in
      let count =
        try Int.fetchOne(db, sql: "SELECT count(*) FROM appPasswords WHERE owner = ?", arguments: [record.owner]) ?? 0
      guard count < AppPasswords.maxPerAccount else { return false }
      try db.execute(
        sql: "INSERT INTO appPasswords (\(Self.appPasswordColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        arguments: [
          record.id.lowercased, record.owner, record.displayName, record.username, record.name, record.hash,
          record.createdAt, record.lastUsedAt,
        ])
      return true
    }
  }

  public func appPasswords(owner: String) async throws -> [AppPasswordRecord] {
    try await appPasswords(where: "owner", is: owner)
  }

  public func appPasswords(username: String) async throws -> [AppPasswordRecord] {
    try await appPasswords(where: "username", is: username)
  }

  /// The app passwords whose `column` is `value`, oldest first.
  private func appPasswords(where column: String, is value: String) async throws -> [AppPasswordRecord] {
    try await database.read { db in
      try Self.rows(
        db, sql: "SELECT \(Self.appPasswordColumns) FROM appPasswords WHERE \(column) = ? ORDER BY createdAt, id",
        arguments: [value], Self.appPassword)
    }
  }

  public func deleteAppPassword(owner: String, id: UUID) async throws -> Bool {
    try await database.write { db in
      try db.execute(
        sql: "DELETE FROM appPasswords WHERE owner = ? AND id = ?", arguments: [owner, id.lowercased])
      return db.changesCount > 0
    }
  }

  public func appPasswordUsed(id: UUID, at: Date) async throws {
    try await database.write { db in
      try db.execute(sql: "UPDATE appPasswords SET lastUsedAt = ? WHERE id = ?", arguments: [at, id.lowercased])
    }
  }
}

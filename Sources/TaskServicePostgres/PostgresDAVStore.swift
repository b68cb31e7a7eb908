// PostgresDAVStore: the CalDAV face's storage in PostgreSQL: each task's resource in three columns of its row, the
// names of deleted resources on their tombstones, and the app passwords' table (as SQLiteDAVStore). Sendable
// (PostgresTaskStore).

import Foundation
import PostgresNIO
import TaskService

extension PostgresTaskStore: DAVStore {
  /// A task's resource (`dav_name`, unique in its list, nil: `<uuid>.ics`; `dav_uid`, nil: its id; `ical`), the
  /// tombstones' names, and the app passwords.
  static let davMigration: (version: String, statements: [PostgresQuery]) = (
    "caldav-v1",
    [
      "ALTER TABLE tasks ADD COLUMN dav_name text, ADD COLUMN dav_uid text, ADD COLUMN ical text",
      "CREATE UNIQUE INDEX tasks_dav_name ON tasks (list_id, dav_name) WHERE dav_name IS NOT NULL",
      "CREATE INDEX tasks_dav_uid ON tasks (list_id, dav_uid) WHERE dav_uid IS NOT NULL",
      "ALTER TABLE tombstones ADD COLUMN dav_name text",
      "ALTER TABLE lists ADD COLUMN dav_name text",
      "ALTER TABLE members ADD COLUMN dav_color text",
      """
      CREATE TABLE app_passwords (id uuid PRIMARY KEY, owner text NOT NULL, display_name text, username text NOT NULL,
        name text NOT NULL, hash text NOT NULL, created_at timestamptz NOT NULL, last_used_at timestamptz)
      """,
      "CREATE INDEX app_passwords_owner ON app_passwords (owner)",
      "CREATE INDEX app_passwords_username ON app_passwords (username)",
    ]
  )

  func record(_ connection: PostgresConnection, id: UUID) async throws -> DAVRecord? {
    let rows = try await connection.query(
      "SELECT dav_name, dav_uid, ical FROM tasks WHERE uuid = \(id)", logger: logger)
    for try await (name, uid, ical) in rows.decode((String?, String?, String?).self) {
      return DAVRecord(name: name, uid: uid, ical: ical)
    }
    return nil
  }

  func setRecord(_ connection: PostgresConnection, _ record: DAVRecord, id: UUID) async throws {
    try await connection.query(
      "UPDATE tasks SET dav_name = \(record.name), dav_uid = \(record.uid), ical = \(record.ical) WHERE uuid = \(id)",
      logger: logger)
  }

  public func davCollection(caller: String, listID: UUID, _ selection: DAVSelection) async throws -> DAVCollection? {
    try await available {
      try await self.client.withTransaction(logger: self.logger) { connection in
        // One snapshot: the position and the rows agree.
        try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: self.logger)
        guard let (list, _) = try await self.memberList(connection, caller: caller, id: listID) else { return nil }
        var collection = DAVCollection(list: list, position: 0)
        for try await (seq, name, color) in try await connection.query(
          """
          SELECT l.seq, l.dav_name, m.dav_color FROM lists l JOIN members m ON m.list_id = l.id
          WHERE l.id = \(listID) AND m.member = \(caller)
          """, logger: self.logger
        ).decode((Int64, String?, String?).self) {
          collection.position = seq
          collection.name = name
          collection.color = color
        }
        let position = collection.position
        let columns = """
          \(Self.taskColumns("t")), t.dav_name, t.dav_uid, t.ical,
            (SELECT coalesce(p.dav_uid, p.uuid::text) FROM tasks p WHERE p.uuid = t.parent_id)
          """
        let rows: PostgresRowSequence
        switch selection {
        case .none: return collection
        case .all:
          rows = try await connection.query(
            "SELECT \(unescaped: columns) FROM tasks t WHERE t.list_id = \(listID)", logger: self.logger)
        case .lookup(let names, let uids):
          let ids = names.compactMap(DAVTask.id(ofDefaultName:))
          rows = try await connection.query(
            """
            SELECT \(unescaped: columns) FROM tasks t WHERE t.list_id = \(listID)
              AND (t.dav_name = ANY(\(names)) OR t.dav_uid = ANY(\(uids)) OR t.uuid = ANY(\(ids))
                OR t.uuid = ANY(\(uids.compactMap { UUID(uuidString: $0) })))
            """, logger: self.logger)
        case .since(let after):
          var horizon: Int64 = 0
          for try await value in try await connection.query(
            "SELECT horizon FROM planner_clock WHERE id = 1", logger: self.logger
          ).decode(Int64.self) { horizon = value }
          try PlannerFeedRefusal.check(after, position: position, horizon: horizon)
          let deleted = try await connection.query(
            """
            SELECT DISTINCT d.dav_name FROM tombstones d WHERE d.list_id = \(listID) AND d.kind = 'task'
              AND d.seq > \(after) AND d.dav_name IS NOT NULL AND NOT EXISTS (SELECT 1 FROM tasks x
                WHERE x.list_id = d.list_id AND coalesce(x.dav_name, x.uuid::text || '.ics') = d.dav_name)
            """, logger: self.logger)
          for try await name in deleted.decode(String.self) { collection.deleted.append(name) }
          rows = try await connection.query(
            "SELECT \(unescaped: columns) FROM tasks t WHERE t.list_id = \(listID) AND t.seq > \(after)",
            logger: self.logger)
        }
        for try await row in rows {
          let cells = row.makeRandomAccess()
          let record = DAVRecord(
            name: try cells[11].decode(String?.self), uid: try cells[12].decode(String?.self),
            ical: try cells[13].decode(String?.self))
          collection.tasks.append(
            DAVTask(
              stored: try Self.storedTask(cells), record: record, parentUID: try cells[14].decode(String?.self)))
        }
        return collection
      }
    }
  }

  public func nameCollection(caller: String, listID: UUID, name: String) async throws {
    try await available {
      try await self.client.withConnection { connection in
        try await connection.query(
          "UPDATE lists SET dav_name = \(name) WHERE id = \(listID) AND owner = \(caller)", logger: self.logger)
      }
    }
  }

  public func colorCollection(caller: String, listID: UUID, color: String?) async throws {
    try await available {
      try await self.client.withConnection { connection in
        try await connection.query(
          "UPDATE members SET dav_color = \(color) WHERE list_id = \(listID) AND member = \(caller)",
          logger: self.logger)
      }
    }
  }

  // MARK: App passwords

  static let appPasswordColumns = "id, owner, display_name, username, name, hash, created_at, last_used_at"
  typealias AppPasswordRow = (UUID, String, String?, String, String, String, Date, Date?)

  func appPasswords(_ rows: PostgresRowSequence) async throws -> [AppPasswordRecord] {
    var records: [AppPasswordRecord] = []
    for try await row in rows.decode(AppPasswordRow.self) {
      records.append(
        AppPasswordRecord(
          id: row.0, owner: row.1, displayName: row.2, username: row.3, name: row.4, hash: row.5, createdAt: row.6,
          lastUsedAt: row.7))
    }
    return records
  }

  public func addAppPassword(_ record: AppPasswordRecord) async throws -> Bool {
    try await available {
      try await self.client.withTransaction(logger: self.logger) { connection in
        // One account's additions one at a time, on every instance: the count below stays true until the insert.
        try await connection.query("SELECT pg_advisory_xact_lock(hashtext(\(record.owner)))", logger: self.logger)
        let count = try await self.count(connection, "SELECT count(*) FROM app_passwords WHERE owner = \(record.owner)")
        guard count < AppPasswords.maxPerAccount else { return false }
        try await connection.query(
          """
          INSERT INTO app_passwords (\(unescaped: Self.appPasswordColumns)) VALUES (\(record.id), \(record.owner),
            \(record.displayName), \(record.username), \(record.name), \(record.hash), \(record.createdAt),
            \(record.lastUsedAt))
          """, logger: self.logger)
        return true
      }
    }
  }

  public func appPasswords(owner: String) async throws -> [AppPasswordRecord] {
    try await appPasswords(where: "owner = \(owner)")
  }

  public func appPasswords(username: String) async throws -> [AppPasswordRecord] {
    try await appPasswords(where: "username = \(username)")
  }

  /// The app passwords `condition` picks, oldest first.
  private func appPasswords(where condition: PostgresQuery) async throws -> [AppPasswordRecord] {
    try await available {
      try await self.client.withConnection { connection in
        var query: PostgresQuery = "SELECT \(unescaped: Self.appPasswordColumns) FROM app_passwords WHERE "
        query.sql += condition.sql
        query.binds = condition.binds
        query.sql += " ORDER BY created_at, id"
        return try await self.appPasswords(try await connection.query(query, logger: self.logger))
      }
    }
  }

  public func deleteAppPassword(owner: String, id: UUID) async throws -> Bool {
    try await available {
      try await self.client.withConnection { connection in
        let rows = try await connection.query(
          "DELETE FROM app_passwords WHERE owner = \(owner) AND id = \(id) RETURNING id", logger: self.logger)
        for try await _ in rows.decode(UUID.self) { return true }
        return false
      }
    }
  }

  public func appPasswordUsed(id: UUID, at: Date) async throws {
    try await available {
      try await self.client.withConnection { connection in
        try await connection.query(
          "UPDATE app_passwords SET last_used_at = \(at) WHERE id = \(id)", logger: self.logger)
      }
    }
  }
}

// PreviousRelease: task databases as the release before the planner (task API v2) left them, SQLite and PostgreSQL,
// for the tests of the migration.

import Foundation
import GRDB
import TaskService
import TasksTestSupport
import Testing

/// The schema of the release before the planner: one list of tasks per owner, idempotency keys, list versions.
enum PreviousRelease {
  /// A task row as that release kept it.
  struct Row {
    var owner: String
    var text: String
    var completed: Bool
    var dateModified: String
  }

  /// An SQLite database at `path` made by that release's migrations (kept unchanged in SQLiteTaskStore), with
  /// `rows` and an idempotency key `key-1` for the first.
  static func sqlite(at path: String, rows: [Row]) throws {
    let database = try DatabaseQueue(path: path)
    var migrator = DatabaseMigrator()
    migrator.registerMigration("tasks-v1") { db in try SQLiteTaskStore.createTables(db) }
    SQLiteTaskStore.registerListVersions(in: &migrator)
    try migrator.migrate(database)
    try database.write { db in
      for row in rows {
        try db.execute(
          sql: "INSERT INTO tasks (owner, text, completed, dateModified) VALUES (?, ?, ?, ?)",
          arguments: [row.owner, row.text, row.completed, row.dateModified])
      }
      try db.execute(
        sql:
          "INSERT INTO idempotencyKeys (owner, key, taskID, createdAt) VALUES (?, 'key-1', 1, '2025-01-01 00:00:00')",
        arguments: [rows[0].owner])
    }
  }

  /// A new PostgreSQL database with that release's schema (its migrations' statements, as it ran them) and `rows`;
  /// answers its URL.
  static func postgres(rows: [Row]) async throws -> String {
    let server = try await PostgresServer.shared()
    let database = try await server.createDatabase()
    let name = try #require(database.split(separator: "/").last.map(String.init))
    func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
    let values = rows.map { row in
      "(\(quoted(row.owner)), \(quoted(row.text)), \(row.completed), \(quoted(row.dateModified + "+00")))"
    }.joined(separator: ", ")
    _ = try await server.psql(
      name,
      postgresSchema + """
        INSERT INTO tasks (owner, text, completed, date_modified) VALUES \(values);
        INSERT INTO idempotency_keys (owner, key, task_id) VALUES (\(quoted(rows[0].owner)), 'key-1', 1);
        """)
    return database
  }

  static let postgresSchema = """
    BEGIN;
    CREATE TABLE schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
    CREATE TABLE tasks (
      id bigserial PRIMARY KEY,
      owner text NOT NULL,
      text text NOT NULL,
      completed boolean NOT NULL DEFAULT false,
      date_modified timestamptz NOT NULL);
    CREATE INDEX tasks_owner_id ON tasks (owner, id);
    CREATE TABLE idempotency_keys (
      owner text NOT NULL,
      key text NOT NULL,
      task_id bigint NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (owner, key));
    CREATE TABLE owner_versions (owner text PRIMARY KEY, version bigint NOT NULL);
    CREATE FUNCTION bump_owner_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO owner_versions AS v (owner, version)
        VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD.owner ELSE NEW.owner END, 1)
        ON CONFLICT (owner) DO UPDATE SET version = v.version + 1;
      RETURN NULL;
    END $$;
    CREATE TRIGGER tasks_bump_owner_version AFTER INSERT OR UPDATE OR DELETE ON tasks
      FOR EACH ROW EXECUTE FUNCTION bump_owner_version();
    INSERT INTO schema_migrations (version) VALUES ('tasks-v1'), ('tasks-v2-list-versions');
    COMMIT;

    """
}

// PostgresTaskStore: the task API's tasks in PostgreSQL through PostgresNIO's connection pool, for any number of
// b2c-tasks-api instances on one database. Sendable.

import Foundation
import Logging
import PostgresNIO
import Synchronization
import TaskService

/// Tasks in PostgreSQL. Stateless: everything an instance knows is in the database, so instances are interchangeable;
/// an idempotency key is a row unique per owner, so a retried add lands once whichever instance gets it.
///
/// Run `run()` for as long as the store is used (it drives the pool), then call `migrate()` before serving.
public final class PostgresTaskStore: TaskStore {
  let client: PostgresClient
  private let versionReader: PostgresVersionReader
  /// The change feed's positions, on a connection of their own as the list versions.
  let feedReader: PostgresVersionReader
  /// The change feed's long poll, rung by PostgreSQL's notifications (`b2c_feed`: a member's feed position moved,
  /// committed, through any instance).
  public let feedBell = FeedBell()
  /// The connection the notifications are heard on: its own, outside the pool.
  private let listening: PostgresConnection.Configuration
  let logger: Logger

  /// A store on the database `configuration` names, with at most `connections` connections in its pool (and three
  /// more of its own: the list-version reads, the feed-position reads and the notifications).
  public init(configuration: PostgresURL, connections: Int = 20, logger: Logger) throws {
    versionReader = PostgresVersionReader(
      configuration: try configuration.connectionConfiguration(),
      eventLoop: MultiThreadedEventLoopGroup.singleton.any(),
      logger: logger, limit: .seconds(15))
    feedReader = PostgresVersionReader(
      configuration: try configuration.connectionConfiguration(),
      eventLoop: MultiThreadedEventLoopGroup.singleton.any(),
      logger: logger, limit: .seconds(15), sql: PostgresVersionReader.feedPositions)
    listening = try configuration.connectionConfiguration()
    var pool = configuration.clientConfiguration
    pool.options.maximumConnections = connections
    pool.options.connectTimeout = .seconds(10)
    // The pool's own log: its connection failures surface in the queries that wait for them (as 503s and a failing
    // /ready), so only its errors are worth a line of their own; it warns, too, when a query waits for run().
    var background = logger
    background.logLevel = max(logger.logLevel, .error)
    client = PostgresClient(configuration: pool, backgroundLogger: background)
    self.logger = logger
  }

  /// Drives the connection pool until the calling task is cancelled.
  public func run() async {
    await withDiscardingTaskGroup { group in
      group.addTask { await self.hearFeed() }
      await client.run()
      group.cancelAll()
    }
    versionReader.close()
    feedReader.close()
  }

  /// Hears `b2c_feed` (each notification a member whose feed position moved, sent by a trigger on `member_feed` at
  /// commit) and rings the bell, until cancelled. Each time it starts listening, and after a lost connection, it
  /// rings every waiting request: the notifications of the gap are gone, and each request reads its position again.
  private func hearFeed() async {
    let current = Mutex<PostgresConnection?>(nil)
    await withTaskCancellationHandler {
      while !Task.isCancelled {
        var opened: PostgresConnection?
        do {
          let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: listening, id: 2, logger: logger)
          opened = connection
          current.withLock { $0 = connection }
          if !Task.isCancelled {
            try await connection.listen(on: "b2c_feed") { notifications in
              feedBell.ringAll()
              for try await notification in notifications { feedBell.ring(CollectionOfOne(notification.payload)) }
            }
          }
        } catch {
          logger.debug("the change feed's notifications were lost", metadata: ["error": "\(type(of: error))"])
        }
        // Closed before it is let go (PostgresNIO requires it), whether it ended or was ended.
        current.withLock { $0 = nil }
        try? await opened?.close()
        feedBell.ringAll()
        if !Task.isCancelled { try? await Task.sleep(for: .seconds(1)) }
      }
    } onCancel: {
      current.withLock { $0 }?.close().whenComplete { _ in }
    }
  }

  // MARK: Schema

  /// The schema's versions, oldest first; each runs once, in one transaction with its record in `schema_migrations`.
  static let migrations: [(version: String, statements: [PostgresQuery])] = [
    (
      "tasks-v1",
      [
        """
        CREATE TABLE tasks (
          id bigserial PRIMARY KEY,
          owner text NOT NULL,
          text text NOT NULL,
          completed boolean NOT NULL DEFAULT false,
          date_modified timestamptz NOT NULL)
        """,
        "CREATE INDEX tasks_owner_id ON tasks (owner, id)",
        // No foreign key: the key outlives a deleted task, so a late retry does not bring it back.
        """
        CREATE TABLE idempotency_keys (
          owner text NOT NULL,
          key text NOT NULL,
          task_id bigint NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (owner, key))
        """,
      ]
    ),
    (
      "tasks-v2-list-versions",
      [
        "CREATE TABLE owner_versions (owner text PRIMARY KEY, version bigint NOT NULL)",
        "INSERT INTO owner_versions (owner, version) SELECT owner, 1 FROM tasks GROUP BY owner",
        """
        CREATE FUNCTION bump_owner_version() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO owner_versions AS v (owner, version)
            VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD.owner ELSE NEW.owner END, 1)
            ON CONFLICT (owner) DO UPDATE SET version = v.version + 1;
          RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER tasks_bump_owner_version AFTER INSERT OR UPDATE OR DELETE ON tasks
          FOR EACH ROW EXECUTE FUNCTION bump_owner_version()
        """,
      ]
    ),
    plannerMigration,
    // Who changed a task last: the member id (of its list) of the caller who wrote it.
    ("planner-v2-changed-by", ["ALTER TABLE tasks ADD COLUMN changed_by uuid"]),
    // A list's place among a member's lists is that member's (`sort_key`), changed at `view_seq` of the feed.
    (
      "planner-v3-member-order",
      [
        "ALTER TABLE members ADD COLUMN sort_key text NOT NULL DEFAULT '', ADD COLUMN view_seq bigint NOT NULL DEFAULT 0",
        "UPDATE members m SET sort_key = l.sort_key FROM lists l WHERE l.id = m.list_id",
      ]
    ),
    davMigration,
    // The long poll's bell: every move of a member's feed position is told, at commit, to every instance listening.
    (
      "feed-notify-v1",
      [
        """
        CREATE FUNCTION planner_feed_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM pg_notify('b2c_feed', NEW.member);
          RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER member_feed_notify AFTER INSERT OR UPDATE ON member_feed
          FOR EACH ROW EXECUTE FUNCTION planner_feed_notify()
        """,
      ]
    ),
  ]

  /// Any constant: the advisory lock every instance takes while it migrates (`b2c-tasks-api` in ASCII).
  static let migrationLock: Int64 = 0x6232_632D_7461_736B

  /// Brings the schema up to date. Safe when several instances start at once: each waits for the advisory lock
  /// (held until its transaction ends), then sees the versions the others applied. Gives up after 30 s when the
  /// database cannot be reached (the pool would otherwise wait for it for ever).
  public func migrate() async throws {
    try await available(within: .seconds(30)) { try await self.applyMigrations() }
  }

  private func applyMigrations() async throws {
    try await client.withTransaction(logger: logger) { connection in
      try await connection.query("SELECT pg_advisory_xact_lock(\(Self.migrationLock))", logger: logger)
      try await connection.query(
        """
        CREATE TABLE IF NOT EXISTS schema_migrations (
          version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
        """, logger: logger)
      var applied = Set<String>()
      for try await version in try await connection.query("SELECT version FROM schema_migrations", logger: logger)
        .decode(String.self)
      {
        applied.insert(version)
      }
      for migration in Self.migrations where !applied.contains(migration.version) {
        for statement in migration.statements { try await connection.query(statement, logger: logger) }
        try await connection.query(
          "INSERT INTO schema_migrations (version) VALUES (\(migration.version))", logger: logger)
        logger.info("applied schema migration", metadata: ["version": "\(migration.version)"])
      }
    }
  }

  // MARK: TaskStore

  public func tasks(owner: String) async throws -> [TaskRecord] {
    try await available { try await self.fetchTasks(owner: owner) }
  }

  private func fetchTasks(owner: String) async throws -> [TaskRecord] {
    var tasks: [TaskRecord] = []
    for try await task in try await client.execute(OwnersTasks(owner: owner), logger: logger) { tasks.append(task) }
    return tasks
  }

  public func readListVersions(
    owners: [String], completion: @escaping @Sendable (Result<[String: Int64], any Error>) -> Void
  ) {
    versionReader.read(owners: owners, completion: completion)
  }

  public func addTask(owner: String, text: String, idempotencyKey: String?) async throws -> Int64 {
    try await available { try await self.insertTask(owner: owner, text: text, idempotencyKey: idempotencyKey) }
  }

  private func insertTask(owner: String, text: String, idempotencyKey: String?) async throws -> Int64 {
    try await client.withTransaction(logger: logger) { connection in
      // The owner's default list is locked first, as by every writer of its tasks: of two instances adding with
      // one key at once, the second waits here until the first commits, then finds the key taken.
      let list = try await self.defaultList(connection, caller: owner, displayName: nil)
      var id: Int64?
      if let idempotencyKey {
        let claimed = try await connection.query(
          """
          INSERT INTO idempotency_keys (owner, key, task_id) VALUES (\(owner), \(idempotencyKey),
            nextval(pg_get_serial_sequence('tasks', 'id')))
          ON CONFLICT (owner, key) DO NOTHING RETURNING task_id
          """, logger: self.logger)
        guard let claimedID = try await Self.firstIfAny(claimed) else {
          let existing = try await connection.query(
            "SELECT task_id FROM idempotency_keys WHERE owner = \(owner) AND key = \(idempotencyKey)",
            logger: self.logger)
          return try await Self.first(existing)
        }
        id = claimedID
      }
      let seq = try await self.tick(connection)
      let now = Date()
      let rows = try await connection.query(
        """
        INSERT INTO tasks (id, owner, text, completed, date_modified, uuid, list_id, created_at, version, seq,
          changed_by)
        VALUES (coalesce(\(id), nextval(pg_get_serial_sequence('tasks', 'id'))), \(owner), \(text), false, \(now),
          gen_random_uuid(), \(list), \(now), 1, \(seq),
          (SELECT member_id FROM members WHERE list_id = \(list) AND member = \(owner)))
        RETURNING id
        """, logger: self.logger)
      let added = try await Self.first(rows)
      try await self.touch(connection, listID: list, seq: seq)
      return added
    }
  }

  /// The owner's default list (locked) and the v1 id's task in it, if there is one.
  private func defaultListTask(_ connection: PostgresConnection, owner: String, id: Int64) async throws -> (
    list: UUID, task: UUID
  )? {
    var list: UUID?
    for try await found in try await connection.query(
      "SELECT id FROM lists WHERE owner = \(owner) AND is_default FOR UPDATE", logger: logger
    ).decode(UUID.self) {
      list = found
    }
    guard let list else { return nil }
    for try await task in try await connection.query(
      "SELECT uuid FROM tasks WHERE id = \(id) AND list_id = \(list)", logger: logger
    ).decode(UUID.self) {
      return (list, task)
    }
    return nil
  }

  public func qualifyLegacyOwners(issuer: String) async throws -> Int {
    try await available {
      try await self.client.withTransaction(logger: self.logger) { connection in
        // One instance at a time, as the schema's migrations.
        try await connection.query("SELECT pg_advisory_xact_lock(\(Self.migrationLock))", logger: self.logger)
        let prefix = issuer + " "
        try await connection.query(
          "UPDATE idempotency_keys SET owner = \(prefix) || owner WHERE strpos(owner, ' ') = 0", logger: self.logger)
        try await connection.query(
          "UPDATE lists SET owner = \(prefix) || owner WHERE strpos(owner, ' ') = 0", logger: self.logger)
        try await connection.query(
          "UPDATE members SET member = \(prefix) || member WHERE strpos(member, ' ') = 0", logger: self.logger)
        try await connection.query(
          "UPDATE tombstones SET member = \(prefix) || member WHERE strpos(member, ' ') = 0", logger: self.logger)
        try await connection.query(
          "UPDATE member_feed SET member = \(prefix) || member WHERE strpos(member, ' ') = 0", logger: self.logger)
        try await connection.query(
          "UPDATE invitations SET used_by = \(prefix) || used_by WHERE strpos(used_by, ' ') = 0", logger: self.logger)
        var moved = 0
        let rows = try await connection.query(
          "UPDATE tasks SET owner = \(prefix) || owner WHERE strpos(owner, ' ') = 0 RETURNING id",
          logger: self.logger)
        for try await _ in rows { moved += 1 }
        return moved
      }
    }
  }

  public func deleteTask(owner: String, id: Int64) async throws {
    try await available {
      try await self.client.withTransaction(logger: self.logger) { connection in
        guard let (list, task) = try await self.defaultListTask(connection, owner: owner, id: id) else { return }
        let seq = try await self.tick(connection)
        try await self.deleteTask(connection, id: task, seq: seq, now: Date())
        try await self.touch(connection, listID: list, seq: seq)
      }
    }
  }

  public func updateTask(owner: String, id: Int64, text: String?, completed: Bool?) async throws -> Bool {
    try await available {
      try await self.client.withTransaction(logger: self.logger) { connection in
        guard let (list, task) = try await self.defaultListTask(connection, owner: owner, id: id) else {
          return false
        }
        let seq = try await self.tick(connection)
        let now = Date()
        try await connection.query(
          """
          UPDATE tasks SET text = COALESCE(\(text), text), completed = COALESCE(\(completed), completed),
            completed_at = CASE WHEN NOT COALESCE(\(completed), completed) THEN NULL
              ELSE COALESCE(completed_at, \(now)) END,
            date_modified = \(now), version = version + 1, seq = \(seq),
            changed_by = (SELECT member_id FROM members WHERE list_id = \(list) AND member = \(owner))
          WHERE uuid = \(task)
          """, logger: self.logger)
        try await self.touch(connection, listID: list, seq: seq)
        return true
      }
    }
  }

  public func isReachable() async -> Bool {
    let answer = try? await available(within: .seconds(5)) {
      try await Self.firstIfAny(try await self.client.query("SELECT 1", logger: self.logger), as: Int32.self)
    }
    return answer == 1
  }

  // MARK: Outages

  /// Runs `work`, turning a database that cannot be reached, or does not answer `within`, into
  /// `TaskStoreUnavailable` (a 503 to retry; the pool keeps trying to connect meanwhile).
  func available<Value: Sendable>(
    within limit: Duration = .seconds(15), _ work: @escaping @Sendable () async throws -> Value
  ) async throws -> Value {
    do {
      // Answers at the limit even when `work` does not end on cancellation (a task group would wait for it: a
      // query waiting for a connection from the pool kept a request open past its client's patience).
      let race = Race<Value>()
      defer { race.cancelTimer() }
      return try await withCheckedThrowingContinuation { continuation in
        race.start(continuation, limit: limit, work: work)
      }
    } catch let error as PSQLError where Self.isOutage(error) {
      logger.warning("PostgreSQL cannot be reached", metadata: ["code": "\(error.code)"])
      throw TaskStoreUnavailable()
    } catch let error as PostgresTransactionError {
      // A transaction's own reason to end (a cap reached) is the error, once it was rolled back; an outage while
      // beginning, committing or rolling back is one as above.
      if let reason = error.closureError, error.rollbackError == nil,
        !((reason as? PSQLError).map(Self.isOutage) ?? false)
      {
        throw reason
      }
      for case let failure as PSQLError in [
        error.beginError, error.closureError, error.commitError, error.rollbackError,
      ]
      where Self.isOutage(failure) {
        logger.warning("PostgreSQL cannot be reached", metadata: ["code": "\(failure.code)"])
        throw TaskStoreUnavailable()
      }
      throw error
    }
  }

  /// Whether `error` says the database is away (not that a statement was wrong).
  static func isOutage(_ error: PSQLError) -> Bool {
    let away: [PSQLError.Code] = [
      .connectionError, .serverClosedConnection, .clientClosedConnection, .poolClosed, .uncleanShutdown,
    ]
    if away.contains(error.code) { return true }
    // SQLSTATE class 08 (connection exception) and 57P0x (shutting down, cannot connect now).
    guard let state = error.serverInfo?[.sqlState] else { return false }
    return state.hasPrefix("08") || state.hasPrefix("57P")
  }

  // MARK: Rows

  private static func firstIfAny<Value: PostgresDecodable & Sendable>(
    _ rows: PostgresRowSequence, as: Value.Type = Int64.self
  ) async throws -> Value? {
    var first: Value?
    for try await value in rows.decode(Value.self) where first == nil { first = value }
    return first
  }

  private static func first(_ rows: PostgresRowSequence) async throws -> Int64 {
    guard let id = try await firstIfAny(rows) else { throw PostgresStoreError.noRow }
    return id
  }
}

/// What the PostgreSQL store reports beyond the driver's own errors.
public enum PostgresStoreError: Error, CustomStringConvertible {
  /// A statement that returns a row returned none.
  case noRow

  public var description: String {
    switch self {
    case .noRow: "PostgreSQL returned no row where one was expected"
    }
  }
}

// The list's statement, prepared once per connection (PostgreSQL parses and plans it once); the list-version read's is
// PostgresVersionReader's.

/// An owner's tasks, oldest first; columns read one by one (decoding them as a tuple cost generic metadata lookups
/// on every row).
struct OwnersTasks: PostgresPreparedStatement {
  static let sql = """
    SELECT id, text, completed, date_modified FROM tasks
    WHERE list_id = (SELECT id FROM lists WHERE owner = $1 AND is_default) ORDER BY id
    """
  typealias Row = TaskRecord
  let owner: String

  func makeBindings() throws -> PostgresBindings {
    var bindings = PostgresBindings(capacity: 1)
    bindings.append(owner)
    return bindings
  }

  func decodeRow(_ row: PostgresRow) throws -> TaskRecord {
    let cells = row.makeRandomAccess()
    return TaskRecord(
      id: try cells[0].decode(Int64.self), owner: owner, text: try cells[1].decode(String.self),
      completed: try cells[2].decode(Bool.self), dateModified: try cells[3].decode(Date.self))
  }
}

/// The answer of `available`: the work's, or unavailable at the limit, whichever comes first (once); the work is
/// cancelled at the limit, the timer when the answer is given.
private final class Race<Value: Sendable>: Sendable {
  /// The caller waiting, until the first answer takes it.
  private let continuation = Mutex<CheckedContinuation<Value, any Error>?>(nil)
  private let timer = Mutex<Task<Void, Never>?>(nil)

  func start(
    _ continuation: CheckedContinuation<Value, any Error>, limit: Duration,
    work: @escaping @Sendable () async throws -> Value
  ) {
    self.continuation.withLock { $0 = continuation }
    let worker = Task {
      let result: Result<Value, any Error>
      do { result = .success(try await work()) } catch { result = .failure(error) }
      _ = self.answer(result)
    }
    let timer = Task {
      try? await Task.sleep(for: limit)
      guard !Task.isCancelled else { return }
      if self.answer(.failure(TaskStoreUnavailable())) { worker.cancel() }
    }
    self.timer.withLock { $0 = timer }
  }

  /// Gives `result` unless an answer was given; says whether this was the answer.
  private func answer(_ result: Result<Value, any Error>) -> Bool {
    guard let continuation = continuation.withLock({ $0.take() }) else { return false }
    continuation.resume(with: result)
    return true
  }

  func cancelTimer() { timer.withLock { $0?.cancel() } }
}

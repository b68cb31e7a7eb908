// PostgresPlannerStore: the task API v2 in PostgreSQL: the schema the v1 tables migrate to, and PlannerStore.
// Sendable (PostgresTaskStore).

import Foundation
import Logging
import PostgresNIO
import TaskService
import TasksCalendar

extension PostgresTaskStore: PlannerStore {
  /// The planner's tables, made from the v1 ones in one migration (one transaction, as every migration): every
  /// owner's tasks go to their default list ("Tasks"), unchanged, keeping their integer ids for `/api/tasks`.
  ///
  /// The change feed, with any number of instances writing at once: a number taken when a transaction starts is
  /// not the order in which transactions become visible. So every writing transaction locks the lists it writes
  /// first (`FOR UPDATE`), then takes the next number from the one-row clock (`planner_clock`) and writes its rows
  /// with it; the clock's row stays locked until the transaction commits, so the next number is only taken after
  /// this one is visible. A reader that sees the clock at N sees every change numbered up to N.
  static let plannerMigration: (version: String, statements: [PostgresQuery]) = (
    "planner-v1",
    [
      """
      CREATE TABLE planner_clock (id int PRIMARY KEY CHECK (id = 1), value bigint NOT NULL, horizon bigint NOT NULL)
      """,
      "INSERT INTO planner_clock (id, value, horizon) VALUES (1, 1, 0)",
      """
      CREATE TABLE lists (id uuid PRIMARY KEY, owner text NOT NULL, name text NOT NULL,
        sort_key text NOT NULL DEFAULT '', is_default boolean NOT NULL DEFAULT false, created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL, version bigint NOT NULL, seq bigint NOT NULL)
      """,
      "CREATE UNIQUE INDEX lists_default ON lists (owner) WHERE is_default",
      "CREATE INDEX lists_owner ON lists (owner)",
      """
      CREATE TABLE members (list_id uuid NOT NULL REFERENCES lists ON DELETE CASCADE, member text NOT NULL,
        member_id uuid NOT NULL UNIQUE, display_name text, role text NOT NULL, joined_seq bigint NOT NULL,
        PRIMARY KEY (list_id, member))
      """,
      "CREATE INDEX members_member ON members (member)",
      """
      CREATE TABLE invitations (code_hash bytea PRIMARY KEY,
        list_id uuid NOT NULL REFERENCES lists ON DELETE CASCADE, expires_at timestamptz NOT NULL, used_by text)
      """,
      """
      CREATE TABLE tombstones (seq bigint NOT NULL, kind text NOT NULL, id uuid NOT NULL, list_id uuid, member text,
        deleted_at timestamptz NOT NULL)
      """,
      "CREATE INDEX tombstones_list ON tombstones (list_id, seq)",
      "CREATE INDEX tombstones_member ON tombstones (member, seq)",
      """
      ALTER TABLE tasks ADD COLUMN uuid uuid, ADD COLUMN list_id uuid, ADD COLUMN parent_id uuid,
        ADD COLUMN completed_at timestamptz, ADD COLUMN details text NOT NULL DEFAULT '{}',
        ADD COLUMN created_at timestamptz, ADD COLUMN version bigint NOT NULL DEFAULT 1,
        ADD COLUMN seq bigint NOT NULL DEFAULT 1
      """,
      """
      INSERT INTO lists (id, owner, name, is_default, created_at, updated_at, version, seq)
        SELECT gen_random_uuid(), owner, 'Tasks', true, min(date_modified), max(date_modified), 1, 1
        FROM tasks GROUP BY owner
      """,
      """
      INSERT INTO members (list_id, member, member_id, role, joined_seq)
        SELECT id, owner, gen_random_uuid(), 'owner', 1 FROM lists
      """,
      """
      UPDATE tasks t SET uuid = gen_random_uuid(), created_at = date_modified,
        completed_at = CASE WHEN completed THEN date_modified END, list_id = l.id
      FROM lists l WHERE l.owner = t.owner AND l.is_default
      """,
      "CREATE TABLE member_feed (member text PRIMARY KEY, seq bigint NOT NULL)",
      "INSERT INTO member_feed (member, seq) SELECT member, 1 FROM members GROUP BY member",
      """
      CREATE FUNCTION planner_member_feed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_TABLE_NAME = 'lists' THEN
          INSERT INTO member_feed AS f (member, seq) SELECT member, NEW.seq FROM members WHERE list_id = NEW.id
            ON CONFLICT (member) DO UPDATE SET seq = greatest(f.seq, excluded.seq);
        ELSIF TG_TABLE_NAME = 'members' THEN
          INSERT INTO member_feed AS f (member, seq) SELECT NEW.member, seq FROM lists WHERE id = NEW.list_id
            ON CONFLICT (member) DO UPDATE SET seq = greatest(f.seq, excluded.seq);
        ELSIF NEW.member IS NOT NULL THEN
          INSERT INTO member_feed AS f (member, seq) VALUES (NEW.member, NEW.seq)
            ON CONFLICT (member) DO UPDATE SET seq = greatest(f.seq, excluded.seq);
        END IF;
        RETURN NULL;
      END $$
      """,
      """
      CREATE TRIGGER lists_member_feed AFTER UPDATE OF seq ON lists
        FOR EACH ROW EXECUTE FUNCTION planner_member_feed()
      """,
      "CREATE TRIGGER members_member_feed AFTER INSERT ON members FOR EACH ROW EXECUTE FUNCTION planner_member_feed()",
      """
      CREATE TRIGGER tombstones_member_feed AFTER INSERT ON tombstones
        FOR EACH ROW EXECUTE FUNCTION planner_member_feed()
      """,
      "CREATE UNIQUE INDEX tasks_uuid ON tasks (uuid)",
      "CREATE INDEX tasks_list_seq ON tasks (list_id, seq)",
      "CREATE INDEX tasks_parent ON tasks (parent_id) WHERE parent_id IS NOT NULL",
    ]
  )

  // MARK: Rows

  static let listColumns = """
    l.id, l.name, m.sort_key, l.is_default, l.created_at, l.updated_at, l.version, m.role,
      (SELECT count(*) FROM members c WHERE c.list_id = l.id), m.joined_seq
    """

  typealias ListRow = (UUID, String, String, Bool, Date, Date, Int64, String, Int64, Int64)

  static func listView(_ row: ListRow) -> PlannerListView {
    PlannerListView(
      id: row.0, name: row.1, sortKey: row.2, isDefault: row.3, createdAt: row.4, updatedAt: row.5, version: row.6,
      role: PlannerListView.Role(rawValue: row.7) ?? .member, memberCount: Int(row.8))
  }

  static let taskColumns = taskColumns(nil)

  /// The columns `storedTask` reads, of the table named `table` when given.
  static func taskColumns(_ table: String?) -> String {
    let prefix = (table ?? "tasks") + "."
    return [
      "uuid", "list_id", "text", "completed", "completed_at", "parent_id", "details", "created_at",
      "date_modified", "version",
    ].map { prefix + $0 }.joined(separator: ", ")
      // Who changed it last while they are still a member of its list (a member who left, or of the list it was
      // moved from, is no one).
      + ", (SELECT member_id FROM members WHERE member_id = \(prefix)changed_by AND list_id = \(prefix)list_id)"
  }

  /// A stored task from the first columns of `row` (`taskColumns`), each cell decoded as its own concrete type: a
  /// tuple decoded at once (`decode(TaskRow.self)`, variadic generics) looked its types' metadata up again for every
  /// row, a tenth of a first sync's time in the service (Tests/Benchmarks/RESULTS.md).
  static func storedTask(_ row: PostgresRandomAccessRow) throws -> StoredTask {
    let updatedAt = try row[8].decode(Date.self)
    return StoredTask(
      id: try row[0].decode(UUID.self), listID: try row[1].decode(UUID.self), title: try row[2].decode(String.self),
      completed: try row[3].decode(Bool.self), completedAt: try row[4].decode(Date?.self),
      parentID: try row[5].decode(UUID?.self), details: try row[6].decode(String.self),
      createdAt: try row[7].decode(Date?.self) ?? updatedAt, updatedAt: updatedAt,
      version: try row[9].decode(Int64.self), changedBy: try row[10].decode(UUID?.self))
  }

  /// The caller's member id in list `listID`.
  func memberID(_ connection: PostgresConnection, caller: String, listID: UUID) async throws -> UUID? {
    let rows = try await connection.query(
      "SELECT member_id FROM members WHERE list_id = \(listID) AND member = \(caller)", logger: logger)
    for try await id in rows.decode(UUID.self) { return id }
    return nil
  }

  /// The caller's list `id` (locked until the transaction ends when `lock`).
  func memberList(_ connection: PostgresConnection, caller: String, id: UUID, lock: Bool = false) async throws
    -> (list: PlannerListView, joined: Int64)?
  {
    let rows = try await connection.query(
      """
      SELECT \(unescaped: Self.listColumns) FROM lists l JOIN members m ON m.list_id = l.id
      WHERE m.member = \(caller) AND l.id = \(id) \(unescaped: lock ? "FOR UPDATE OF l" : "")
      """, logger: logger)
    for try await row in rows.decode(ListRow.self) { return (Self.listView(row), row.9) }
    return nil
  }

  func storedTasks(_ rows: PostgresRowSequence) async throws -> [StoredTask] {
    var tasks: [StoredTask] = []
    for try await row in rows { tasks.append(try Self.storedTask(row.makeRandomAccess())) }
    return tasks
  }

  func task(_ connection: PostgresConnection, id: UUID) async throws -> StoredTask? {
    try await storedTasks(
      try await connection.query(
        "SELECT \(unescaped: Self.taskColumns) FROM tasks WHERE uuid = \(id)", logger: logger)
    ).first
  }

  func count(_ connection: PostgresConnection, _ query: PostgresQuery) async throws -> Int64 {
    for try await value in try await connection.query(query, logger: logger).decode(Int64.self) { return value }
    return 0
  }

  // MARK: Reading

  public func lists(caller: PlannerCaller) async throws -> [PlannerListView] {
    try await available {
      try await self.client.withTransaction(logger: self.logger) { connection in
        _ = try await self.defaultList(connection, caller: caller.key, displayName: caller.displayName)
        let rows = try await connection.query(
          """
          SELECT \(unescaped: Self.listColumns) FROM lists l JOIN members m ON m.list_id = l.id
          WHERE m.member = \(caller.key) ORDER BY l.is_default DESC, m.sort_key, l.created_at, l.id
          """, logger: self.logger)
        var lists: [PlannerListView] = []
        for try await row in rows.decode(ListRow.self) { lists.append(Self.listView(row)) }
        return lists
      }
    }
  }

  public func list(caller: String, id: UUID) async throws -> PlannerListView? {
    try await available {
      try await self.client.withConnection { try await self.memberList($0, caller: caller, id: id)?.list }
    }
  }

  public func tasks(caller: String, listID: UUID) async throws -> [StoredTask]? {
    try await available {
      try await self.client.withConnection { connection in
        guard try await self.memberList(connection, caller: caller, id: listID) != nil else { return nil }
        return try await self.storedTasks(
          try await connection.query(
            "SELECT \(unescaped: Self.taskColumns) FROM tasks WHERE list_id = \(listID) ORDER BY id",
            logger: self.logger))
      }
    }
  }

  public func task(caller: String, listID: UUID, id: UUID) async throws -> StoredTask? {
    try await available {
      try await self.client.withConnection { connection in
        guard try await self.memberList(connection, caller: caller, id: listID) != nil,
          let task = try await self.task(connection, id: id), task.listID == listID
        else { return nil }
        return task
      }
    }
  }

  // MARK: Writing

  /// The next number of the change feed; the clock's row stays locked until the transaction ends. Take it after
  /// locking the lists the transaction writes, and write nothing else that other writers lock after it.
  func tick(_ connection: PostgresConnection) async throws -> Int64 {
    let rows = try await connection.query(
      "UPDATE planner_clock SET value = value + 1 WHERE id = 1 RETURNING value", logger: logger)
    for try await value in rows.decode(Int64.self) { return value }
    throw PostgresStoreError.noRow
  }

  /// The caller's default list, locked; made (with its number on the feed) if the caller has none. Takes the clock
  /// only when it makes the list.
  func defaultList(_ connection: PostgresConnection, caller: String, displayName: String?) async throws -> UUID {
    let made = try await connection.query(
      """
      INSERT INTO lists (id, owner, name, is_default, created_at, updated_at, version, seq)
      VALUES (gen_random_uuid(), \(caller), 'Tasks', true, now(), now(), 1, 0)
      ON CONFLICT (owner) WHERE is_default DO NOTHING RETURNING id
      """, logger: logger)
    for try await id in made.decode(UUID.self) {
      let seq = try await tick(connection)
      try await connection.query(
        """
        INSERT INTO members (list_id, member, member_id, display_name, role, joined_seq)
        VALUES (\(id), \(caller), gen_random_uuid(), \(displayName), 'owner', \(seq))
        """, logger: logger)
      try await connection.query("UPDATE lists SET seq = \(seq) WHERE id = \(id)", logger: logger)
      return id
    }
    let rows = try await connection.query(
      "SELECT id FROM lists WHERE owner = \(caller) AND is_default FOR UPDATE", logger: logger)
    for try await id in rows.decode(UUID.self) { return id }
    throw PostgresStoreError.noRow
  }

  public func writeList(
    caller: PlannerCaller, id: UUID, _ write: PlannerListWrite, now: Date
  ) async throws -> PlannerOutcome<PlannerListView> {
    try await available {
      try await self.client.withTransaction(logger: self.logger) { connection in
        let current = try await self.memberList(connection, caller: caller.key, id: id, lock: true)?.list
        let taken = try await self.count(connection, "SELECT count(*) FROM lists WHERE id = \(id)") > 0
        let owned = try await self.count(connection, "SELECT count(*) FROM lists WHERE owner = \(caller.key)")
        let outcome = PlannerRules.list(
          write, current: current, elsewhere: current == nil && taken, id: id, ownedCount: Int(owned), now: now)
        switch outcome {
        case .created(let list):
          let seq = try await self.tick(connection)
          try await connection.query(
            """
            INSERT INTO lists (id, owner, name, sort_key, is_default, created_at, updated_at, version, seq)
            VALUES (\(id), \(caller.key), \(list.name), \(list.sortKey), false, \(now), \(now), 1, \(seq))
            """, logger: self.logger)
          try await connection.query(
            """
            INSERT INTO members (list_id, member, member_id, display_name, role, joined_seq, sort_key)
            VALUES (\(id), \(caller.key), gen_random_uuid(), \(caller.displayName), 'owner', \(seq), \(list.sortKey))
            """, logger: self.logger)
        case .done(let list) where list != current:
          let seq = try await self.tick(connection)
          if list.name != current?.name {
            try await connection.query(
              """
              UPDATE lists SET name = \(list.name), updated_at = \(list.updatedAt), version = \(list.version),
                seq = \(seq) WHERE id = \(id)
              """, logger: self.logger)
          }
          if list.sortKey != current?.sortKey {
            // The caller's order alone: their devices read it from the feed; no one else's position moves.
            try await connection.query(
              """
              UPDATE members SET sort_key = \(list.sortKey), view_seq = \(seq)
              WHERE list_id = \(id) AND member = \(caller.key)
              """, logger: self.logger)
            try await connection.query(
              """
              INSERT INTO member_feed AS f (member, seq) VALUES (\(caller.key), \(seq))
                ON CONFLICT (member) DO UPDATE SET seq = greatest(f.seq, excluded.seq)
              """, logger: self.logger)
          }
        case .deleted:
          let seq = try await self.tick(connection)
          try await connection.query(
            """
            INSERT INTO tombstones (seq, kind, id, list_id, member, deleted_at)
              SELECT \(seq), 'list', list_id, list_id, member, \(now) FROM members WHERE list_id = \(id)
            """, logger: self.logger)
          try await connection.query("DELETE FROM tasks WHERE list_id = \(id)", logger: self.logger)
          try await connection.query("DELETE FROM lists WHERE id = \(id)", logger: self.logger)
        default: break
        }
        return outcome
      }
    }
  }

  public func writeTask(
    caller: String, listID: UUID, id: UUID, _ write: PlannerTaskWrite, record: DAVRecord?, now: Date
  ) async throws -> PlannerOutcome<StoredTask> {
    try await available {
      try await self.client.withTransaction(logger: self.logger) { connection in
        // A move locks both lists, in id order (two moves the other way round wait in turn, never deadlock).
        let target = PlannerRules.moveTarget(write, from: listID)
        if let target {
          try await connection.query(
            "SELECT 1 FROM lists WHERE id IN (\(listID), \(target)) ORDER BY id FOR UPDATE", logger: self.logger)
        }
        guard try await self.memberList(connection, caller: caller, id: listID, lock: true) != nil else {
          return .notFound
        }
        var targetAllowed = false
        if let target { targetAllowed = try await self.memberList(connection, caller: caller, id: target) != nil }
        let found = try await self.task(connection, id: id)
        let current = found?.listID == listID ? found : nil
        var parent: StoredTask?
        if let parentID = PlannerRules.parentToCheck(write) { parent = try await self.task(connection, id: parentID) }
        let subtasks = try await self.count(connection, "SELECT count(*) FROM tasks WHERE parent_id = \(id)")
        let count = try await self.count(connection, "SELECT count(*) FROM tasks WHERE list_id = \(listID)")
        let decided = PlannerRules.task(
          write, current: current, elsewhere: found != nil && current == nil, id: id, listID: listID,
          parent: parent?.listID == listID ? parent : nil, hasSubtasks: subtasks > 0, taskCount: Int(count),
          targetAllowed: targetAllowed, now: now)
        var recordChanged = false
        if let record { recordChanged = try await self.record(connection, id: id) != record }
        let outcome = PlannerRules.withRecord(decided, unchanged: current, recordChanged: recordChanged, now: now)
        switch outcome {
        case .created(let stored):
          let seq = try await self.tick(connection)
          let task = stored.task
          try await connection.query(
            """
            INSERT INTO tasks (owner, uuid, list_id, text, completed, completed_at, parent_id, details, created_at,
              date_modified, version, seq, changed_by)
            SELECT owner, \(id), \(listID), \(task.title), \(task.status == .completed), \(task.completedAt),
              \(task.parentID), \(task.details), \(now), \(now), 1, \(seq),
              (SELECT member_id FROM members WHERE list_id = \(listID) AND member = \(caller))
            FROM lists WHERE id = \(listID)
            """, logger: self.logger)
          try await self.touch(connection, listID: listID, seq: seq)
        case .done(let stored) where stored != current:
          let seq = try await self.tick(connection)
          let task = stored.task
          try await connection.query(
            """
            UPDATE tasks SET text = \(task.title), completed = \(task.status == .completed),
              completed_at = \(task.completedAt), parent_id = \(task.parentID), details = \(task.details),
              date_modified = \(stored.updatedAt), version = \(stored.version), seq = \(seq),
              changed_by = (SELECT member_id FROM members WHERE list_id = \(stored.listID) AND member = \(caller))
            WHERE uuid = \(id)
            """, logger: self.logger)
          if stored.listID != listID {
            // Moved with its subtasks: gone from the old list (tombstones, for its members' feeds), in the new one.
            try await connection.query(
              """
              INSERT INTO tombstones (seq, kind, id, list_id, deleted_at, dav_name)
                SELECT \(seq), 'task', uuid, list_id, \(now), coalesce(dav_name, uuid::text || '.ics') FROM tasks
                WHERE uuid = \(id) OR parent_id = \(id)
              """, logger: self.logger)
            try await connection.query(
              """
              UPDATE tasks SET list_id = \(stored.listID), seq = \(seq), dav_name = NULL,
                owner = (SELECT owner FROM lists WHERE id = \(stored.listID))
              WHERE uuid = \(id) OR parent_id = \(id)
              """, logger: self.logger)
            try await self.touch(connection, listID: stored.listID, seq: seq)
          }
          try await self.touch(connection, listID: listID, seq: seq)
        case .deleted:
          let seq = try await self.tick(connection)
          try await self.deleteTask(connection, id: id, seq: seq, now: now)
          try await self.touch(connection, listID: listID, seq: seq)
        default: break
        }
        if let record {
          switch outcome {
          case .created: try await self.setRecord(connection, record, id: id)
          case .done(let stored) where stored != current: try await self.setRecord(connection, record, id: id)
          default: break
          }
        }
        var memberID: [UUID: UUID?] = [:]
        switch outcome {
        case .created, .done: break
        default: return outcome  // nothing written
        }
        for list in Set([listID, target].compactMap { $0 }) {
          memberID[list] = try await self.memberID(connection, caller: caller, listID: list)
        }
        return PlannerRules.stamped(outcome, unchanged: current) { memberID[$0] ?? nil }
      }
    }
  }

  /// Deletes task `id` and its subtasks, each leaving a tombstone numbered `seq`.
  func deleteTask(_ connection: PostgresConnection, id: UUID, seq: Int64, now: Date) async throws {
    try await connection.query(
      """
      WITH gone AS (DELETE FROM tasks WHERE uuid = \(id) OR parent_id = \(id) RETURNING uuid, list_id, dav_name)
      INSERT INTO tombstones (seq, kind, id, list_id, deleted_at, dav_name)
        SELECT \(seq), 'task', uuid, list_id, \(now), coalesce(dav_name, uuid::text || '.ics') FROM gone
      """, logger: logger)
  }

  /// Marks the list as changed at `seq` (its tasks changed; its own version stays).
  func touch(_ connection: PostgresConnection, listID: UUID, seq: Int64) async throws {
    try await connection.query("UPDATE lists SET seq = \(seq) WHERE id = \(listID)", logger: logger)
  }

  // MARK: The change feed

  public func readFeedPositions(
    members: [String], completion: @escaping @Sendable (Result<[String: Int64], any Error>) -> Void
  ) {
    feedReader.read(owners: members, completion: completion)
  }

  public func changes(caller: PlannerCaller, from cursor: PlannerFeedCursor, limit: Int) async throws
    -> PlannerFeedPage
  {
    try await available {
      if cursor.after == nil && cursor.isFirstPage {
        _ = try await self.client.withTransaction(logger: self.logger) { connection in
          try await self.defaultList(connection, caller: caller.key, displayName: caller.displayName)
        }
      }
      return try await self.snapshot { connection in
        try await self.page(connection, caller: caller.key, from: cursor, limit: limit)
      }
    }
  }

  /// Runs `read` in one read-only snapshot (REPEATABLE READ): every statement sees the same committed changes.
  private func snapshot<Value: Sendable>(_ read: (PostgresConnection) async throws -> Value) async throws -> Value {
    try await client.withConnection { connection in
      try await connection.query("START TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
      do {
        let value = try await read(connection)
        try await connection.query("COMMIT", logger: logger)
        return value
      } catch {
        _ = try? await connection.query("ROLLBACK", logger: logger)
        throw error
      }
    }
  }

  private func page(_ connection: PostgresConnection, caller: String, from cursor: PlannerFeedCursor, limit: Int)
    async throws -> PlannerFeedPage
  {
    var clock: (Int64, Int64)?
    for try await row in try await connection.query(
      """
      SELECT horizon, coalesce((SELECT seq FROM member_feed WHERE member = \(caller)), 0) FROM planner_clock
      WHERE id = 1
      """, logger: logger
    ).decode((Int64, Int64).self) {
      clock = row
    }
    guard let (horizon, now) = clock else { throw PostgresStoreError.noRow }
    let upTo = try cursor.upTo(position: now, horizon: horizon)
    var page = PlannerFeedPage(next: upTo)
    let after = cursor.after ?? -1
    if cursor.isFirstPage {
      let rows = try await connection.query(
        """
        SELECT \(unescaped: Self.listColumns) FROM lists l JOIN members m ON m.list_id = l.id
        WHERE m.member = \(caller) AND (l.seq > \(after) OR m.joined_seq > \(after) OR m.view_seq > \(after))
        ORDER BY l.is_default DESC, m.sort_key, l.id
        """, logger: logger)
      for try await row in rows.decode(ListRow.self) { page.lists.append(Self.listView(row)) }
      if cursor.after != nil {
        // Tasks gone from lists the caller had already: not those now in another of the caller's lists (moved).
        let gone = try await connection.query(
          """
          SELECT DISTINCT t.id FROM tombstones t JOIN members m ON m.list_id = t.list_id
          WHERE m.member = \(caller) AND m.joined_seq <= \(after) AND t.kind = 'task' AND t.seq > \(after)
            AND t.seq <= \(upTo) AND NOT EXISTS (SELECT 1 FROM tasks x JOIN members y ON y.list_id = x.list_id
              WHERE x.uuid = t.id AND y.member = m.member)
          """, logger: logger)
        for try await id in gone.decode(UUID.self) { page.deletedTasks.append(id) }
        let lists = try await connection.query(
          """
          SELECT id FROM tombstones WHERE member = \(caller) AND kind = 'list' AND seq > \(after)
            AND seq <= \(upTo)
          """, logger: logger)
        for try await id in lists.decode(UUID.self) { page.deletedLists.append(id) }
      }
    }
    // A task is in this read when it changed, or its list was joined, after `after` and not after `upTo`.
    let select = """
      SELECT \(Self.taskColumns("t")) FROM tasks t JOIN members m ON m.list_id = t.list_id
      WHERE m.member = $1 AND greatest(t.seq, m.joined_seq) > $2 AND greatest(t.seq, m.joined_seq) <= $3
      """
    var bindings = PostgresBindings()
    bindings.append(caller)
    bindings.append(after)
    bindings.append(upTo)
    var sql = select
    if let last = cursor.lastTask {
      bindings.append(last)
      sql += " AND t.uuid > $4"
    }
    bindings.append(Int64(limit + 1))
    sql += " ORDER BY t.uuid LIMIT $\(bindings.count)"
    page.tasks = try await storedTasks(
      try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger))
    if page.tasks.count > limit {
      page.tasks.removeLast()
      page.more = PlannerFeedCursor(after: cursor.after, upTo: upTo, lastTask: page.tasks.last?.id)
    }
    return page
  }

  public func pruneFeed(before: Date) async throws {
    try await available {
      try await self.client.withTransaction(logger: self.logger) { connection in
        try await connection.query(
          """
          UPDATE planner_clock SET horizon = greatest(horizon, coalesce((SELECT max(seq) FROM tombstones
            WHERE deleted_at < \(before)), 0)) WHERE id = 1
          """, logger: self.logger)
        try await connection.query("DELETE FROM tombstones WHERE deleted_at < \(before)", logger: self.logger)
        try await connection.query("DELETE FROM invitations WHERE expires_at < \(before)", logger: self.logger)
      }
    }
  }

  // MARK: Sharing

  public func invite(caller: String, listID: UUID, codeHash: Data, expiresAt: Date) async throws -> Bool {
    try await available {
      try await self.client.withTransaction(logger: self.logger) { connection in
        guard try await self.memberList(connection, caller: caller, id: listID, lock: true)?.list.role == .owner
        else { return false }
        let open = try await self.count(
          connection,
          """
          SELECT count(*) FROM invitations WHERE list_id = \(listID) AND used_by IS NULL AND expires_at > \(Date())
          """)
        if open >= PlannerRules.maxOpenInvitations { throw PlannerRules.CapReached.invitations }
        try await connection.query(
          "INSERT INTO invitations (code_hash, list_id, expires_at) VALUES (\(codeHash), \(listID), \(expiresAt))",
          logger: self.logger)
        return true
      }
    }
  }

  public func join(caller: PlannerCaller, codeHash: Data, now: Date) async throws -> PlannerListView? {
    try await available {
      try await self.client.withTransaction(logger: self.logger) { connection in
        // The list first, as every writer locks it (then the invitation: two joins with one code wait in turn).
        var found: UUID?
        for try await id in try await connection.query(
          "SELECT list_id FROM invitations WHERE code_hash = \(codeHash)", logger: self.logger
        ).decode(UUID.self) {
          found = id
        }
        guard let listID = found else { return nil }
        try await connection.query("SELECT 1 FROM lists WHERE id = \(listID) FOR UPDATE", logger: self.logger)
        let claimed = try await self.count(
          connection,
          """
          WITH used AS (UPDATE invitations SET used_by = \(caller.key)
            WHERE code_hash = \(codeHash) AND used_by IS NULL AND expires_at > \(now) RETURNING 1)
          SELECT count(*) FROM used
          """)
        guard claimed > 0 else { return nil }
        if let (list, _) = try await self.memberList(connection, caller: caller.key, id: listID) { return list }
        let members = try await self.count(connection, "SELECT count(*) FROM members WHERE list_id = \(listID)")
        if members >= PlannerRules.maxMembers { throw PlannerRules.CapReached.members }  // (rolled back)
        let seq = try await self.tick(connection)
        try await connection.query(
          """
          INSERT INTO members (list_id, member, member_id, display_name, role, joined_seq, sort_key)
          VALUES (\(listID), \(caller.key), gen_random_uuid(), \(caller.displayName), 'member', \(seq),
            (SELECT sort_key FROM members WHERE list_id = \(listID) AND role = 'owner'))
          """, logger: self.logger)
        try await self.touch(connection, listID: listID, seq: seq)
        return try await self.memberList(connection, caller: caller.key, id: listID)?.list
      }
    }
  }

  public func members(caller: String, listID: UUID) async throws -> [PlannerMember]? {
    try await available {
      try await self.client.withConnection { connection in
        guard try await self.memberList(connection, caller: caller, id: listID) != nil else { return nil }
        let rows = try await connection.query(
          """
          SELECT member_id, display_name, role, member = \(caller) FROM members WHERE list_id = \(listID)
          ORDER BY role = 'owner' DESC, joined_seq
          """, logger: self.logger)
        var members: [PlannerMember] = []
        for try await (id, name, role, isCaller) in rows.decode((UUID, String?, String, Bool).self) {
          members.append(
            PlannerMember(
              id: id, displayName: name, role: PlannerListView.Role(rawValue: role) ?? .member, isCaller: isCaller))
        }
        return members
      }
    }
  }

  public func removeMember(
    caller: String, listID: UUID, memberID: UUID, now: Date
  ) async throws -> PlannerOutcome<PlannerMember> {
    try await available {
      try await self.client.withTransaction(logger: self.logger) { connection in
        guard let (list, _) = try await self.memberList(connection, caller: caller, id: listID, lock: true) else {
          return .notFound
        }
        var target: (String, String)?
        for try await row in try await connection.query(
          "SELECT member, role FROM members WHERE list_id = \(listID) AND member_id = \(memberID)",
          logger: self.logger
        ).decode((String, String).self) {
          target = row
        }
        guard let (key, role) = target else { return .notFound }
        let decision = PlannerRules.removal(
          callerIsOwner: list.role == .owner, targetIsCaller: key == caller, targetIsOwner: role == "owner")
        guard case .deleted = decision else { return decision }
        let seq = try await self.tick(connection)
        try await connection.query(
          "DELETE FROM members WHERE list_id = \(listID) AND member = \(key)", logger: self.logger)
        try await connection.query(
          """
          INSERT INTO tombstones (seq, kind, id, list_id, member, deleted_at)
          VALUES (\(seq), 'list', \(listID), \(listID), \(key), \(now))
          """, logger: self.logger)
        try await self.touch(connection, listID: listID, seq: seq)
        return .deleted
      }
    }
  }
}

// SQLitePlannerStore: the task API v2 in SQLite (GRDB): the schema the v1 tables migrate to, and PlannerStore.
// Sendable (SQLiteTaskStore).

import Foundation
import GRDB
import TasksCalendar

extension SQLiteTaskStore: PlannerStore {
  /// The planner's tables, made from the v1 ones in one migration (one transaction): every owner's tasks go to
  /// their default list ("Tasks"), unchanged, keeping their integer ids for `/api/tasks`.
  ///
  /// The change feed: a one-row clock gives every writing transaction the next number, stamped on the rows it
  /// wrote and on their list (`seq`); deletions leave tombstones. SQLite has one writer at a time, so numbers are
  /// taken in commit order.
  public static func registerPlanner(in migrator: inout DatabaseMigrator) {
    migrator.registerMigration("planner-v1") { db in
      db.add(function: DatabaseFunction("newUUID", argumentCount: 0, pure: false) { _ in UUID().lowercased })
      try db.execute(
        sql: """
          CREATE TABLE plannerClock (id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL,
            horizon INTEGER NOT NULL);
          INSERT INTO plannerClock (id, value, horizon) VALUES (1, 1, 0);
          CREATE TABLE lists (id TEXT PRIMARY KEY NOT NULL, owner TEXT NOT NULL, name TEXT NOT NULL,
            sortKey TEXT NOT NULL DEFAULT '', isDefault BOOLEAN NOT NULL DEFAULT 0, createdAt DATETIME NOT NULL,
            updatedAt DATETIME NOT NULL, version INTEGER NOT NULL, seq INTEGER NOT NULL);
          CREATE UNIQUE INDEX listsDefault ON lists (owner) WHERE isDefault;
          CREATE INDEX listsOwner ON lists (owner);
          CREATE TABLE members (listID TEXT NOT NULL REFERENCES lists (id) ON DELETE CASCADE, member TEXT NOT NULL,
            memberID TEXT NOT NULL UNIQUE, displayName TEXT, role TEXT NOT NULL, joinedSeq INTEGER NOT NULL,
            PRIMARY KEY (listID, member));
          CREATE INDEX membersMember ON members (member);
          CREATE TABLE invitations (codeHash BLOB PRIMARY KEY NOT NULL,
            listID TEXT NOT NULL REFERENCES lists (id) ON DELETE CASCADE, expiresAt DATETIME NOT NULL,
            usedBy TEXT);
          CREATE TABLE tombstones (seq INTEGER NOT NULL, kind TEXT NOT NULL, id TEXT NOT NULL, listID TEXT,
            member TEXT, deletedAt DATETIME NOT NULL);
          CREATE INDEX tombstonesList ON tombstones (listID, seq);
          CREATE INDEX tombstonesMember ON tombstones (member, seq);
          ALTER TABLE tasks ADD COLUMN uuid TEXT;
          ALTER TABLE tasks ADD COLUMN listID TEXT;
          ALTER TABLE tasks ADD COLUMN parentID TEXT;
          ALTER TABLE tasks ADD COLUMN completedAt DATETIME;
          ALTER TABLE tasks ADD COLUMN details TEXT NOT NULL DEFAULT '{}';
          ALTER TABLE tasks ADD COLUMN createdAt DATETIME;
          ALTER TABLE tasks ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
          ALTER TABLE tasks ADD COLUMN seq INTEGER NOT NULL DEFAULT 1;
          INSERT INTO lists (id, owner, name, isDefault, createdAt, updatedAt, version, seq)
            SELECT newUUID(), owner, 'Tasks', 1, min(dateModified), max(dateModified), 1, 1 FROM tasks GROUP BY owner;
          INSERT INTO members (listID, member, memberID, role, joinedSeq)
            SELECT id, owner, newUUID(), 'owner', 1 FROM lists;
          UPDATE tasks SET uuid = newUUID(), createdAt = dateModified,
            completedAt = CASE WHEN completed THEN dateModified END,
            listID = (SELECT id FROM lists WHERE lists.owner = tasks.owner AND isDefault);
          CREATE TABLE memberFeed (member TEXT PRIMARY KEY NOT NULL, seq INTEGER NOT NULL) WITHOUT ROWID;
          INSERT INTO memberFeed (member, seq) SELECT member, 1 FROM members GROUP BY member;
          CREATE TRIGGER listsSeqMemberFeed AFTER UPDATE OF seq ON lists BEGIN
            INSERT INTO memberFeed (member, seq) SELECT member, NEW.seq FROM members WHERE listID = NEW.id AND true
              ON CONFLICT (member) DO UPDATE SET seq = max(seq, excluded.seq);
          END;
          CREATE TRIGGER membersMemberFeed AFTER INSERT ON members BEGIN
            INSERT INTO memberFeed (member, seq) SELECT NEW.member, seq FROM lists WHERE id = NEW.listID AND true
              ON CONFLICT (member) DO UPDATE SET seq = max(seq, excluded.seq);
          END;
          CREATE TRIGGER tombstonesMemberFeed AFTER INSERT ON tombstones WHEN NEW.member IS NOT NULL BEGIN
            INSERT INTO memberFeed (member, seq) VALUES (NEW.member, NEW.seq)
              ON CONFLICT (member) DO UPDATE SET seq = max(seq, excluded.seq);
          END;
          CREATE UNIQUE INDEX tasksUUID ON tasks (uuid);
          CREATE INDEX tasksListSeq ON tasks (listID, seq);
          CREATE INDEX tasksParent ON tasks (parentID) WHERE parentID IS NOT NULL;
          """)
    }
    // Who changed a task last: the member id (of its list) of the caller who wrote it.
    migrator.registerMigration("planner-v2-changed-by") { db in
      try db.execute(sql: "ALTER TABLE tasks ADD COLUMN changedBy TEXT")
    }
    // A list's place among a member's lists is that member's (`sortKey`), changed at `viewSeq` of the feed.
    migrator.registerMigration("planner-v3-member-order") { db in
      try db.execute(
        sql: """
          ALTER TABLE members ADD COLUMN sortKey TEXT NOT NULL DEFAULT '';
          ALTER TABLE members ADD COLUMN viewSeq INTEGER NOT NULL DEFAULT 0;
          UPDATE members SET sortKey = (SELECT sortKey FROM lists WHERE lists.id = members.listID);
          """)
    }
    registerDAV(in: &migrator)
    // A feed read's pages walk the member's lists in id order and each list's tasks in id order, through these two
    // indexes: a page reads its own rows and sorts nothing (it used to read and sort all the member's tasks). The
    // first must be UNIQUE (as (listID, member) is): only then does SQLite know that each of its rows is one list,
    // and take the tasks' order from the second index instead of sorting them.
    migrator.registerMigration("planner-v4-feed-order") { db in
      try db.execute(
        sql: """
          CREATE UNIQUE INDEX membersMemberList ON members (member, listID);
          DROP INDEX membersMember;
          CREATE INDEX tasksListUUID ON tasks (listID, uuid);
          """)
    }
  }

  // MARK: Reading

  static let listColumns = """
    l.id, l.name, m.sortKey, l.isDefault, l.createdAt, l.updatedAt, l.version, m.role,
      (SELECT count(*) FROM members c WHERE c.listID = l.id), l.seq, m.joinedSeq
    """

  static func listView(_ row: Row) -> PlannerListView {
    PlannerListView(
      id: UUID(text: row[0]) ?? UUID(), name: row[1], sortKey: row[2], isDefault: row[3], createdAt: row[4],
      updatedAt: row[5], version: row[6], role: PlannerListView.Role(rawValue: row[7]) ?? .member, memberCount: row[8])
  }

  static func memberList(_ db: Database, caller: String, id: UUID) throws -> PlannerListView? {
    try Row.fetchOne(
      db,
      sql: "SELECT \(listColumns) FROM lists l JOIN members m ON m.listID = l.id WHERE m.member = ? AND l.id = ?",
      arguments: [caller, id.lowercased]
    ).map(listView)
  }

  static let taskColumns = taskColumns(nil)

  /// The columns `storedTask` reads, of the table named `table` when given.
  static func taskColumns(_ table: String?) -> String {
    let prefix = (table ?? "tasks") + "."
    return [
      "uuid", "listID", "text", "completed", "completedAt", "parentID", "details", "createdAt", "dateModified",
      "version",
    ].map { prefix + $0 }.joined(separator: ", ")
      // Who changed it last while they are still a member of its list (a member who left, or of the list it was
      // moved from, is no one).
      + ", (SELECT memberID FROM members WHERE memberID = \(prefix)changedBy AND listID = \(prefix)listID)"
  }

  /// The caller's member id in a list (who changed a task, as its list's members know them).
  static let memberID = "SELECT memberID FROM members WHERE listID = ? AND member = ?"
  static let changedBy = "(\(memberID))"

  /// `make` of every row `sql` reads (the SQLite store's reads of many rows all go through it), each made while it
  /// is the statement's row: a copied row (`Row.fetchAll`) holds each value as a `DatabaseValue` and decodes it
  /// through GRDB's generic path, 18 % of the service's samples in a full read of the feed (perf,
  /// Tests/Benchmarks/RESULTS.md); a statement's row reads the column itself.
  static func rows<Value>(
    _ db: Database, sql: String, arguments: StatementArguments, _ make: @escaping (Row) -> Value
  ) throws -> [Value] {
    try Array(Row.fetchCursor(db, sql: sql, arguments: arguments).map(make))
  }

  static func storedTask(_ row: Row) -> StoredTask {
    let parent: String? = row[5]
    let changedBy: String? = row[10]
    return StoredTask(
      id: UUID(text: row[0]) ?? UUID(), listID: UUID(text: row[1]) ?? UUID(), title: row[2],
      completed: row[3], completedAt: row[4], parentID: parent.flatMap { UUID(text: $0) }, details: row[6],
      createdAt: row[7] ?? row[8], updatedAt: row[8], version: row[9],
      changedBy: changedBy.flatMap { UUID(text: $0) })
  }

  static func task(_ db: Database, id: UUID) throws -> StoredTask? {
    try Row.fetchOne(db, sql: "SELECT \(taskColumns) FROM tasks WHERE uuid = ?", arguments: [id.lowercased])
      .map(storedTask)
  }

  public func lists(caller: PlannerCaller) async throws -> [PlannerListView] {
    try await database.write { db in
      _ = try Self.defaultList(db, caller: caller.key, displayName: caller.displayName)
      return try Self.rows(
        db,
        sql: """
          SELECT \(Self.listColumns) FROM lists l JOIN members m ON m.listID = l.id WHERE m.member = ?
          ORDER BY l.isDefault DESC, m.sortKey, l.createdAt, l.id
          """, arguments: [caller.key], Self.listView)
    }
  }

  public func list(caller: String, id: UUID) async throws -> PlannerListView? {
    try await database.read { db in try Self.memberList(db, caller: caller, id: id) }
  }

  public func tasks(caller: String, listID: UUID) async throws -> [StoredTask]? {
    try await database.read { db in
      guard try Self.memberList(db, caller: caller, id: listID) != nil else { return nil }
      return try Self.rows(
        db, sql: "SELECT \(Self.taskColumns) FROM tasks WHERE listID = ? ORDER BY id",
        arguments: [listID.lowercased], Self.storedTask)
    }
  }

  public func task(caller: String, listID: UUID, id: UUID) async throws -> StoredTask? {
    try await database.read { db in
      guard try Self.memberList(db, caller: caller, id: listID) != nil,
        let task = try Self.task(db, id: id), task.listID == listID
      else { return nil }
      return task
    }
  }

  // MARK: Writing

  /// The next number of the change feed (the transaction's).
  static func tick(_ db: Database) throws -> Int64 {
    guard let value = try Int64.fetchOne(db, sql: "UPDATE plannerClock SET value = value + 1 RETURNING value") else {
      throw DatabaseError(resultCode: .SQLITE_INTERNAL, message: "no planner clock")
    }
    return value
  }

  /// The caller's default list, made (with its number on the feed) if the caller has none.
  static func defaultList(_ db: Database, caller: String, displayName: String?) throws -> String {
    if let id = try String.fetchOne(db, sql: "SELECT id FROM lists WHERE owner = ? AND isDefault", arguments: [caller])
    {
      return id
    }
    let id = UUID().lowercased
    let seq = try tick(db)
    let now = Date()
    try db.execute(
      sql: """
        INSERT INTO lists (id, owner, name, isDefault, createdAt, updatedAt, version, seq)
        VALUES (?, ?, 'Tasks', 1, ?, ?, 1, ?)
        """, arguments: [id, caller, now, now, seq])
    try db.execute(
      sql:
        "INSERT INTO members (listID, member, memberID, displayName, role, joinedSeq) VALUES (?, ?, ?, ?, 'owner', ?)",
      arguments: [id, caller, UUID().lowercased, displayName, seq])
    return id
  }

  public func writeList(
    caller: PlannerCaller, id: UUID, _ write: PlannerListWrite, now: Date
  ) async throws -> PlannerOutcome<PlannerListView> {
    try await database.write { db in
      let current = try Self.memberList(db, caller: caller.key, id: id)
      let taken = try Int.fetchOne(db, sql: "SELECT 1 FROM lists WHERE id = ?", arguments: [id.lowercased]) != nil
      let elsewhere = current == nil && taken
      let owned = try Int.fetchOne(db, sql: "SELECT count(*) FROM lists WHERE owner = ?", arguments: [caller.key]) ?? 0
      let outcome = PlannerRules.list(
        write, current: current, elsewhere: elsewhere, id: id, ownedCount: owned, now: now)
      switch outcome {
      case .created(let list):
        let seq = try Self.tick(db)
        try db.execute(
          sql: """
            INSERT INTO lists (id, owner, name, sortKey, isDefault, createdAt, updatedAt, version, seq)
            VALUES (?, ?, ?, ?, 0, ?, ?, 1, ?)
            """, arguments: [id.lowercased, caller.key, list.name, list.sortKey, now, now, seq])
        try db.execute(
          sql: """
            INSERT INTO members (listID, member, memberID, displayName, role, joinedSeq, sortKey)
            VALUES (?, ?, ?, ?, 'owner', ?, ?)
            """, arguments: [id.lowercased, caller.key, UUID().lowercased, caller.displayName, seq, list.sortKey])
      case .done(let list) where list != current:
        let seq = try Self.tick(db)
        if list.name != current?.name {
          try db.execute(
            sql: "UPDATE lists SET name = ?, updatedAt = ?, version = ?, seq = ? WHERE id = ?",
            arguments: [list.name, list.updatedAt, list.version, seq, id.lowercased])
        }
        if list.sortKey != current?.sortKey {
          // The caller's order alone: their devices read it from the feed; no one else's position moves.
          try db.execute(
            sql: """
              UPDATE members SET sortKey = ?, viewSeq = ? WHERE listID = ? AND member = ?;
              INSERT INTO memberFeed (member, seq) VALUES (?, ?)
                ON CONFLICT (member) DO UPDATE SET seq = max(seq, excluded.seq);
              """, arguments: [list.sortKey, seq, id.lowercased, caller.key, caller.key, seq])
        }
      case .deleted:
        let seq = try Self.tick(db)
        try db.execute(
          sql: """
            INSERT INTO tombstones (seq, kind, id, listID, member, deletedAt)
              SELECT ?, 'list', listID, listID, member, ? FROM members WHERE listID = ?;
            DELETE FROM tasks WHERE listID = ?;
            DELETE FROM lists WHERE id = ?;
            """, arguments: [seq, now, id.lowercased, id.lowercased, id.lowercased])
      default: break
      }
      return outcome
    }
  }

  public func writeTask(
    caller: String, listID: UUID, id: UUID, _ write: PlannerTaskWrite, record: DAVRecord?, now: Date
  ) async throws -> PlannerOutcome<StoredTask> {
    try await database.write { db in
      guard try Self.memberList(db, caller: caller, id: listID) != nil else { return .notFound }
      let found = try Self.task(db, id: id)
      let current = found?.listID == listID ? found : nil
      let parent = try PlannerRules.parentToCheck(write).flatMap { try Self.task(db, id: $0) }
      let hasSubtasks =
        try Int.fetchOne(db, sql: "SELECT 1 FROM tasks WHERE parentID = ? LIMIT 1", arguments: [id.lowercased]) != nil
      let count = try Int.fetchOne(
        db, sql: "SELECT count(*) FROM tasks WHERE listID = ?", arguments: [listID.lowercased])
      let target = PlannerRules.moveTarget(write, from: listID)
      let targetAllowed = try target.map { try Self.memberList(db, caller: caller, id: $0) != nil } ?? false
      let decided = PlannerRules.task(
        write, current: current, elsewhere: found != nil && current == nil, id: id, listID: listID,
        parent: parent?.listID == listID ? parent : nil, hasSubtasks: hasSubtasks, taskCount: count ?? 0,
        targetAllowed: targetAllowed, now: now)
      let outcome = PlannerRules.withRecord(
        decided, unchanged: current, recordChanged: try record.map { try Self.record(db, id: id) != $0 } ?? false,
        now: now)
      switch outcome {
      case .created(let task):
        let seq = try Self.tick(db)
        let owner = try String.fetchOne(db, sql: "SELECT owner FROM lists WHERE id = ?", arguments: [listID.lowercased])
        try db.execute(
          sql: """
            INSERT INTO tasks (owner, uuid, listID, text, completed, completedAt, parentID, details, createdAt,
              dateModified, version, seq, changedBy)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, \(Self.changedBy))
            """,
          arguments: Self.taskArguments(task, seq: seq, prefix: [owner, id.lowercased, listID.lowercased])
            + [listID.lowercased, caller])
        try Self.touch(db, listID: listID, seq: seq)
      case .done(let task) where task != current:
        let seq = try Self.tick(db)
        try db.execute(
          sql: """
            UPDATE tasks SET text = ?, completed = ?, completedAt = ?, parentID = ?, details = ?, createdAt = ?,
              dateModified = ?, version = ?, seq = ?, changedBy = \(Self.changedBy) WHERE uuid = ?
            """,
          arguments: Self.taskArguments(task, seq: seq, prefix: [])
            + [task.listID.lowercased, caller, id.lowercased])
        if task.listID != listID {
          // Moved with its subtasks: gone from the old list (tombstones, for its members' feeds), in the new one.
          try db.execute(
            sql: """
              INSERT INTO tombstones (seq, kind, id, listID, deletedAt, davName)
                SELECT ?, 'task', uuid, listID, ?, \(Self.davName) FROM tasks WHERE uuid = ? OR parentID = ?;
              UPDATE tasks SET listID = ?, owner = (SELECT owner FROM lists WHERE id = ?), seq = ?, davName = NULL
                WHERE uuid = ? OR parentID = ?;
              """,
            arguments: [
              seq, now, id.lowercased, id.lowercased, task.listID.lowercased, task.listID.lowercased, seq,
              id.lowercased, id.lowercased,
            ])
          try Self.touch(db, listID: task.listID, seq: seq)
        }
        try Self.touch(db, listID: listID, seq: seq)
      case .deleted:
        let seq = try Self.tick(db)
        try Self.deleteTasks(db, where: "uuid = ? OR parentID = ?", [id.lowercased, id.lowercased], seq: seq, now: now)
        try Self.touch(db, listID: listID, seq: seq)
      default: break
      }
      if let record, case .created = outcome {
        try Self.setRecord(db, record, id: id)
      } else if let record, case .done(let task) = outcome, task != current {
        try Self.setRecord(db, record, id: id)
      }
      return try PlannerRules.stamped(outcome, unchanged: current) { list in
        try String.fetchOne(db, sql: Self.memberID, arguments: [list.lowercased, caller])
          .flatMap { UUID(text: $0) }
      }
    }
  }

  /// A task's columns from `text` on, after `prefix`.
  static func taskArguments(_ stored: StoredTask, seq: Int64, prefix: [(any DatabaseValueConvertible)?])
    -> StatementArguments
  {
    let task = stored.task
    return StatementArguments(
      prefix + [
        task.title, task.status == .completed, task.completedAt, task.parentID?.lowercased, task.details,
        stored.createdAt, stored.updatedAt, stored.version, seq,
      ])
  }

  /// Deletes the tasks `condition` selects, each leaving a tombstone numbered `seq`.
  static func deleteTasks(
    _ db: Database, where condition: String, _ arguments: StatementArguments, seq: Int64, now: Date
  ) throws {
    try db.execute(
      sql: """
        INSERT INTO tombstones (seq, kind, id, listID, deletedAt, davName)
          SELECT ?, 'task', uuid, listID, ?, \(davName) FROM tasks WHERE \(condition)
        """, arguments: [seq, now] + arguments)
    try db.execute(sql: "DELETE FROM tasks WHERE \(condition)", arguments: arguments)
  }

  /// Marks the list as changed at `seq` (its tasks changed; its own version stays).
  static func touch(_ db: Database, listID: UUID, seq: Int64) throws {
    try db.execute(sql: "UPDATE lists SET seq = ? WHERE id = ?", arguments: [seq, listID.lowercased])
  }

  // MARK: The change feed

  /// Rings `bell` after each commit of the writer's connection with the members whose feed position the
  /// transaction moved: temporary triggers (this connection's alone; the schema is not changed) on `memberFeed`
  /// call a function that collects the members, and a transaction observer rings them once the commit is done (a
  /// rollback forgets them). SQLite serves one instance, so the bell is this process's.
  static func ring(_ bell: FeedBell, from database: any DatabaseWriter) {
    let ringer = FeedRinger(bell: bell)
    do {
      try database.writeWithoutTransaction { db in
        db.add(
          function: DatabaseFunction("b2cFeedMoved", argumentCount: 1, pure: false) { values in
            if let member = String.fromDatabaseValue(values[0]) { ringer.moved.insert(member) }
            return nil
          })
        db.add(transactionObserver: ringer, extent: .databaseLifetime)
        try db.execute(
          sql: """
            CREATE TEMP TRIGGER IF NOT EXISTS memberFeedInsertedBell AFTER INSERT ON main.memberFeed
              BEGIN SELECT b2cFeedMoved(NEW.member); END;
            CREATE TEMP TRIGGER IF NOT EXISTS memberFeedUpdatedBell AFTER UPDATE ON main.memberFeed
              BEGIN SELECT b2cFeedMoved(NEW.member); END;
            """)
      }
    } catch {
      // No planner tables (a database that only ever held the sample's list): the feed cannot be read either.
    }
  }

  /// Collects the members whose position moved in the writer's transaction; used on the writer's queue only.
  private final class FeedRinger: TransactionObserver, @unchecked Sendable {
    let bell: FeedBell
    var moved: Set<String> = []

    init(bell: FeedBell) { self.bell = bell }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}

    func databaseDidCommit(_ db: Database) {
      guard !moved.isEmpty else { return }
      let members = moved
      moved = []
      bell.ring(members)
    }

    func databaseDidRollback(_ db: Database) { moved = [] }
  }

  /// On GRDB's reader queue, which then runs the completion.
  public func readFeedPositions(
    members: [String], completion: @escaping @Sendable (Result<[String: Int64], any Error>) -> Void
  ) {
    database.asyncRead { db in
      completion(
        Result {
          let db = try db.get()
          let statement = try db.cachedStatement(sql: "SELECT seq FROM memberFeed WHERE member = ?")
          var positions: [String: Int64] = [:]
          for member in members { positions[member] = try Int64.fetchOne(statement, arguments: [member]) }
          return positions
        })
    }
  }

  public func changes(caller: PlannerCaller, from cursor: PlannerFeedCursor, limit: Int) async throws
    -> PlannerFeedPage
  {
    if cursor.after == nil && cursor.isFirstPage {
      _ = try await database.write { db in
        try Self.defaultList(db, caller: caller.key, displayName: caller.displayName)
      }
    }
    return try await database.read { db in
      guard let horizon = try Int64.fetchOne(db, sql: "SELECT horizon FROM plannerClock") else {
        throw DatabaseError(resultCode: .SQLITE_INTERNAL, message: "no planner clock")
      }
      let now =
        try Int64.fetchOne(db, sql: "SELECT seq FROM memberFeed WHERE member = ?", arguments: [caller.key]) ?? 0
      let upTo = try cursor.upTo(position: now, horizon: horizon)
      var page = PlannerFeedPage(next: upTo)
      let after = cursor.after ?? -1
      if cursor.isFirstPage {
        page.lists = try Self.rows(
          db,
          sql: """
            SELECT \(Self.listColumns) FROM lists l JOIN members m ON m.listID = l.id
            WHERE m.member = ? AND (l.seq > ? OR m.joinedSeq > ? OR m.viewSeq > ?)
            ORDER BY l.isDefault DESC, m.sortKey, l.id
            """, arguments: [caller.key, after, after, after], Self.listView)
        if cursor.after != nil {
          // Tasks gone from lists the caller had already: not those now in another of the caller's lists (moved).
          page.deletedTasks = try String.fetchAll(
            db,
            sql: """
              SELECT DISTINCT t.id FROM tombstones t JOIN members m ON m.listID = t.listID
              WHERE m.member = ? AND m.joinedSeq <= ? AND t.kind = 'task' AND t.seq > ? AND t.seq <= ?
                AND NOT EXISTS (SELECT 1 FROM tasks x JOIN members y ON y.listID = x.listID
                  WHERE x.uuid = t.id AND y.member = m.member)
              """, arguments: [caller.key, after, after, upTo]
          ).compactMap { UUID(text: $0) }
          page.deletedLists = try String.fetchAll(
            db, sql: "SELECT id FROM tombstones WHERE member = ? AND kind = 'list' AND seq > ? AND seq <= ?",
            arguments: [caller.key, after, upTo]
          ).compactMap { UUID(text: $0) }
        }
      }
      // A task is in this read when it changed, or its list was joined, after `after` and not after `upTo`; in
      // list order, then id order (a cursor without the last task's list, from before that order, starts the
      // read's tasks again: sent twice, none skipped). A full read walks the two indexes in that order and sorts
      // nothing; a read since a position finds the tasks changed since through `tasksListSeq`, and takes every task
      // of the lists joined since.
      let (lastList, lastTask) =
        cursor.lastList.map { ($0.lowercased, cursor.lastTask?.lowercased ?? "") } ?? ("", "")
      let rest = "m.member = ? AND m.listID >= ? AND t.uuid > (CASE m.listID WHEN ? THEN ? ELSE '' END)"
      let from = "SELECT \(Self.taskColumns("t")) FROM members m JOIN tasks t ON t.listID = m.listID WHERE \(rest)"
      let position: StatementArguments = [caller.key, lastList, lastList, lastTask]
      if cursor.after == nil {
        page.tasks = try Self.rows(
          db, sql: "\(from) AND t.seq <= ? AND m.joinedSeq <= ? ORDER BY m.listID, t.uuid LIMIT ?",
          arguments: position + [upTo, upTo, limit + 1], Self.storedTask)
      } else {
        page.tasks = try Self.rows(
          db,
          sql: """
            \(from) AND m.joinedSeq <= ? AND t.seq > ? AND t.seq <= ?
            UNION ALL
            \(from) AND m.joinedSeq > ? AND m.joinedSeq <= ? AND t.seq <= ?
            ORDER BY 2, 1 LIMIT ?
            """,
          arguments: position + [after, after, upTo] + position + [after, upTo, upTo, limit + 1], Self.storedTask)
      }
      if page.tasks.count > limit {
        page.tasks.removeLast()
        page.more = PlannerFeedCursor(
          after: cursor.after, upTo: upTo, lastList: page.tasks.last?.listID, lastTask: page.tasks.last?.id)
      }
      return page
    }
  }

  public func pruneFeed(before: Date) async throws {
    try await database.write { db in
      try db.execute(
        sql: """
          UPDATE plannerClock SET horizon = max(horizon, coalesce((SELECT max(seq) FROM tombstones
            WHERE deletedAt < ?), 0));
          DELETE FROM tombstones WHERE deletedAt < ?;
          DELETE FROM invitations WHERE expiresAt < ?;
          """, arguments: [before, before, before])
    }
  }

  // MARK: Sharing

  public func invite(caller: String, listID: UUID, codeHash: Data, expiresAt: Date) async throws -> Bool {
    try await database.write { db in
      guard try Self.memberList(db, caller: caller, id: listID)?.role == .owner else { return false }
      let open = try Int.fetchOne(
        db, sql: "SELECT count(*) FROM invitations WHERE listID = ? AND usedBy IS NULL AND expiresAt > ?",
        arguments: [listID.lowercased, Date()])
      if (open ?? 0) >= PlannerRules.maxOpenInvitations { throw PlannerRules.CapReached.invitations }
      try db.execute(
        sql: "INSERT INTO invitations (codeHash, listID, expiresAt) VALUES (?, ?, ?)",
        arguments: [codeHash, listID.lowercased, expiresAt])
      return true
    }
  }

  public func join(caller: PlannerCaller, codeHash: Data, now: Date) async throws -> PlannerListView? {
    try await database.write { db in
      guard
        let listID = try String.fetchOne(
          db, sql: "SELECT listID FROM invitations WHERE codeHash = ? AND usedBy IS NULL AND expiresAt > ?",
          arguments: [codeHash, now]), let id = UUID(uuidString: listID)
      else { return nil }
      try db.execute(sql: "UPDATE invitations SET usedBy = ? WHERE codeHash = ?", arguments: [caller.key, codeHash])
      if let list = try Self.memberList(db, caller: caller.key, id: id) { return list }
      let members = try Int.fetchOne(db, sql: "SELECT count(*) FROM members WHERE listID = ?", arguments: [listID])
      if (members ?? 0) >= PlannerRules.maxMembers { throw PlannerRules.CapReached.members }  // (rolled back)
      let seq = try Self.tick(db)
      try db.execute(
        sql: """
          INSERT INTO members (listID, member, memberID, displayName, role, joinedSeq, sortKey)
            VALUES (?, ?, ?, ?, 'member', ?, (SELECT sortKey FROM members WHERE listID = ? AND role = 'owner'))
          """, arguments: [listID, caller.key, UUID().lowercased, caller.displayName, seq, listID])
      try Self.touch(db, listID: id, seq: seq)
      return try Self.memberList(db, caller: caller.key, id: id)
    }
  }

  public func members(caller: String, listID: UUID) async throws -> [PlannerMember]? {
    try await database.read { db in
      guard try Self.memberList(db, caller: caller, id: listID) != nil else { return nil }
      return try Self.rows(
        db,
        sql: """
          SELECT memberID, displayName, role, member = ? FROM members WHERE listID = ?
          ORDER BY role = 'owner' DESC, joinedSeq
          """, arguments: [caller, listID.lowercased]
      ) { row in
        PlannerMember(
          id: UUID(text: row[0]) ?? UUID(), displayName: row[1],
          role: PlannerListView.Role(rawValue: row[2]) ?? .member, isCaller: row[3])
      }
    }
  }

  public func removeMember(
    caller: String, listID: UUID, memberID: UUID, now: Date
  ) async throws -> PlannerOutcome<PlannerMember> {
    try await database.write { db in
      guard let list = try Self.memberList(db, caller: caller, id: listID),
        let target = try Row.fetchOne(
          db, sql: "SELECT member, role FROM members WHERE listID = ? AND memberID = ?",
          arguments: [listID.lowercased, memberID.lowercased])
      else { return .notFound }
      let key: String = target[0]
      let decision = PlannerRules.removal(
        callerIsOwner: list.role == .owner, targetIsCaller: key == caller, targetIsOwner: target[1] == "owner")
      guard case .deleted = decision else { return decision }
      let seq = try Self.tick(db)
      try db.execute(
        sql: """
          DELETE FROM members WHERE listID = ? AND member = ?;
          INSERT INTO tombstones (seq, kind, id, listID, member, deletedAt) VALUES (?, 'list', ?, ?, ?, ?);
          """, arguments: [listID.lowercased, key, seq, listID.lowercased, listID.lowercased, key, now])
      try Self.touch(db, listID: listID, seq: seq)
      return .deleted
    }
  }
}

extension UUID {
  /// The id as the databases and the API write it.
  var lowercased: String { uuidString.lowercased() }
}

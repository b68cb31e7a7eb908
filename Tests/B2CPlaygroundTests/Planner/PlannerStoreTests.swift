// The planner stores below the routes: pruning the change feed's deletions makes older tokens 410 (gone), and one
// account cannot make a list keep unbounded invitations or members, on SQLite and on PostgreSQL.

import Foundation
import Logging
import TaskService
import TaskServicePostgres
import TasksTestSupport
import Testing

@Suite("Task API v2: the stores' feed pruning", .serialized)
struct PlannerStoreTests {
  /// Runs `body` with a store of `host`'s kind (a temporary SQLite file, or a new PostgreSQL database).
  private func withStore(_ host: TaskAPIHost, _ body: (any PlannerStore) async throws -> Void) async throws {
    if host == .postgres {
      // When the whole run starts at once on a busy machine, a statement can wait longer than the store's own
      // patience (TaskStoreUnavailable, a 503 an instance's client would retry): the test tries again, as such a
      // client would, on a database of its own each time.
      for attempt in 1...3 {
        let url = try await PostgresServer.shared().createDatabase()
        let store = try PostgresTaskStore(
          configuration: try PostgresURL(url), connections: 2, logger: Logger(label: "test"))
        let running = Task { await store.run() }
        defer { running.cancel() }
        do {
          try await store.migrate()
          try await body(store)
          return
        } catch is TaskStoreUnavailable where attempt < 3 {
          continue
        }
      }
    } else {
      let folder = try TestDesktop.temporaryFolder("planner-store")
      defer { try? FileManager.default.removeItem(at: folder) }
      try await body(try SQLiteTaskStore(path: folder.appending(path: "tasks.sqlite").path))
    }
  }

  @Test(
    "a token from before pruned deletions is gone; a full read and a newer token still answer",
    arguments: [TaskAPIHost.service, .postgres])
  func pruning(host: TaskAPIHost) async throws {
    try await withStore(host) { store in
      let ann = PlannerCaller(key: "local ann", displayName: "Ann")
      let list = UUID()
      _ = try await store.writeList(caller: ann, id: list, .create(name: "Home", sortKey: ""), now: Date())
      let task = UUID()
      var changes = TaskChanges()
      changes.title = .set("soon gone")
      _ = try await store.writeTask(caller: ann.key, listID: list, id: task, .create(changes), now: Date())
      let before = try await store.changes(caller: ann, from: .init(after: nil), limit: 100).next
      _ = try await store.writeTask(caller: ann.key, listID: list, id: task, .delete(ifMatch: nil), now: Date())
      let after = try await store.changes(caller: ann, from: .init(after: nil), limit: 100).next
      #expect(
        try await store.changes(caller: ann, from: .init(after: before), limit: 100).deletedTasks == [task],
        "kept until pruned")
      try await store.pruneFeed(before: Date().addingTimeInterval(60))
      await #expect(throws: PlannerFeedRefusal.gone) {
        try await store.changes(caller: ann, from: .init(after: before), limit: 100)
      }
      #expect(
        try await store.changes(caller: ann, from: .init(after: after), limit: 100).tasks.isEmpty,
        "a token after them still answers")
      #expect(try await store.changes(caller: ann, from: .init(after: nil), limit: 100).lists.count == 2)
    }
  }

  @Test(
    "S7: a list has at most 20 invitations open and 100 members; one more is refused with words, and a refused join uses no code",
    arguments: [TaskAPIHost.service, .postgres])
  func caps(host: TaskAPIHost) async throws {
    try await withStore(host) { store in
      let ann = PlannerCaller(key: "local ann", displayName: "Ann")
      let list = UUID()
      _ = try await store.writeList(caller: ann, id: list, .create(name: "Crowded", sortKey: ""), now: Date())
      let week = Date().addingTimeInterval(PlannerRoutes.invitationLifetime)
      func code(_ text: String) -> Data { Data(text.utf8) }
      // 99 members join, each with a code of their own (used codes are not open).
      for index in 1..<PlannerRules.maxMembers {
        #expect(try await store.invite(caller: ann.key, listID: list, codeHash: code("m\(index)"), expiresAt: week))
        let member = PlannerCaller(key: "local member \(index)", displayName: "Member \(index)")
        #expect(try await store.join(caller: member, codeHash: code("m\(index)"), now: Date()) != nil)
      }
      #expect(try await store.invite(caller: ann.key, listID: list, codeHash: code("full"), expiresAt: week))
      let late = PlannerCaller(key: "local late", displayName: "Late")
      await #expect(throws: PlannerRules.CapReached.members) {
        try await store.join(caller: late, codeHash: code("full"), now: Date())
      }
      #expect(try await store.members(caller: ann.key, listID: list)?.count == PlannerRules.maxMembers)
      // The refused join left the code open: 19 more can be made, the 21st open one cannot.
      for index in 1..<PlannerRules.maxOpenInvitations {
        #expect(try await store.invite(caller: ann.key, listID: list, codeHash: code("o\(index)"), expiresAt: week))
      }
      await #expect(throws: PlannerRules.CapReached.invitations) {
        try await store.invite(caller: ann.key, listID: list, codeHash: code("one too many"), expiresAt: week)
      }
    }
  }

  @Test(
    "pages of a read with writes, a move and a join between them: once each, a follower equals a full read; older tokens",
    arguments: [TaskAPIHost.service, .postgres])
  func pagesUnderWrites(host: TaskAPIHost) async throws {
    try await withStore(host) { store in
      let (ann, bob) = (
        PlannerCaller(key: "local ann", displayName: "Ann"), PlannerCaller(key: "local bob", displayName: "Bob")
      )
      func list(_ caller: PlannerCaller, _ name: String, tasks: Int) async throws -> (UUID, [UUID]) {
        let id = UUID()
        _ = try await store.writeList(caller: caller, id: id, .create(name: name, sortKey: ""), now: Date())
        var made: [UUID] = []
        for index in 0..<tasks { made.append(try await write(caller, id, UUID(), .create(title("\(name) \(index)")))) }
        return (id, made)
      }
      func title(_ text: String) -> TaskChanges {
        var changes = TaskChanges()
        changes.title = .set(text)
        return changes
      }
      @discardableResult
      func write(_ caller: PlannerCaller, _ list: UUID, _ id: UUID, _ write: PlannerTaskWrite) async throws -> UUID {
        _ = try await store.writeTask(caller: caller.key, listID: list, id: id, write, now: Date())
        return id
      }
      let (a, aTasks) = try await list(ann, "A", tasks: 5)
      let (b, bTasks) = try await list(ann, "B", tasks: 5)
      let (c, cTasks) = try await list(ann, "C", tasks: 5)
      let (d, _) = try await list(bob, "D", tasks: 4)
      #expect(try await store.invite(caller: bob.key, listID: d, codeHash: Data("d".utf8), expiresAt: .distantFuture))
      // What happens between the pages of Ann's first read.
      var moved = title("moved")
      moved.listID = a
      let between: [() async throws -> Void] = [
        { try await write(ann, b, bTasks[4], .change(title("changed"), ifMatch: nil)) },
        { try await write(ann, c, cTasks[0], .change(moved, ifMatch: nil)) },
        { _ = try await store.join(caller: ann, codeHash: Data("d".utf8), now: Date()) },
        { try await write(ann, a, UUID(), .create(title("new in A"))) },
        { try await write(ann, b, bTasks[0], .delete(ifMatch: nil)) },
        { try await write(ann, a, aTasks[2], .change(title("changed late"), ifMatch: nil)) },
      ]
      var copy: [UUID: String] = [:]
      var cursor = PlannerFeedCursor(after: nil)
      var step = 0
      var seenInRead: Set<UUID> = []
      for pages in 1... {
        try #require(pages < 100, "the read does not end")
        let page = try await store.changes(caller: ann, from: cursor, limit: 4)
        for id in page.deletedTasks { copy[id] = nil }
        for task in page.tasks {
          #expect(seenInRead.insert(task.id).inserted, "\(task.task.title) came twice in one read")
          copy[task.id] = "\(task.listID) \(task.task.title) \(task.version)"
        }
        if step < between.count {
          try await between[step]()
          step += 1
        }
        // The token goes to the client and comes back.
        if let more = page.more {
          cursor = try #require(PlannerFeedCursor(token: more.token))
          #expect(cursor == more)
        } else {
          cursor = try #require(PlannerFeedCursor(token: page.nextToken))
          seenInRead = []
          if step >= between.count, page.tasks.isEmpty { break }
        }
      }
      var full: [UUID: String] = [:]
      cursor = PlannerFeedCursor(after: nil)
      repeat {
        let page = try await store.changes(caller: ann, from: cursor, limit: 4)
        for task in page.tasks { full[task.id] = "\(task.listID) \(task.task.title) \(task.version)" }
        cursor = page.more ?? PlannerFeedCursor(after: nil)
        if page.more == nil { break }
      } while true
      #expect(copy == full)
      #expect(full.count == 19, "15 of hers, 4 of the joined list, one added, one deleted")
      let movedNow = try #require(full[cTasks[0]])
      #expect(movedNow.hasPrefix("\(a) moved"))

      // A page token without the last task's list (the older form): the read's tasks start again (SQLite), or go
      // on after that task (PostgreSQL, which sends them in id order): none is skipped.
      let first = try await store.changes(caller: ann, from: PlannerFeedCursor(after: nil), limit: 4)
      let more = try #require(first.more)
      let (upTo, lastTask) = (try #require(more.upTo), try #require(more.lastTask))
      let older = try #require(PlannerFeedCursor(token: "c.\(upTo).\(lastTask.uuidString.lowercased())"))
      var rest: Set<UUID> = Set(first.tasks.map(\.id))
      var next: PlannerFeedCursor? = older
      while let from = next {
        let page = try await store.changes(caller: ann, from: from, limit: 4)
        rest.formUnion(page.tasks.map(\.id))
        next = page.more
      }
      #expect(rest == Set(full.keys))
    }
  }
}

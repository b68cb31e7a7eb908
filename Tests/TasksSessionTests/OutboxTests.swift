// Tests of the outbox: what the user added survives restarts and failures and reaches the server exactly once.

import B2CPlayground
import Foundation
import TasksCore
import TasksTestSupport
import TasksURLSession
import Testing

@Suite("Outbox")
struct OutboxTests {
  private func file() throws -> URL {
    try TestDesktop.temporaryFolder("outbox").appending(path: "outbox.json")
  }

  @Test("a task is on disk before add returns; another instance (a restart) finds it")
  func persistence() async throws {
    let file = try file()
    let task = try await Outbox(file: file).add("buy milk")
    let reopened = Outbox(file: file)
    #expect(await reopened.pending.map { [$0.id, $0.text] } == [[task.id, task.text]])
    try await reopened.remove(task.id)
    #expect(await Outbox(file: file).pending.isEmpty)
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(!text.contains("eyJ"), "no token in the file")
  }

  @Test("a damaged outbox file is kept aside, byte for byte and private, before the outbox writes over it")
  func damagedKeptAside() async throws {
    let file = try file()
    let damaged = Data("{\"tasks\": [{\"id\": \"half-written".utf8)
    try damaged.write(to: file)
    let outbox = Outbox(file: file)
    let aside = try #require(outbox.keptAside)
    #expect(await outbox.pending.isEmpty)
    #expect(Outbox(file: file).keptAside == nil, "rewritten once kept: nothing kept again at the next start")
    _ = try await outbox.add("typed after")
    #expect(
      try Data(contentsOf: aside) == damaged && aside.deletingLastPathComponent() == file.deletingLastPathComponent())
    #expect(aside.lastPathComponent.hasPrefix("outbox.unreadable-") && aside.pathExtension == "json")
    let mode = try FileManager.default.attributesOfItem(atPath: aside.path)[.posixPermissions] as? Int
    #expect(mode == 0o600, "the user's alone")
    #expect(await Outbox(file: file).pending.map(\.text) == ["typed after"])
  }

  @Test("the planner's outbox keeps what it reads and, when an entry does not read, the whole file aside")
  func plannerEntryKeptAside() async throws {
    let file = try file()
    let good = PlannerOutbox(file: file)
    try await good.record(.createList(id: UUID(), name: "Trip"))
    #expect(PlannerOutbox(file: file).keptAside == nil)
    // An entry of a kind this version does not know (a newer version's), beside the one it does.
    var text = try String(contentsOf: file, encoding: .utf8)
    text.insert(contentsOf: #"{"kind": "archiveList", "list": "x"}, "#, at: text.index(after: text.startIndex))
    try Data(text.utf8).write(to: file)
    let mixed = PlannerOutbox(file: file)
    #expect(await mixed.pending.count == 1)
    let aside = try #require(mixed.keptAside)
    #expect(try String(contentsOf: aside, encoding: .utf8) == text)
    // Not JSON at all: all of it.
    try Data("not json".utf8).write(to: file)
    let garbage = PlannerOutbox(file: file)
    #expect(await garbage.pending.isEmpty)
    #expect(try garbage.keptAside.map { try Data(contentsOf: $0) } == Data("not json".utf8))
    let before = try String(contentsOf: aside, encoding: .utf8)
    #expect(garbage.keptAside != aside && before == text, "what was kept before stays")
  }

  @Test("flush sends in order, exactly once, even when an answer was lost and the add is retried")
  func exactlyOnce() async throws {
    try await SessionHarness.with { harness in
      let session = harness.session()
      _ = try await harness.signIn(session)
      let client = TaskAPIClient(session: session)
      let outbox = Outbox(file: try file())
      let first = try await outbox.add("one")
      let second = try await outbox.add("two")
      // The first add reached the server but its answer was lost: the outbox still holds it.
      let firstID = try await client.add(first.text, idempotencyKey: first.id)
      let result = await outbox.flush(client)
      #expect(result.sent == 2 && result.stoppedBy == nil && result.refusedChanges.isEmpty)
      #expect(await outbox.pending.isEmpty)
      let listed = try await client.list()
      #expect(listed.map(\.text) == ["one", "two"])
      // The server's ids of what was sent, by outbox id: the retried add names the task the lost answer made.
      #expect(firstID != nil && result.created == [first.id: firstID!, second.id: listed[1].id], "\(result.created)")
      #expect(await outbox.flush(client).sent == 0)
    }
  }

  @Test("server down: the tasks wait; server back: they arrive once; a refused task stays, marked")
  func serverDown() async throws {
    try await SessionHarness.with { harness in
      let session = harness.session()
      _ = try await harness.signIn(session)
      let outbox = Outbox(file: try file())
      _ = try await outbox.add("while offline")
      let tooLong = try await outbox.add(String(repeating: "x", count: 4001))
      _ = try await outbox.add("after the long one")
      let failed = await outbox.flush(.offline(session))
      #expect(failed.sent == 0)
      guard stoppedByNetwork(failed.stoppedBy) else { return }
      #expect(await outbox.pending.count == 3)
      let result = await outbox.flush(TaskAPIClient(session: session))
      #expect(result.sent == 2)
      #expect(await outbox.pending.map(\.id) == [tooLong.id])
      #expect(await outbox.pending.first?.refusal?.contains("4000") == true)
      #expect(try await TaskAPIClient(session: session).list().map(\.text) == ["while offline", "after the long one"])
    }
  }

  @Test("changes wait offline, merged per task, shown applied; server back: sent once; refused ones dropped, said")
  func changes() async throws {
    try await SessionHarness.with { harness in
      let session = harness.session()
      _ = try await harness.signIn(session)
      let client = TaskAPIClient(session: session)
      for text in ["tick and rename me", "delete me", "too long a text for me", "deleted elsewhere"] {
        try await client.add(text)
      }
      let ids = Dictionary(uniqueKeysWithValues: try await client.list().map { ($0.text, $0.id) })
      let file = try file()
      let outbox = Outbox(file: file)
      try await outbox.change(ids["tick and rename me"]!, completed: true)
      try await outbox.delete(ids["delete me"]!)
      try await outbox.change(ids["tick and rename me"]!, text: "renamed")
      try await outbox.change(ids["too long a text for me"]!, text: String(repeating: "x", count: 4001))
      try await outbox.change(ids["deleted elsewhere"]!, completed: true)
      try await client.delete(id: ids["deleted elsewhere"]!)
      // Merged: one change per task, in the order first made.
      #expect(
        await outbox.pendingChanges.map(\.taskID)
          == ["tick and rename me", "delete me", "too long a text for me", "deleted elsewhere"].map { ids[$0]! })

      let failed = await outbox.flush(.offline(session))
      guard stoppedByNetwork(failed.stoppedBy) else { return }
      // A restart finds them, and shows the list as it will be.
      let reopened = Outbox(file: file)
      #expect(await reopened.pendingChanges == outbox.pendingChanges)
      let shown = await reopened.applied(to: try await client.list())
      #expect(shown.map(\.text) == ["renamed", String(repeating: "x", count: 4001)])
      #expect(shown.first?.completed == true)

      let result = await reopened.flush(client)
      #expect(result.stoppedBy == nil)
      #expect(result.refusedChanges.count == 2)
      #expect(result.refusedChanges.contains(.notFound))
      #expect(await reopened.pendingChanges.isEmpty)
      let list = try await client.list()
      #expect(list.map(\.text) == ["renamed", "too long a text for me"])
      #expect(list.map(\.completed) == [true, false])
      #expect(await reopened.flush(client) == Outbox.FlushResult(sent: 0, stoppedBy: nil))
    }
  }

  @Test("an outbox written before changes were queued (an array of tasks) still opens")
  func olderFile() async throws {
    let file = try file()
    let older = #"[{"id":"a1","text":"from an older version","createdAt":1700000000}]"#
    try Data(older.utf8).write(to: file)
    let outbox = Outbox(file: file)
    #expect(await outbox.pending.map(\.text) == ["from an older version"])
    #expect(await outbox.pendingChanges.isEmpty)
    try await outbox.change(7, completed: true)
    #expect(await Outbox(file: file).pending.map(\.text) == ["from an older version"])
    #expect(await Outbox(file: file).pendingChanges.map(\.taskID) == [7])
  }

  @Test(
    "M3: another app signs in as Bob while Ann's changes wait: none of Ann's goes out with Bob's token, the session switches to Bob"
  )
  func anotherAccountSignsIn() async throws {
    // Tokens that are always due for a refresh: every bearer asks the shared store (as after an hour in the app).
    try await SessionHarness.with({ $0.lifetimes.accessToken = 120 }) { harness in
      let app = harness.session()
      let ann = try await harness.signIn(app)
      let annClient = TaskAPIClient(session: app, account: ann.objectID)
      try await annClient.add("Ann's first task")
      let annTask = try #require(try await annClient.list().first)
      // Ann's changes wait in her outbox: a task to add, an edit, a deletion.
      let outbox = Outbox(file: try file())
      _ = try await outbox.add("Ann's secret")
      try await outbox.change(annTask.id, text: "Ann's edit")
      // Another app of the group (the CLI) signs in as Bob: the shared session is now Bob's.
      let cli = harness.session()
      let bob = try await harness.signIn(cli, "bob@example.com", "Tasks-Demo-2")
      try #require(bob.objectID != ann.objectID)

      let flushed = await outbox.flush(annClient)
      #expect(flushed.sent == 0)
      guard case .unauthorized(.accountChanged(let now))? = flushed.stoppedBy else {
        Issue.record("the flush was not stopped by the account change: \(String(describing: flushed.stoppedBy))")
        return
      }
      #expect(now.objectID == bob.objectID)
      // Ann's list fetch stops the same way: Bob's list is never taken for hers.
      await #expect(throws: TaskAPIError.unauthorized(.accountChanged(now))) { try await annClient.list() }
      // Everything of Ann's still waits, in her outbox; Bob's list has none of it; Ann's task is untouched.
      #expect(await outbox.pending.map(\.text) == ["Ann's secret"])
      #expect(await outbox.pendingChanges.map(\.taskID) == [annTask.id])
      let bobClient = TaskAPIClient(session: cli, account: bob.objectID)
      #expect(try await bobClient.list().isEmpty)
      // The switch is visible: the app's session now names Bob, and a client bound to Bob works.
      #expect(await app.state == .signedIn(now))
      #expect(try await TaskAPIClient(session: app, account: bob.objectID).list().isEmpty)
      // Ann signs in again: her waiting changes go out as hers.
      _ = try await harness.signIn(app)
      #expect(await outbox.flush(TaskAPIClient(session: app, account: ann.objectID)).sent == 1)
      #expect(Set(try await annClient.list().map(\.text)) == ["Ann's edit", "Ann's secret"])
    }
  }
}

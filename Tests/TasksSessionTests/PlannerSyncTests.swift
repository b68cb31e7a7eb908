// Headless tests of the core's v2 sync against the real playground: the feed follower (its copy on disk, starting
// over), the outbox of v2 edits (offline, replays, merged edits) and the field-by-field merge after a 412.

import B2CPlayground
import Foundation
import TasksCore
import TasksTestSupport
import TasksURLSession
import Testing

@Suite("Planner sync: the feed follower and the v2 outbox", .serialized)
struct PlannerSyncTests {
  private func folder() throws -> URL { try TestDesktop.temporaryFolder("planner-sync") }

  /// A client of the same account that is not this device (another machine's edits).
  private func elsewhere(_ session: Session) -> TaskAPIClient { TaskAPIClient(session: session) }

  private func item(_ list: UUID, _ title: String) -> PlannerItem {
    PlannerItem(id: UUID(), listID: list, title: title, createdAt: Date())
  }

  @Test("the follower reads everything once, then only changes; its copy and token survive a restart; 410 starts over")
  func follower() async throws {
    try await SessionHarness.with { harness in
      let session = harness.session()
      _ = try await harness.signIn(session)
      let client = TaskAPIClient(session: session)
      let list = try await client.createList(id: UUID(), name: "Home")
      let kept = try await client.createTask(item(list.id, "kept"))
      let gone = try await client.createTask(item(list.id, "gone"))
      let file = try folder().appending(path: "planner.json")
      let replica = PlannerReplica(file: file)
      let first = try await replica.follow(client)
      #expect(first.changed >= 3 && !first.startedOver)
      #expect(await replica.tasks(in: list.id).map(\.title).sorted() == ["gone", "kept"])
      #expect(try await replica.follow(client).changed == 0, "nothing changed")

      var renamed = kept
      renamed.title = "renamed elsewhere"
      _ = try await elsewhere(session).changeTask(renamed, fields: [.title], ifMatch: nil)
      try await elsewhere(session).deleteTask(list: list.id, id: gone.id)
      #expect(try await replica.follow(client).changed == 3, "the list, the task changed and the one deleted")
      #expect(await replica.tasks(in: list.id).map(\.title) == ["renamed elsewhere"])

      let reopened = PlannerReplica(file: file)
      #expect(await reopened.token == (await replica.token))
      #expect(await reopened.tasks(in: list.id).map(\.title) == ["renamed elsewhere"])
      #expect(try await reopened.follow(client).changed == 0)

      // A token the service cannot answer from (its database restored from an older backup): start over.
      var text = try String(contentsOf: file, encoding: .utf8)
      let token = try #require(await reopened.token)
      text = text.replacingOccurrences(of: "\"\(token)\"", with: "\"c999999999\"")
      try text.write(to: file, atomically: true, encoding: .utf8)
      let restored = PlannerReplica(file: file)
      #expect(try await restored.follow(client).startedOver)
      #expect(await restored.tasks(in: list.id).map(\.title) == ["renamed elsewhere"])
      #expect(!(try String(contentsOf: file, encoding: .utf8)).contains("eyJ"), "no sign-in token in the file")

      // A sign-out while a read's write waits for the window to show it: the discarded copy stays gone.
      _ = try await client.createTask(item(list.id, "read as the account signs out"))
      #expect(try await restored.follow(client, deferringSave: true).changed > 0)
      await restored.discard()
      await restored.saveIfUnsaved()
      #expect(!FileManager.default.fileExists(atPath: file.path), "the discarded copy came back")
    }
  }

  @Test(
    "a read in pages is one read: every page followed, a move between lists no deletion, a change between reads kept")
  func pages() async throws {
    try await SessionHarness.with { harness in
      let session = harness.session()
      _ = try await harness.signIn(session)
      let client = TaskAPIClient(session: session)
      let home = try await client.createList(id: UUID(), name: "Home")
      let work = try await client.createList(id: UUID(), name: "Work")
      var made: [PlannerItem] = []
      for index in 0..<7 {
        made.append(try await client.createTask(item(index < 4 ? home.id : work.id, "task \(index)")))
      }
      let first = try await client.changes(since: nil, limit: 2)
      #expect(first.more && first.tasks.count == 2 && first.lists.count == 3, "the first page: the lists, two tasks")
      let second = try await client.changes(since: first.next, limit: 2)
      #expect(second.more && second.tasks.count == 2 && second.lists.isEmpty)
      #expect(Set(first.tasks.map(\.id)).isDisjoint(with: second.tasks.map(\.id)), "a page repeats no task")

      let paged = PlannerReplica(file: nil, pageSize: 2)
      try await paged.follow(client)
      #expect(await paged.tasks.count == 7)
      #expect(await paged.token?.contains(".") == false, "the kept token is a whole read's, not a page's")

      // Between two reads: a task moved from Home to Work, one renamed, one deleted; read again in pages of two.
      var moved = made[0]
      moved.listID = work.id
      _ = try await elsewhere(session).changeTask(moved, fields: [.listID], ifMatch: nil, in: home.id)
      var renamed = made[5]
      renamed.title = "renamed"
      _ = try await elsewhere(session).changeTask(renamed, fields: [.title], ifMatch: nil)
      try await elsewhere(session).deleteTask(list: home.id, id: made[1].id)
      try await paged.follow(client)
      let whole = PlannerReplica(file: nil)
      try await whole.follow(client)
      #expect(await paged.tasks(in: work.id).map(\.title) == (await whole.tasks(in: work.id)).map(\.title))
      #expect(await paged.tasks(in: home.id).map(\.title) == ["task 2", "task 3"])
      #expect(await paged.tasks(in: work.id).map(\.title).sorted() == ["renamed", "task 0", "task 4", "task 6"])
    }
  }

  @Test("edits made offline wait on disk; sent once when the service is back, a lost answer's replay included")
  func offline() async throws {
    try await SessionHarness.with { harness in
      let session = harness.session()
      _ = try await harness.signIn(session)
      let client = TaskAPIClient(session: session)
      let file = try folder().appending(path: "outbox.json")
      let outbox = PlannerOutbox(file: file)
      let listID = UUID()
      try await outbox.record(.createList(id: listID, name: "Trip"))
      try await outbox.record(.renameList(id: listID, name: "Holiday"))
      var task = item(listID, "book flights")
      task.due = TaskDue(date: CalendarDate(year: 2026, month: 12, day: 20)!, time: TimeOfDay(hour: 9))
      task.priority = 1
      try await outbox.record(.createTask(task))
      var notes = task
      notes.notes = "window seat"
      try await outbox.record(.changeTask(base: task, mine: notes))
      let dropped = item(listID, "typed and deleted before sending")
      try await outbox.record(.createTask(dropped))
      try await outbox.record(.deleteTask(list: listID, id: dropped.id))
      #expect(await outbox.pending.count == 2, "merged: the list with its name, the task with its notes")

      let failed = await outbox.flush(.offline(session))
      guard stoppedByNetwork(failed.stoppedBy) else { return }
      // A restart: the edits are on disk. The list's creation reached the service but its answer was lost.
      let reopened = PlannerOutbox(file: file)
      #expect(await reopened.pending.count == 2)
      _ = try await client.createList(id: listID, name: "Holiday")
      let result = await reopened.flush(client)
      #expect(result.sent == 2 && result.stoppedBy == nil && result.refused.isEmpty && result.conflicts.isEmpty)
      #expect(await reopened.pending.isEmpty)
      #expect(try await client.plannerLists().filter { $0.name == "Holiday" }.count == 1)
      let stored = try await client.plannerTasks(list: listID)
      #expect(stored.map(\.title) == ["book flights"])
      #expect(stored.first?.notes == "window seat" && stored.first?.priority == 1)
      #expect(stored.first?.due == task.due)
      #expect(!(try String(contentsOf: file, encoding: .utf8)).contains("eyJ"), "no token in the file")
    }
  }

  @Test(
    "a 412: fields changed on one side only are kept from both; the same field changed on both is the service's, said")
  func merge() async throws {
    try await SessionHarness.with { harness in
      let session = harness.session()
      _ = try await harness.signIn(session)
      let client = TaskAPIClient(session: session)
      let list = try await client.createList(id: UUID(), name: "Home")
      let base = try await client.createTask(item(list.id, "water plants"))
      let outbox = PlannerOutbox(file: try folder().appending(path: "outbox.json"))

      // Elsewhere the title changes; here the notes and the priority: both kept.
      var theirs = base
      theirs.title = "water all plants"
      _ = try await elsewhere(session).changeTask(theirs, fields: [.title], ifMatch: base.version)
      var mine = base
      mine.notes = "the ferns too"
      mine.priority = 5
      try await outbox.record(.changeTask(base: base, mine: mine))
      let merged = await outbox.flush(client)
      #expect(merged.sent == 1 && merged.conflicts.isEmpty)
      var now = try #require(try await client.plannerTasks(list: list.id).first)
      #expect(now.title == "water all plants" && now.notes == "the ferns too" && now.priority == 5)

      // Both change the title: the service's stays, and the result says which edit lost.
      var other = now
      other.title = "water the garden"
      _ = try await elsewhere(session).changeTask(other, fields: [.title], ifMatch: now.version)
      var edit = now
      edit.title = "water the balcony"
      edit.notes = "and the ferns"
      try await outbox.record(.changeTask(base: now, mine: edit))
      let conflicted = await outbox.flush(client)
      #expect(conflicted.conflicts.map(\.fields) == [[.title]])
      #expect(conflicted.conflicts.first?.mine.title == "water the balcony")
      now = try #require(try await client.plannerTasks(list: list.id).first)
      #expect(now.title == "water the garden" && now.notes == "and the ferns")

      // A move through the outbox: the task goes to the other list with the edit.
      let garden = try await client.createList(id: UUID(), name: "Garden")
      var moving = try #require(try await client.plannerTasks(list: list.id).first)
      let before = moving
      moving.listID = garden.id
      try await outbox.record(.changeTask(base: before, mine: moving))
      #expect(await outbox.flush(client).sent == 1)
      #expect(try await client.plannerTasks(list: garden.id).map(\.title) == ["water the garden"])
      #expect(try await client.plannerTasks(list: list.id).isEmpty)
      now = try #require(try await client.plannerTasks(list: garden.id).first)

      // "Use Mine": the lost value sent again, on the current version.
      let conflict = try #require(conflicted.conflicts.first)
      var useMine = now
      for field in conflict.fields { useMine.take(field, from: conflict.mine) }
      try await outbox.record(.changeTask(base: now, mine: useMine))
      #expect(await outbox.flush(client).conflicts.isEmpty)
      #expect(try await client.plannerTasks(list: garden.id).first?.title == "water the balcony")
    }
  }

  @Test("finishing a repeating task through the outbox twice moves it once; a refused edit stays, marked")
  func completeAndRefuse() async throws {
    try await withWeekly { client, list, weekly, monday in
      let outbox = PlannerOutbox(file: try folder().appending(path: "outbox.json"))
      try await outbox.record(.complete(list: list.id, id: weekly.id, occurrence: monday, today: monday))
      try await outbox.record(.complete(list: list.id, id: weekly.id, occurrence: monday, today: monday))
      var bad = item(list.id, "x")
      bad.title = String(repeating: "x", count: 4001)
      try await outbox.record(.createTask(bad))
      let result = await outbox.flush(client)
      #expect(result.sent == 2 && result.refused.count == 1)
      #expect(result.refused.first?.contains("title") == true, "\(result.refused)")
      let waiting = await outbox.pending
      #expect(waiting.count == 1 && waiting.first?.refusal != nil, "kept, marked")
      // The refused task deleted: it goes with its creation, and nothing is sent (the service never had it).
      try await outbox.record(.deleteTask(list: list.id, id: bad.id))
      #expect(await outbox.pending.isEmpty)
      let moved = try await client.plannerTasks(list: list.id)
      #expect(moved.first?.due?.date == monday.adding(days: 7) && moved.first?.status == .needsAction)
    }
  }

  @Test(
    "edits whose answer was lost take no later edit into them, after a restart too: a rename, notes, a deletion and a new title reach the service"
  )
  func editsAfterLostAnswers() async throws {
    try await SessionHarness.with { harness in
      let session = harness.session()
      _ = try await harness.signIn(session)
      let client = TaskAPIClient(session: session)
      let file = try folder().appending(path: "outbox.json")
      /// `made` sent, its answer lost after the service carried it out (`arrived`); the app started again, `then`
      /// recorded (waiting after it), and both sent: nothing refused, nothing left.
      func round(_ made: PlannerEdit, arrived: () async throws -> Void, then: PlannerEdit) async throws {
        let before = PlannerOutbox(file: file)
        try await before.record(made)
        guard stoppedByNetwork(await before.flush(.offline(session)).stoppedBy) else { return }
        try await arrived()
        let outbox = PlannerOutbox(file: file)
        try await outbox.record(then)
        #expect(await outbox.pending.count == 2, "not merged into the edit sent")
        let result = await outbox.flush(client)
        #expect(result.sent == 2 && result.refused.isEmpty && result.conflicts.isEmpty, "\(result)")
        #expect(await outbox.pending.isEmpty)
      }
      let list = PlannerListItem(id: UUID(), name: "Trip")
      try await round(
        .createList(id: list.id, name: list.name),
        arrived: { _ = try await client.createList(id: list.id, name: "Trip") },
        then: .renameList(id: list.id, name: "Holiday"))
      #expect(try await client.plannerLists().first { $0.id == list.id }?.name == "Holiday")
      let (kept, dropped) = (item(list.id, "book flights"), item(list.id, "typo"))
      var noted = kept
      noted.notes = "window seat"
      try await round(
        .createTask(kept), arrived: { _ = try await client.createTask(kept) },
        then: .changeTask(base: kept, mine: noted))
      try await round(
        .createTask(dropped), arrived: { _ = try await client.createTask(dropped) },
        then: .deleteTask(list: list.id, id: dropped.id))
      // A change sent, its answer lost, then the same field changed again: the service's value is this device's
      // own, not another's (no conflict), and the later one is sent.
      let made = try #require(try await client.plannerTasks(list: list.id).first)
      var (first, second) = (made, made)
      first.title = "book flights to Oulu"
      second.title = "book flights to Oulu and back"
      try await round(
        .changeTask(base: made, mine: first),
        arrived: { _ = try await client.changeTask(first, fields: [.title], ifMatch: made.version) },
        then: .changeTask(base: first, mine: second))
      let stored = try await client.plannerTasks(list: list.id)
      #expect(stored.map(\.title) == [second.title] && stored.first?.notes == "window seat")
    }
  }

  @Test(
    "a creation is marked sent in the file before it goes: the app ended while it is on the wire, no edit merges into it"
  )
  func creationOnTheWire() async throws {
    try await SessionHarness.with { harness in
      let session = harness.session()
      _ = try await harness.signIn(session)
      // A service that reads a request and never answers.
      let server = try await ScriptServer.start([
        "-c",
        """
        import socket
        s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
        print("listening on %d" % s.getsockname()[1], flush=True)
        held = []
        while True:
            c, _ = s.accept(); held.append(c); c.recv(65536); print("asked", flush=True)
        """,
      ])
      let file = try folder().appending(path: "outbox.json")
      let task = item(UUID(), "book flights")
      let outbox = PlannerOutbox(file: file)
      try await outbox.record(.createTask(task))
      let flushing = Task { await outbox.flush(.through(URL(string: server.origin)!, session)) }
      #expect(await eventually { server.process.standardOutput.contains("asked") }, "on the wire")
      // The app ended now (a quit, a kill): the next start's outbox reads the file.
      let restarted = PlannerOutbox(file: file)
      var noted = task
      noted.notes = "window seat"
      try await restarted.record(.changeTask(base: task, mine: noted))
      let waiting = await restarted.pending.map(\.edit)
      #expect(waiting.count == 2, "not merged into the creation: \(waiting)")
      guard case .createTask(let made)? = waiting.first else { return #expect(Bool(false), "\(waiting)") }
      #expect(made.notes.isEmpty && made.title == task.title)
      server.stop()
      _ = await flushing.value
    }
  }

  @Test("a task deleted while its move to another list waits: the deletion reaches the list the service has it in")
  func deleteAfterMove() async throws {
    try await withTrip { client, work, home, trip, session in
      let file = try folder().appending(path: "outbox.json")
      // Not sent: the move goes, the deletion (addressed as the window shows the task, in Home) goes to Work.
      var moved = trip
      moved.listID = home.id
      let outbox = PlannerOutbox(file: file)
      try await outbox.record(.changeTask(base: trip, mine: moved))
      try await outbox.record(.deleteTask(list: home.id, id: trip.id))
      #expect(await outbox.pending.map(\.edit) == [.deleteTask(list: work.id, id: trip.id)])
      #expect(await outbox.flush(client).refused.isEmpty)
      #expect(try await client.plannerTasks(list: work.id).isEmpty)
      #expect(try await client.plannerTasks(list: home.id).isEmpty)

      // Sent, its answer lost: the move stays before the deletion.
      var other = try await client.createTask(item(work.id, "pack"))
      let before = other
      other.listID = home.id
      try await outbox.record(.changeTask(base: before, mine: other))
      guard stoppedByNetwork(await outbox.flush(.offline(session)).stoppedBy) else { return }
      try await outbox.record(.deleteTask(list: home.id, id: other.id))
      #expect(await outbox.pending.count == 2)
      #expect(await outbox.flush(client).refused.isEmpty)
      #expect(try await client.plannerTasks(list: work.id).isEmpty)
      #expect(try await client.plannerTasks(list: home.id).isEmpty)
    }
  }

  @Test(
    "edits made on an older copy of a task while others wait: merged into them, none taken back, each field sent")
  func changesOnOlderCopy() async throws {
    try await withWeekly { client, list, weekly, monday in
      let outbox = PlannerOutbox(file: try folder().appending(path: "outbox.json"))
      // Offline: the title changed, then the notes on the copy from before that change (merged into it), the task
      // finished, and its priority changed on the copy from before all of them.
      var titled = weekly
      titled.title = "bins and recycling out"
      try await outbox.record(.changeTask(base: weekly, mine: titled))
      var noted = weekly
      noted.notes = "the green one too"
      try await outbox.record(.changeTask(base: weekly, mine: noted))
      #expect(await outbox.pending.count == 1, "merged")
      try await outbox.record(.complete(list: list.id, id: weekly.id, occurrence: monday, today: monday))
      var urgent = weekly
      urgent.priority = 1
      try await outbox.record(.changeTask(base: weekly, mine: urgent))
      let shown = try #require(await outbox.shown(lists: [list], tasks: [weekly.id: weekly]).tasks.first)
      #expect(shown.title == titled.title && shown.notes == noted.notes && shown.priority == 1)
      #expect(shown.due?.date == monday.adding(days: 7), "shown finished")

      let result = await outbox.flush(client)
      #expect(result.refused.isEmpty && result.conflicts.isEmpty && result.stoppedBy == nil, "\(result)")
      let stored = try #require(try await client.plannerTasks(list: list.id).first)
      #expect(stored.title == titled.title && stored.notes == noted.notes && stored.priority == 1)
      #expect(stored.due?.date == monday.adding(days: 7) && stored.status == .needsAction)
      #expect(await outbox.pending.isEmpty)
    }
  }

  @Test("a reminder snoozed here while another was added elsewhere: the service keeps both, no conflict")
  func snoozeWhileAdded() async throws {
    try await withWeekly { client, list, weekly, _ in
      var timed = weekly
      timed.due?.time = TimeOfDay(hour: 9)
      timed.reminders = [TaskReminder(.before(minutes: 60))]
      guard case .done(let base) = try await client.changeTask(timed, fields: [.due, .reminders], ifMatch: nil) else {
        return #expect(Bool(false), "not written")
      }
      let outbox = PlannerOutbox(file: try folder().appending(path: "outbox.json"))
      let now = Date(timeIntervalSince1970: 1_795_000_000)
      var snoozed = base
      snoozed.reminders[0] = TaskReminder(.before(minutes: 60), acknowledgedAt: now, snoozedUntil: now + 600)
      try await outbox.record(.changeTask(base: base, mine: snoozed))
      var added = base
      added.reminders.append(TaskReminder(.before(minutes: 10)))
      _ = try await client.changeTask(added, fields: [.reminders], ifMatch: base.version)

      let result = await outbox.flush(client)
      #expect(result.conflicts.isEmpty && result.refused.isEmpty && result.stoppedBy == nil, "\(result)")
      let stored = try #require(try await client.plannerTasks(list: list.id).first)
      #expect(stored.reminders == [snoozed.reminders[0], TaskReminder(.before(minutes: 10))])
    }
  }

  @Test("a task moved with subtasks added before the move is sent: all arrive in the new list, in their order")
  func moveWithNewSubtasks() async throws {
    try await withTrip { client, work, home, parent, _ in
      let outbox = PlannerOutbox(file: try folder().appending(path: "outbox.json"))
      // As the details window does: a change to the parent, two subtasks added, then the parent moved.
      var titled = parent
      titled.title = "plan the trip"
      try await outbox.record(.changeTask(base: parent, mine: titled))
      var subtasks: [PlannerItem] = []
      for title in ["book hotel", "pack bags"] {
        var subtask = item(work.id, title)
        subtask.parentID = parent.id
        subtask.sortKey = ManualOrder.keyAfter(subtasks)
        try await outbox.record(.createTask(subtask))
        subtasks.append(subtask)
      }
      let today = DueLabel.now().today
      try await outbox.record(.complete(list: work.id, id: subtasks[0].id, occurrence: today, today: today))
      var moved = titled
      moved.listID = home.id
      try await outbox.record(.changeTask(base: titled, mine: moved))
      // Shown at once: the parent and its subtasks in Home.
      let shown = PlannerShown(
        lists: [work, home], tasks: [parent.id: parent], edits: await outbox.pending.map(\.edit))
      #expect(shown.tasks.allSatisfy { $0.listID == home.id }, "\(shown.tasks)")

      let result = await outbox.flush(client)
      #expect(result.refused.isEmpty && result.stoppedBy == nil, "\(result.refused)")
      let stored = try await client.plannerTasks(list: home.id)
      #expect(Set(stored.map(\.title)) == ["plan the trip", "book hotel", "pack bags"])
      #expect(stored.first { $0.title == "book hotel" }?.status == .completed)
      #expect(try await client.plannerTasks(list: work.id).isEmpty)
    }
  }

  @Test("a subtask finished between two changes of its parent, the second a move: sent to the list it is in then")
  func finishBetweenParentChanges() async throws {
    try await withTrip { client, work, home, parent, _ in
      var child = item(work.id, "book hotel")
      child.parentID = parent.id
      child = try await client.createTask(child)
      let outbox = PlannerOutbox(file: try folder().appending(path: "outbox.json"))
      var titled = parent
      titled.title = "plan the trip"
      try await outbox.record(.changeTask(base: parent, mine: titled))
      let today = DueLabel.now().today
      try await outbox.record(.complete(list: work.id, id: child.id, occurrence: today, today: today))
      var moved = titled
      moved.listID = home.id
      try await outbox.record(.changeTask(base: titled, mine: moved))
      #expect(await outbox.pending.count == 3, "the move is not merged into the change before the finish")

      let result = await outbox.flush(client)
      #expect(result.refused.isEmpty && result.stoppedBy == nil, "\(result.refused)")
      let stored = try await client.plannerTasks(list: home.id)
      #expect(Set(stored.map(\.title)) == ["plan the trip", "book hotel"])
      #expect(stored.first { $0.title == "book hotel" }?.status == .completed)
    }
  }

  /// Signed in, with the list Home and the task "bins out" in it at the service, due on a Monday weekly.
  private func withWeekly(
    _ body: (TaskAPIClient, PlannerListItem, PlannerItem, CalendarDate) async throws -> Void
  ) async throws {
    try await SessionHarness.with { harness in
      let session = harness.session()
      _ = try await harness.signIn(session)
      let client = TaskAPIClient(session: session)
      let list = try await client.createList(id: UUID(), name: "Home")
      var weekly = item(list.id, "bins out")
      let monday = try #require(CalendarDate(year: 2026, month: 11, day: 30))
      weekly.due = TaskDue(date: monday)
      weekly.recurrence = TaskRecurrence(rule: try RecurrenceRule(rrule: "FREQ=WEEKLY"))
      try await body(client, list, try await client.createTask(weekly), monday)
    }
  }

  /// Ann signed in, with the lists Work and Home and the task "plan trip" in Work at the service.
  private func withTrip(
    _ body: (TaskAPIClient, PlannerListItem, PlannerListItem, PlannerItem, Session) async throws -> Void
  ) async throws {
    try await SessionHarness.with { harness in
      let session = harness.session()
      _ = try await harness.signIn(session)
      let client = TaskAPIClient(session: session)
      let work = try await client.createList(id: UUID(), name: "Work")
      let home = try await client.createList(id: UUID(), name: "Home")
      try await body(client, work, home, try await client.createTask(item(work.id, "plan trip")), session)
    }
  }
}

// Headless tests of the account's planner (`PlannerOperations`) against the real playground: edits shown at once
// and kept offline, sent when the service is back; a finished repeat at its next date; a conflict and Use Mine;
// another client's change after a refresh; sign-out and a second account.

import B2CPlayground
import Foundation
import Synchronization
import TasksAccount
import TasksCore
import TasksTestSupport
import Testing

@Suite("Planner operations: the window's lists and tasks, headless", .serialized)
@MainActor
struct PlannerOperationsTests {
  /// Ann signed in, her planner shown in a recording view and loaded.
  private func signedIn(_ harness: SessionHarness) async throws -> (AccountHarness, RecordingPlanner) {
    let account = try AccountHarness(harness)
    _ = try await account.signIn()
    return (account, account.view)
  }

  private func settle(_ account: AccountHarness) async { await account.settle() }

  /// An account whose every use asks the store the keychain group shares: another app's sign-in or sign-out is
  /// noticed by the next request, as an hour into a session.
  private func followingTheGroup(_ harness: SessionHarness) throws -> AccountHarness {
    try AccountHarness(harness, refreshMargin: 1_000_000)
  }

  /// Another client of the same user (another device, or the CLI).
  private func elsewhere(_ harness: SessionHarness) async throws -> TaskAPIClient {
    let other = harness.session()
    if try await other.restore() == nil { _ = try await harness.signIn(other) }
    return TaskAPIClient(session: other)
  }

  @Test(
    "one edit (a task added with the quick entry, to the default list) reads the change feed once"
  )
  func oneFeedReadPerEdit() async throws {
    try await SessionHarness.with { harness in
      let (account, view) = try await signedIn(harness)
      let planner = account.account.planner
      let home = try #require(view.state.defaultList)
      account.host.holdsIdleWork = true  // the work a read leaves for an idle main loop runs when the test says
      await account.host.runIdleWork()
      let before = harness.requests.answered.count
      let stamps = PlannerItem(id: UUID(), listID: home.id, title: "buy stamps", createdAt: Date())
      #expect(await planner.record(.createTask(stamps)))
      // The edit's read of the feed (the application is held until it has run).
      let read = await eventually { account.host.holds == 0 && view.shown?.waiting.isEmpty == true }
      #expect(read, "\(harness.requests.answered.dropFirst(before))")
      await account.host.runIdleWork()
      let after = Array(harness.requests.answered.dropFirst(before))
      #expect(after.filter { $0.hasPrefix("/api/v2/changes") }.count == 1, "\(after)")
      #expect(try view.task("buy stamps").title == "buy stamps")
      await settle(account)
    }
  }

  @Test(
    "another app signs in as Ann, then as Bob again: the window follows whatever noticed first (a refresh, the long poll's request, the session), shows none of the other's lists, and keeps no copy of the account it left"
  )
  func accountSwitchedElsewhere() async throws {
    try await SessionHarness.with { harness in
      let account = try followingTheGroup(harness)
      let (view, planner) = (account.view, account.account.planner)
      let bob = try await harness.signIn(account.session, "bob@example.com", "Tasks-Demo-2")
      await account.account.signedIn(bob)
      await planner.refresh()
      #expect(await planner.record(.createList(id: UUID(), name: "Bob's list")))
      await planner.refresh()
      let names = { Set(view.state.orderedLists.map(\.name)) }
      #expect(names().contains("Bob's list"))

      // Another app of the group signs in as Ann: the window follows.
      let other = harness.session()
      let ann = try await harness.signIn(other, "ann@example.com")
      _ = try await TaskAPIClient(session: other).createList(id: UUID(), name: "Ann's list")
      await planner.refresh()
      #expect(await eventually { names().contains("Ann's list") && !names().contains("Bob's list") }, "\(names())")

      // And as Bob again: his lists show, and Ann's copy is forgotten (her outbox would stay for her next sign-in).
      _ = try await harness.signIn(other, "bob@example.com", "Tasks-Demo-2")
      await planner.refresh()
      #expect(await eventually { names().contains("Bob's list") && !names().contains("Ann's list") }, "\(names())")
      let annFiles = AccountFiles(account: ann, in: account.session.key, environment: account.environment)
      #expect(!FileManager.default.fileExists(atPath: annFiles.replica.path))

      // The same noticed by the window's long poll's request, or before it by the session (the broker restored it
      // for an app): the other's lists go at once.
      for restoredFirst in [false, true] {
        _ = try await harness.signIn(other, "ann@example.com")
        await planner.refresh()
        #expect(await eventually { names().contains("Ann's list") && !names().contains("Bob's list") }, "\(names())")
        _ = try await harness.signIn(other, "bob@example.com", "Tasks-Demo-2")
        if restoredFirst { #expect(try await account.session.restore()?.objectID == bob.objectID) }
        let longPoll = Task { await planner.waitForChanges() }
        #expect(
          await eventually { names().contains("Bob's list") && !names().contains("Ann's list") },
          "restored first: \(restoredFirst): \(names())")
        longPoll.cancel()
        _ = await longPoll.value
      }
      await settle(account)
    }
  }

  @Test(
    "this app's own sign-in as Bob (Switch Account), noticed by a refresh before the account is told: Bob's lists show, none of Ann's, and nothing says another app signed in; another app's sign-in still is said"
  )
  func ownSwitchNoticedFirstByARequest() async throws {
    try await SessionHarness.with { harness in
      let account = try followingTheGroup(harness)
      let (view, planner) = (account.view, account.account.planner)
      _ = try await account.signIn()
      #expect(await planner.record(.createList(id: UUID(), name: "Ann's list")))
      await planner.refresh()
      let names = { Set(view.state.orderedLists.map(\.name)) }
      #expect(names().contains("Ann's list"))

      let bob = try await harness.signIn(account.session, "bob@example.com", "Tasks-Demo-2")
      await planner.refresh()  // before the window tells the account of its sign-in
      #expect(await eventually { !names().isEmpty && !names().contains("Ann's list") }, "\(names())")
      await account.account.signedIn(bob)
      await planner.refresh()
      #expect(!view.messages.contains(SessionError.accountChanged(bob).message), "\(view.messages)")

      let other = harness.session()
      let ann = try await harness.signIn(other, "ann@example.com")
      await planner.refresh()
      #expect(await eventually { view.messages.last == SessionError.accountChanged(ann).message }, "\(view.messages)")
      #expect(await eventually { names().contains("Ann's list") })
      // And back to Bob in the other app: not this app's sign-in, though it once signed him in.
      _ = try await harness.signIn(other, "bob@example.com", "Tasks-Demo-2")
      await planner.refresh()
      #expect(await eventually { view.messages.last == SessionError.accountChanged(bob).message }, "\(view.messages)")
      await settle(account)
    }
  }

  @Test(
    "another app signs in as Bob while Ann's lists are shown: what was made over them waits in Ann's outbox for her next sign-in (a tick whose send finds the switch, a deletion whose Undo still shows, Use Mine of her conflicts pressed while Bob is signed in or once she is back), never sent as Bob nor kept in his files; Ctrl+Z takes nothing of hers back"
  )
  func editOverAnotherAccount() async throws {
    try await SessionHarness.with { harness in
      let account = try followingTheGroup(harness)
      let (view, planner) = (account.view, account.account.planner)
      _ = try await account.signIn()
      try await account.add("water the plants")
      try await account.add("old receipts")
      try await account.add("call the plumber")
      try await account.add("buy milk")
      let (plants, receipts, plumber, milk) = (
        try view.task("water the plants"), try view.task("old receipts"), try view.task("call the plumber"),
        try view.task("buy milk")
      )
      let annFiles = try await account.files()
      let annShown = planner.shownAccount  // a dialog opened over Ann's lists, answered after the switch

      // Two conflicts of Ann's, shown with their Use Mine: titles changed on another device and offline here.
      let other = harness.session()
      _ = try await harness.signIn(other, "ann@example.com")
      for (task, theirs, mine) in [
        (plumber, "call the plumber on Monday", "call the plumber today"), (milk, "buy oat milk", "buy two milks"),
      ] {
        var changed = task
        changed.title = theirs
        _ = try await TaskAPIClient(session: other).changeTask(changed, fields: [.title], ifMatch: task.version)
        planner.makeClient = { session, _ in .offline(session) }
        changed.title = mine
        #expect(await planner.record(.changeTask(base: task, mine: changed)))
      }
      planner.makeClient = { session, id in TaskAPIClient(session: session, account: id) }
      await planner.refresh()
      #expect(view.conflicts.map(\.mine.title) == ["call the plumber today", "buy two milks"])
      // A deletion whose Undo still shows, and a tick (Ctrl+Z could take it back).
      planner.delete([receipts.id], title: "“old receipts” deleted")
      let notice = try #require(view.notices.last)
      #expect(PlannerOutbox.waiting(in: annFiles.plannerOutbox) == 0)

      // Bob signs in in another app; the tick's send finds it.
      let bob = try await harness.signIn(other, "bob@example.com", "Tasks-Demo-2")
      var done = plants
      done.status = .completed
      done.completedAt = Date()
      #expect(await planner.recordUndoable(.changeTask(base: plants, mine: done)) != nil)
      #expect(await eventually { view.messages.last == SessionError.accountChanged(bob).message }, "\(view.messages)")
      #expect(await eventually { view.titles.isEmpty }, "Bob's lists: \(view.titles)")
      #expect(!notice.isShown, "the deletion's notice went with Ann's lists")
      #expect(PlannerOutbox.waiting(in: annFiles.plannerOutbox) == 2, "the tick and the deletion wait for Ann")
      #expect(!FileManager.default.fileExists(atPath: annFiles.replica.path), "Ann's copy is forgotten")
      planner.undo()  // Ctrl+Z: nothing of Ann's is taken back as Bob
      await view.useMines[0]()  // her first conflict's Use Mine, pressed now
      #expect(PlannerOutbox.waiting(in: annFiles.plannerOutbox) == 3)
      let trip = UUID()
      await planner.soon(over: annShown) { await $0.record(.createList(id: trip, name: "Trip")) }.value
      #expect(PlannerOutbox.waiting(in: annFiles.plannerOutbox) == 4, "the dialog's list is Ann's")
      let bobFiles = AccountFiles(account: bob, in: account.session.key, environment: account.environment)
      await planner.refresh()
      let bobsOutbox = await PlannerOutbox(file: bobFiles.plannerOutbox).pending
      #expect(bobsOutbox.isEmpty, "nothing of Ann's in Bob's outbox, sent or refused: \(bobsOutbox)")
      #expect(view.titles.isEmpty)

      // Bob signs out in the other app, and the window's long poll finds it: Bob's files go, Ann's edits stay.
      _ = try await other.signOut()
      #expect(await planner.waitForChanges() == false)
      #expect(await eventually { account.events.last == .signedOut(elsewhere: true) })
      #expect(account.events.filter { $0 == .signedOut(elsewhere: true) }.count == 1)
      #expect(PlannerOutbox.waiting(in: annFiles.plannerOutbox) == 4)
      #expect(!FileManager.default.fileExists(atPath: bobFiles.replica.path))

      // Ann again: her edits reach the service; her second conflict's Use Mine, pressed now, too.
      _ = try await harness.signIn(other, "ann@example.com")
      _ = try await account.session.restore()
      await planner.refresh()
      #expect(await eventually { (try? view.task("water the plants").status) == .completed })
      #expect(!view.titles.contains("old receipts"))
      #expect(try view.task("call the plumber today").id == plumber.id)
      #expect(view.state.orderedLists.contains { $0.id == trip })
      #expect(PlannerOutbox.waiting(in: annFiles.plannerOutbox) == 0)
      await view.useMines[1]()
      await planner.refresh()
      #expect(try view.task("buy two milks").id == milk.id)
      #expect(
        try await TaskAPIClient(session: other).plannerTasks(list: milk.listID).map(\.title).contains("buy two milks"))
      await planner.refresh()
      #expect(await PlannerOutbox(file: annFiles.plannerOutbox).pending.isEmpty)
      #expect(!view.messages.contains { $0.hasPrefix("A change could not be made") }, "refused: \(view.messages)")
      await settle(account)
    }
  }

  @Test("an edit shows at once, offline too; it waits on disk and reaches the service when it is back")
  func offlineEdits() async throws {
    try await SessionHarness.with { harness in
      let (account, view) = try await signedIn(harness)
      let planner = account.account.planner
      #expect(planner.isAvailable == true)
      #expect(view.state.orderedLists.map(\.name) == ["Tasks"], "the default list")

      planner.makeClient = { session, _ in .offline(session) }
      let trip = UUID()
      #expect(await planner.record(.createList(id: trip, name: "Trip")))
      var flights = PlannerItem(id: UUID(), listID: trip, title: "book flights", createdAt: Date())
      let today = view.state.today
      flights.due = TaskDue(date: today, time: TimeOfDay(hour: 9))
      flights.priority = 1
      #expect(await planner.record(.createTask(flights)))
      #expect(view.state.orderedLists.map(\.name) == ["Tasks", "Trip"], "shown at once, offline")
      #expect(view.state.rows == [.task(flights.id)], "in Today")
      #expect(view.state.content(flights.id)?.changeWaiting == true)
      await planner.refresh()
      #expect(view.messages.isEmpty, "offline says nothing here: the window's banner does")

      // Quitting now loses nothing: the edits are on disk, for the next start.
      let signedIn = try #require(await account.session.account)
      let file = AccountFiles(account: signedIn, in: account.session.key, environment: account.environment)
        .plannerOutbox
      #expect(await PlannerOutbox(file: file).pending.count == 2)

      planner.makeClient = { session, id in TaskAPIClient(session: session, account: id) }
      await planner.refresh()
      let sent = try view.task("book flights")
      #expect(sent.due == flights.due && sent.priority == 1 && view.shown?.waiting.isEmpty == true)
      #expect(view.state.content(flights.id)?.changeWaiting == false)
      #expect(await PlannerOutbox(file: file).pending.isEmpty)
      #expect(try await elsewhere(harness).plannerTasks(list: trip).map(\.title) == ["book flights"])
      await settle(account)
    }
  }

  @Test("an outbox file that does not read is kept aside and the window says where; an edit then loses nothing")
  func damagedOutbox() async throws {
    try await SessionHarness.with { harness in
      let account = try AccountHarness(harness)
      // Signed in, the outbox damaged before the planner first reads it.
      let signedIn = try await harness.signIn(account.session)
      let file = account.account.files(for: signedIn).plannerOutbox
      try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data("[{\"kind\": \"createTask\", \"mine\": {\"title\": \"cut off".utf8).write(to: file)
      await account.account.signedIn(signedIn)
      let (view, planner) = (account.view, account.planner)
      await planner.refresh()
      let aside = try #require(await keptFile(beside: file))
      #expect(PlannerOutbox(file: file).keptAside == nil, "the outbox holds what it read: nothing kept again")
      #expect(view.messages == ["Some changes waiting to be sent could not be read. They were kept in \(aside.path)."])
      #expect(try String(contentsOf: aside, encoding: .utf8).hasSuffix("cut off"))
      #expect(await planner.record(.createList(id: UUID(), name: "After")))
      #expect(try String(contentsOf: aside, encoding: .utf8).hasSuffix("cut off"), "still there")
      await planner.refresh()
      #expect(view.messages.count == 1, "said once")
      await settle(account)
    }
  }

  /// The one file kept aside beside `file`.
  private func keptFile(beside file: URL) async -> URL? {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)) ?? []
    let kept = names.filter { $0.contains(".unreadable-") }
    return kept.count == 1 ? file.deletingLastPathComponent().appending(path: kept[0]) : nil
  }

  /// A task `title` repeating by `rrule` from `today`, added through the planner and sent.
  private func repeating(
    _ title: String, _ rrule: String, in list: PlannerListItem, from today: CalendarDate, _ planner: PlannerOperations
  ) async throws -> PlannerItem {
    var item = PlannerItem(id: UUID(), listID: list.id, title: title, createdAt: Date())
    item.due = TaskDue(date: today)
    item.recurrence = TaskRecurrence(rule: try RecurrenceRule(rrule: rrule))
    await planner.record(.createTask(item))
    await planner.refresh()
    return item
  }

  @Test("finishing a repeating task shows its next date at once; the service agrees, once however often it is sent")
  func repeatFinished() async throws {
    try await SessionHarness.with { harness in
      let (account, view) = try await signedIn(harness)
      let planner = account.account.planner
      let (home, today) = (try #require(view.state.defaultList), view.state.today)
      let rent = try await repeating("pay rent", "FREQ=MONTHLY", in: home, from: today, planner)
      let next = try #require(rent.recurrence?.rule.occurrence(after: today))
      planner.makeClient = { session, _ in .offline(session) }
      await planner.record(.complete(list: home.id, id: rent.id, occurrence: today, today: today))
      #expect(try view.task("pay rent").due?.date == next, "moved in place at once, offline")
      #expect(try view.task("pay rent").status == .needsAction)
      #expect(!view.state.rows.contains(.task(rent.id)), "no longer in Today")
      await planner.record(.complete(list: home.id, id: rent.id, occurrence: today, today: today))
      planner.makeClient = { session, id in TaskAPIClient(session: session, account: id) }
      await planner.refresh()
      let stored = try #require(try await elsewhere(harness).plannerTasks(list: home.id).first { $0.id == rent.id })
      #expect(stored.due?.date == next, "sent twice, moved once")
      #expect(try view.task("pay rent").due?.date == next && view.shown?.waiting.isEmpty == true)
      await settle(account)
    }
  }

  @Test(
    "a toast's Undo of a finished repeat puts its date back and nothing else: a rename since and another device's notes stay"
  )
  func undoOwnFields() async throws {
    try await SessionHarness.with { harness in
      let (account, view) = try await signedIn(harness)
      let planner = account.account.planner
      let (home, today) = (try #require(view.state.defaultList), view.state.today)
      let bins = try await repeating("bins out", "FREQ=WEEKLY", in: home, from: today, planner)
      let tick = try #require(
        await planner.recordUndoable(.complete(list: home.id, id: bins.id, occurrence: today, today: today)))
      await planner.refresh()
      let ticked = try view.task("bins out")
      var renamed = ticked
      renamed.title = "bins and recycling out"
      await planner.recordUndoable(.changeTask(base: ticked, mine: renamed))
      await planner.refresh()
      let other = try await elsewhere(harness)
      var noted = try #require(try await other.plannerTasks(list: home.id).first { $0.id == bins.id })
      noted.notes = "the green one too"
      _ = try await other.changeTask(noted, fields: [.notes], ifMatch: noted.version)
      await planner.refresh()
      #expect(try view.task(renamed.title).notes == noted.notes)

      planner.undo(tick)  // the toast's Undo, after the rename
      #expect(await eventually { (try? view.task(renamed.title).due?.date) == today }, "recorded, shown")
      await planner.refresh()
      let stored = try #require(try await other.plannerTasks(list: home.id).first { $0.id == bins.id })
      #expect(stored.due?.date == today, "the date back")
      #expect(stored.title == renamed.title && stored.notes == noted.notes, "the rest as it was made since")
      #expect(try view.task(renamed.title).due?.date == today)
      await settle(account)
    }
  }

  @Test(
    "another device's change shows after a refresh; the same field changed on both is a conflict, and Use Mine wins")
  func conflict() async throws {
    try await SessionHarness.with { harness in
      let (account, view) = try await signedIn(harness)
      let planner = account.account.planner
      let home = try #require(view.state.defaultList)
      let plants = PlannerItem(id: UUID(), listID: home.id, title: "water plants", createdAt: Date())
      await planner.record(.createTask(plants))
      await planner.refresh()
      let base = try view.task("water plants")

      let other = try await elsewhere(harness)
      var theirs = base
      theirs.title = "water the garden"
      _ = try await other.changeTask(theirs, fields: [.title], ifMatch: base.version)
      // Offline here, the same title is changed, with the notes.
      planner.makeClient = { session, _ in .offline(session) }
      var mine = base
      mine.title = "water the balcony"
      mine.notes = "and the ferns"
      await planner.record(.changeTask(base: base, mine: mine))
      #expect(try view.task("water the balcony").notes == "and the ferns")
      planner.makeClient = { session, id in TaskAPIClient(session: session, account: id) }
      await planner.refresh()
      let conflict = try #require(view.conflicts.first)
      #expect(conflict.fields == [.title] && conflict.mine.title == "water the balcony")
      #expect(try view.task("water the garden").notes == "and the ferns", "the other field was merged")

      await view.useMines[0]()
      await planner.refresh()
      #expect(try view.task("water the balcony").notes == "and the ferns")
      let stored = try await other.plannerTasks(list: home.id).first { $0.id == base.id }
      #expect(stored?.title == "water the balcony" && view.conflicts.count == 1)

      // A change made elsewhere shows at the next refresh.
      var renamed = try #require(stored)
      renamed.title = "water everything"
      _ = try await other.changeTask(renamed, fields: [.title], ifMatch: renamed.version)
      await planner.refresh()
      #expect(try view.task("water everything").id == base.id)
      await settle(account)
    }
  }

  @Test(
    """
    a first start shows the feed's first page while the rest is on its way; the copy is written, and the long poll \
    starts, only once the whole read has come; an edit meanwhile keeps what is shown
    """)
  func firstReadShownAsItComes() async throws {
    try await SessionHarness.with { harness in
      let (account, pages, home) = try await firstStart(harness)
      let (view, planner) = (account.view, account.planner)
      let copy = try await account.files().replica
      let refreshed = Task { await planner.refresh() }

      #expect(await eventually { view.shown?.tasks.count == 10 }, "the first page is shown: \(view.titles)")
      // The window's long poll starts from what was read (asked now, with the first page on screen).
      let waited = WaitFlag()
      Task { @MainActor in
        await planner.untilShown()
        waited.set()
      }
      await Task.yield()
      // Nor is there a long poll before the whole read (it would ask for everything a second time).
      let polled = Task { await planner.waitForChanges() }
      #expect(view.state.orderedLists.map(\.name) == ["Tasks"])
      #expect(!FileManager.default.fileExists(atPath: copy.path), "nothing is kept before the whole read has come")
      #expect(!waited.isSet, "the long poll waits for the whole read")
      // An edit while the rest is on its way is shown over the pages so far, not over the empty copy.
      let added = PlannerItem(id: UUID(), listID: home.id, title: "added meanwhile", createdAt: Date())
      #expect(await planner.record(.createTask(added)))
      #expect(view.shown?.tasks.count == 11 && view.titles.contains("added meanwhile"), "\(view.titles)")
      #expect(!waited.isSet, "the long poll still waits for the whole read")

      pages.open()
      await refreshed.value
      #expect(await eventually { view.shown?.tasks.count == 26 }, "\(view.titles)")
      #expect(FileManager.default.fileExists(atPath: copy.path))
      #expect(await eventually { waited.isSet })
      #expect(view.shown?.tasks.count == 26, "no late page showed over the whole read")
      #expect(await polled.value == false, "the long poll asked during the first read did not read")
      await settle(account)
    }
  }

  @Test(
    "a quiet refresh asked while the first read is under way (the window getting the focus at its start) reads nothing more"
  )
  func quietRefreshDuringFirstRead() async throws {
    try await SessionHarness.with { harness in
      let (account, pages, _) = try await firstStart(harness)
      let (view, planner) = (account.view, account.planner)
      let before = harness.requests.feedReads
      let refreshed = Task { await planner.refresh() }
      #expect(await eventually { view.shown?.tasks.count == 10 })
      let quiet = Task { await planner.refreshQuietly(atMostEvery: .seconds(3)) }
      pages.open()
      await refreshed.value
      await quiet.value
      #expect(harness.requests.feedReads - before == 3, "the first read's three pages, and no second read")
      await settle(account)
    }
  }

  @Test("a service whose second page is bad: what its first page showed goes, the window says so, nothing is kept")
  func badLaterPageWithdrawsPreview() async throws {
    try await SessionHarness.with { harness in
      let garbage = TasksCore.HTTPAnswer(
        status: 200, body: Data(#"{"lists": "not a list"}"#.utf8), headers: ["content-type": "application/json"])
      let (account, pages, _) = try await firstStart(harness, later: garbage)
      let (view, planner) = (account.view, account.planner)
      let refreshed = Task { await planner.refresh() }
      #expect(await eventually { view.shown?.tasks.count == 10 }, "the first page is shown")
      pages.open()
      await refreshed.value
      #expect(view.shown?.tasks.isEmpty == true && view.shown?.lists.isEmpty == true, "\(view.titles)")
      #expect(view.messages == [TaskAPIError.badResponse("").message], "\(view.messages)")
      #expect(!FileManager.default.fileExists(atPath: try await account.files().replica.path))
      await settle(account)
    }
  }

  /// Ann, with 25 tasks in her default list made on another device, signed in on this computer, which keeps nothing;
  /// its planner reads pages of 10 tasks, and those after the first wait until the test opens the gate.
  private func firstStart(_ harness: SessionHarness, later: TasksCore.HTTPAnswer? = nil) async throws -> (
    AccountHarness, FeedPageGate, PlannerListItem
  ) {
    let other = try await elsewhere(harness)
    let home = try #require(try await other.plannerLists().first(where: \.isDefault))
    for number in 1...25 {
      _ = try await other.createTask(
        PlannerItem(id: UUID(), listID: home.id, title: "task \(number)", createdAt: Date()))
    }
    let account = try AccountHarness(harness)
    account.planner.pageSize = 10
    let pages = FeedPageGate(later: later)
    let base = harness.settings.taskAPI
    account.planner.makeClient = { session, id in
      TaskAPIClient(baseURL: base, http: HTTPClient(pages.transport(HTTPClient.tests))) {
        force throws(SessionError) in try await session.bearer(forceRefresh: force, for: id)
      }
    }
    await account.account.signedIn(try await harness.signIn(account.session, "ann@example.com"))
    return (account, pages, home)
  }

  @Test(
    "a first read that cannot reach the service ends the long poll's wait (its own retries take over); a cancelled wait returns",
    .timeLimit(.minutes(2)))
  func firstReadFailing() async throws {
    try await SessionHarness.with { harness in
      let account = try AccountHarness(harness)
      let planner = account.planner
      planner.makeClient = { session, _ in .offline(session) }
      await account.account.signedIn(try await harness.signIn(account.session, "ann@example.com"))
      // A window's long poll given up (the window lost the focus) before anything was shown.
      let givenUp = Task { @MainActor in await planner.untilShown() }
      await Task.yield()
      givenUp.cancel()
      await givenUp.value

      let waited = WaitFlag()
      Task { @MainActor in
        await planner.untilShown()
        waited.set()
      }
      await planner.refresh()
      #expect(account.view.offline != nil)
      #expect(await eventually { waited.isSet }, "the first read ended, without the lists")
      await settle(account)
    }
  }

  @Test("a sign-out forgets the lists and removes the copy; the next account sees none of the first's")
  func signOut() async throws {
    try await SessionHarness.with { harness in
      let account = try AccountHarness(harness)
      let ann = try await account.signIn("ann@example.com")
      let view = RecordingPlanner()
      let planner = account.account.planner
      planner.view = view
      await planner.refresh()
      await planner.record(.createList(id: UUID(), name: "Ann's secrets"))
      await planner.refresh()
      let copy = AccountFiles(account: ann, in: account.session.key, environment: account.environment).replica
      #expect(FileManager.default.fileExists(atPath: copy.path))
      _ = try await account.account.signOut()
      #expect(view.shown?.lists.isEmpty == true && planner.shown == nil)
      #expect(!FileManager.default.fileExists(atPath: copy.path))

      let bob = try await harness.signIn(account.session, "bob@example.com", "Tasks-Demo-2")
      await account.account.signedIn(bob)
      await planner.refresh()
      #expect(view.state.orderedLists.map(\.name) == ["Tasks"], "Bob's own default list only")
      await settle(account)
    }
  }
}

/// Holds every change-feed request for a page after the first (`since=` in its query) until `open`.
/// With `later`, a hostile or broken service: each page after the first is that answer, once the gate is open.
private final class FeedPageGate: Sendable {
  private let isOpen = Mutex(false)
  let later: TasksCore.HTTPAnswer?

  init(later: TasksCore.HTTPAnswer? = nil) { self.later = later }

  func open() { isOpen.withLock { $0 = true } }

  func transport(_ http: HTTPClient) -> any HTTPTransport { Gated(gate: self, http: http) }

  private struct Gated: HTTPTransport {
    let gate: FeedPageGate
    let http: HTTPClient

    func send(_ request: HTTPRequest) async throws(NetworkError) -> TasksCore.HTTPAnswer {
      if request.url.path().hasSuffix("/changes"), request.url.query()?.contains("since=") == true {
        while !gate.isOpen.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(10)) }
        if let later = gate.later { return later }
      }
      return try await http.send(request)
    }
  }
}

/// Set once, read from the main actor.
@MainActor
private final class WaitFlag {
  private(set) var isSet = false
  func set() { isSet = true }
}

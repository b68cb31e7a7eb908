// Tests of the account's planner as the default list's user meets it, without a desktop: the outbox and the retry
// while offline, Undo (a deletion, a completion, a move to another list), Delete Completed, sign-out and the window
// closing while a deletion waits, and the edits an earlier version kept offline carried over to the service. Against
// the real playground over loopback.

import Foundation
import TasksAccount
import TasksCore
import TasksTestSupport
import Testing

@Suite("The planner's edits, Undo and retry, headless", .serialized)
@MainActor
struct PlannerEditingTests {
  /// Runs `body` with a signed-in account of a fresh playground; the account's work has ended when it returns.
  private func withAccount(_ body: (AccountHarness) async throws -> Void) async throws {
    try await SessionHarness.with { harness throws in
      let account = try AccountHarness(harness)
      _ = try await account.signIn()
      try await body(account)
      await account.settle()
    }
  }

  @Test(
    "offline, an add waits on screen and on disk, the banner says so; when the service is back, the retry sends it once"
  )
  func offlineAdd() async throws {
    try await withAccount { account throws in
      await account.harness.running.stop()
      let item = try await account.add("while offline")
      #expect(account.view.titles == ["while offline"] && account.view.shown?.waiting == [item.id])
      guard case .unreachable? = account.view.offline else {
        Issue.record("the window was not told the service is unreachable: \(String(describing: account.view.offline))")
        return
      }
      let again = try await account.harness.startAgain()
      try await withTeardown({ await again.stop() }) { () throws in
        // The network is back: the retry goes at once, not after its wait. (On a loaded machine a retry may be under
        // way as the service comes back, and fail: the change is announced again until one gets through.)
        let sent = await eventually(every: .seconds(1)) {
          account.host.announceNetworkChange()
          return account.view.offline == nil && account.view.shown?.waiting.isEmpty == true
        }
        let (offline, waiting) = (account.view.offline, account.view.shown?.waiting ?? [])
        #expect(sent, "offline: \(String(describing: offline)), waiting: \(waiting), said: \(account.view.messages)")
        #expect(try await account.serverTexts() == ["while offline"])
      }
    }
  }

  @Test(
    "the service is up but fails its writes (503): the add waits, the problem is said; once writes work, the retry sends it unasked"
  )
  func writesFailWhileReadsWork() async throws {
    try await withAccount { account throws in
      let faults = try await WriteFaults.start(upstream: account.harness.base)
      try await withTeardown({ await faults.stop() }) { () throws in
        account.planner.makeClient = { session, _ in .through(faults.base, session) }
        let item = try await account.add("while writes fail")
        #expect(await faults.refusedWrites >= 1)
        #expect(account.view.shown?.waiting == [item.id] && account.view.offline == nil, "reads work: no banner")
        #expect(account.view.messages.contains(TaskAPIError.server(503).message))
        await faults.failWrites(false)
        // Nothing is pressed and the network does not change: the retry sends it.
        #expect(await eventually { account.view.shown?.waiting.isEmpty == true })
        #expect(try await account.serverTexts() == ["while writes fail"])
        #expect(account.view.titles == ["while writes fail"])
      }
    }
  }

  @Test("Undo of a deletion shows the task again and the service never hears of it; after the notice, it is deleted")
  func undoDeletion() async throws {
    try await withAccount { account throws in
      let milk = try await account.add("buy milk")
      account.planner.delete([milk.id], title: "“buy milk” deleted")
      #expect(await eventually { account.view.titles.isEmpty }, "hidden at once")
      let notice = try #require(account.view.notices.last)
      #expect(notice.title == "“buy milk” deleted")
      notice.pressUndo()
      #expect(await eventually { account.view.titles == ["buy milk"] })
      await account.planner.refresh()
      #expect(try await account.serverTexts() == ["buy milk"], "the service never heard of it")

      account.planner.delete([milk.id], title: "again")
      let second = try #require(account.view.notices.last)
      second.dismiss()  // its time ran out
      #expect(await eventually { (try? await account.serverTexts())?.isEmpty == true })
      account.planner.undo()  // nothing left to take back: nothing comes back
      await account.planner.refresh()
      #expect(account.view.titles.isEmpty)
    }
  }

  @Test("Ctrl+Z after ticking a task unticks it at the service; after moving it to another list, moves it back")
  func undoCompletionAndMove() async throws {
    try await withAccount { account throws in
      let rent = try await account.add("pay rent")
      let work = UUID()
      #expect(await account.planner.record(.createList(id: work, name: "Work")))
      await account.planner.refresh()
      let shown = try account.view.task("pay rent")
      let home = shown.listID
      let today = account.view.state.today
      #expect(
        await account.planner.recordUndoable(
          .complete(list: home, id: rent.id, occurrence: today, today: today)) != nil)
      await account.planner.refresh()
      #expect(try account.view.task("pay rent").status == .completed)
      account.planner.undo()
      #expect(await eventually { (try? account.view.task("pay rent").status) == .needsAction })
      await account.planner.refresh()
      #expect(try await account.serverTexts() == ["pay rent"], "open again in the default list, at the service")
      #expect(try await TaskAPIClient(session: account.session).list().first?.completed == false)

      let before = try account.view.task("pay rent")
      var moved = before
      moved.listID = work
      #expect(await account.planner.recordUndoable(.changeTask(base: before, mine: moved)) != nil)
      await account.planner.refresh()
      #expect(try account.view.task("pay rent").listID == work)
      #expect(try await account.serverTexts().isEmpty, "no longer in the default list")
      account.planner.undo()
      #expect(await eventually { (try? account.view.task("pay rent").listID) == home })
      await account.planner.refresh()
      #expect(try await account.serverTexts() == ["pay rent"], "back in the default list")
    }
  }

  @Test("Delete Completed takes every finished task of the entry with one Undo; with none, it says so")
  func deleteCompleted() async throws {
    try await withAccount { account throws in
      account.planner.deleteCompleted([])
      #expect(account.view.messages == ["No completed tasks to delete"])
      let today = account.view.state.today
      for title in ["a", "b", "c"] {
        let item = try await account.add(title)
        if title != "b" {
          await account.planner.record(.complete(list: item.listID, id: item.id, occurrence: today, today: today))
        }
      }
      await account.planner.refresh()
      let home = try #require(account.view.state.defaultList)
      var state = account.view.state
      _ = state.select(.list(home.id))
      #expect(Set(state.completedTasks.map(\.title)) == ["a", "c"])
      account.planner.deleteCompleted(state.completedTasks)
      #expect(account.view.notices.last?.title == "2 tasks deleted")
      #expect(await eventually { account.view.titles == ["b"] })
      account.planner.undo()
      #expect(await eventually { account.view.titles == ["a", "b", "c"] })
    }
  }

  @Test("sign-out while a deletion waits: the deletion reaches the service first, then everything is forgotten")
  func signOutWhileDeletionWaits() async throws {
    try await withAccount { account throws in
      let gone = try await account.add("delete before leaving")
      try await account.add("stays")
      account.planner.delete([gone.id], title: "deleted")
      _ = try await account.account.signOut()
      #expect(try await account.serverTexts() == ["stays"])
      #expect(account.view.titles.isEmpty)
      #expect(account.events.last == .signedOut(elsewhere: false))
      #expect(await account.session.account == nil)
    }
  }

  @Test("the window closing carries out a deletion whose Undo showed; the planner goes on without it")
  func windowClosingCarriesOutDeletion() async throws {
    try await withAccount { account throws in
      let closing = try await account.add("closing")
      try #require(await eventually { account.host.holds == 0 }, "the add's own hold let go first")
      account.planner.delete([closing.id], title: "deleted")
      account.planner.windowClosed()
      // Held at once: a quit closes the last window, and the program ends at its first moment without a hold.
      #expect(account.host.holds > 0)
      #expect(await eventually { account.host.holds == 0 })
      #expect(try await account.serverTexts().isEmpty, "the deletion was sent before the hold was let go")
    }
  }

  @Test("a deletion whose notice goes, and an Undo, hold the application from that moment until they are sent")
  func noticeAndUndoHold() async throws {
    try await withAccount { account throws in
      let gone = try await account.add("goes with its notice")
      let ticked = try await account.add("ticked, then not")
      try #require(await eventually { account.host.holds == 0 }, "the adds' own holds let go first")
      account.planner.delete([gone.id], title: "deleted")
      try #require(account.view.notices.last).dismiss()
      #expect(account.host.holds > 0, "held as the notice goes")
      #expect(await eventually { account.host.holds == 0 })
      #expect(try await account.serverTexts() == ["ticked, then not"], "sent before the hold was let go")

      let today = account.view.state.today
      await account.planner.recordUndoable(
        .complete(list: ticked.listID, id: ticked.id, occurrence: today, today: today))
      try #require(await eventually { account.host.holds == 0 }, "the completion's hold let go first")
      account.planner.undo()
      #expect(account.host.holds > 0, "held as Undo is pressed")
      #expect(await eventually { account.host.holds == 0 })
      let other = account.harness.session()
      if try await other.restore() == nil { _ = try await account.harness.signIn(other) }
      let feed = try await PlannerReplica.read(TaskAPIClient(session: other), since: nil, limit: nil)
      #expect(feed.tasks.map(\.status) == [.needsAction], "the Undo sent before the hold was let go")
    }
  }

  @Test(
    "signed in while the service cannot be reached: a task added before any list is known shows in a default list at once and reaches the real one"
  )
  func addBeforeAnyList() async throws {
    try await SessionHarness.with { harness throws in
      let account = try AccountHarness(harness)
      let signedIn = try await harness.signIn(account.session)
      await harness.running.stop()
      await account.account.signedIn(signedIn)
      await account.planner.refresh()
      #expect(account.view.state.defaultList == nil, "no list is known")
      #expect(await account.planner.addToDefaultList("typed before any list"))
      #expect(await eventually { account.view.titles == ["typed before any list"] })
      let home = try #require(account.view.state.defaultList)
      #expect(home.id == PlannerOperations.provisionalDefaultList && home.name == "Tasks")
      #expect(account.view.shown?.waiting.count == 1, "it says it waits")
      let again = try await harness.startAgain()
      try await withTeardown({ await again.stop() }) { () throws in
        await account.planner.refresh()
        #expect(try await account.serverTexts() == ["typed before any list"])
        #expect(await eventually { account.view.state.defaultList?.id != PlannerOperations.provisionalDefaultList })
        #expect(account.view.titles == ["typed before any list"] && account.view.shown?.waiting.isEmpty == true)
        await account.settle()
      }
    }
  }

  @Test(
    "a task typed before any list is known, while the tasks an earlier version kept are being sent, is kept and sent too (one outbox object writes the file)",
    .timeLimit(.minutes(3)))
  func earlierVersionsOutboxWhileSending() async throws {
    try await SessionHarness.with { harness throws in
      let account = try AccountHarness(harness)
      let signedIn = try await harness.signIn(account.session)
      let files = account.account.files(for: signedIn)
      _ = try await Outbox(file: files.legacyOutbox).add("typed before the update")
      let gate = SendGate()
      account.planner.makeClient = gate.clients(base: harness.settings.taskAPI)
      await account.account.signedIn(signedIn)
      let first = Task { await account.planner.refresh() }
      #expect(await eventually { gate.isHolding }, "the earlier version's task is on the wire")
      #expect(await account.planner.addToDefaultList("typed meanwhile"))
      gate.open()
      await first.value
      await account.planner.refresh()
      #expect(try await account.serverTexts() == ["typed before the update", "typed meanwhile"])
      #expect(!FileManager.default.fileExists(atPath: files.legacyOutbox.path), "all sent: the file goes")
      await account.settle()
    }
  }

  @Test(
    "tasks an earlier version kept offline (the sample's list outbox on disk) reach the service at the first read, once, and the file goes"
  )
  func earlierVersionsOutbox() async throws {
    try await SessionHarness.with { harness throws in
      let account = try AccountHarness(harness)
      let signedIn = try await harness.signIn(account.session)
      let files = account.account.files(for: signedIn)
      // What that version wrote while offline: two tasks typed, and its offline copy of the list.
      let outbox = Outbox(file: files.legacyOutbox)
      _ = try await outbox.add("typed before the update")
      _ = try await outbox.add("and this one")
      try AtomicFile.write(Data(#"{"savedAt":0,"tasks":[]}"#.utf8), to: files.legacyOfflineCopy)
      await account.account.signedIn(signedIn)
      await account.planner.refresh()
      #expect(try await account.serverTexts() == ["and this one", "typed before the update"])
      #expect(await eventually { account.view.titles == ["and this one", "typed before the update"] })
      #expect(!FileManager.default.fileExists(atPath: files.legacyOutbox.path), "sent: the outbox's file goes")
      #expect(!FileManager.default.fileExists(atPath: files.legacyOfflineCopy.path), "the old offline copy goes")
      await account.planner.refresh()
      #expect(try await account.serverTexts().count == 2, "sent once")
      await account.settle()
    }
  }
}

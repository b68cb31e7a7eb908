// Tests of the account's list operations without a desktop: the outbox, Undo, retry, sync and sign-out, against the
// real playground over loopback, the rows kept by the core's TaskListState as the window keeps them.

import Foundation
import TasksAccount
import TasksCore
import TasksTestSupport
import Testing

@Suite("The list's operations, headless", .serialized)
@MainActor
struct TaskListOperationsTests {
  /// Runs `body` with a signed-in account of a fresh playground.
  private func withAccount(_ body: (AccountHarness) async throws -> Void) async throws {
    try await SessionHarness.with { harness throws in
      let account = try AccountHarness(harness)
      _ = try await account.signIn()
      try await body(account)
    }
  }

  @Test("an add shows at once, is kept in the outbox first, and reaches the server once")
  func add() async throws {
    try await withAccount { account throws in
      let adding = account.list.add("buy milk")
      await adding.value
      #expect(account.view.texts == ["buy milk"])
      #expect(!account.view.isWaiting("buy milk"), "the server's row replaced the waiting one")
      #expect(try await account.serverTexts() == ["buy milk"])
      #expect(try await account.files().outbox.pending.isEmpty)
      #expect(account.events.last == .listChanged(isEmpty: false))
    }
  }

  @Test("offline, an add waits on screen and on disk; when the service is back, the retry sends it once")
  func offlineAdd() async throws {
    try await withAccount { account throws in
      await account.harness.running.stop()
      await account.list.add("while offline").value
      #expect(account.view.texts == ["while offline"])
      #expect(account.view.isWaiting("while offline"))
      #expect(try await account.files().outbox.pending.map(\.text) == ["while offline"])
      guard case .unreachable? = account.presenter.offline else {
        Issue.record(
          "the window was not told the service is unreachable: \(String(describing: account.presenter.offline))")
        return
      }
      let again = try await account.harness.startAgain()
      try await withTeardown({ await again.stop() }) { () throws in
        account.host.announceNetworkChange()  // the retry goes at once, not after its wait
        #expect(await eventually { account.presenter.offline == nil && !account.view.isWaiting("while offline") })
        #expect(try await account.serverTexts() == ["while offline"])
        #expect(try await account.files().outbox.pending.isEmpty)
      }
    }
  }

  @Test("retry after a failure: the list fails, a retry waits, and the next one shows the server's list")
  func retryAfterFailure() async throws {
    try await withAccount { account throws in
      _ = try await TaskAPIClient(session: account.session).add("from elsewhere")
      await account.harness.running.stop()
      await account.list.reload()
      #expect(account.presenter.offline != nil)
      #expect(account.view.texts.isEmpty)
      let again = try await account.harness.startAgain()
      try await withTeardown({ await again.stop() }) { () throws in
        account.host.announceNetworkChange()
        #expect(await eventually { account.view.texts == ["from elsewhere"] })
        #expect(account.presenter.offline == nil)
      }
    }
  }

  @Test("Undo of a deletion puts the row back, and the server never hears of it")
  func undoDeletion() async throws {
    try await withAccount { account throws in
      await account.list.add("keep me").value
      let key = try account.view.keyShowing("keep me")
      account.list.delete([key])
      #expect(account.view.texts.isEmpty)
      #expect(account.events.last == .listChanged(isEmpty: true))
      let notice = try #require(account.presenter.notices.last)
      notice.pressUndo()
      #expect(account.view.texts == ["keep me"])
      #expect(!notice.isShown, "Undo takes the notice away")
      #expect(account.host.holds == 0, "nothing was sent")
      #expect(try await account.serverTexts() == ["keep me"])
    }
  }

  @Test("Undo after the notice went takes nothing back: the task is deleted at the server")
  func undoAfterNoticeWent() async throws {
    try await withAccount { account throws in
      await account.list.add("delete me").value
      account.list.delete([try account.view.keyShowing("delete me")])
      try #require(account.presenter.notices.last).dismiss()
      #expect(try await eventually { try await account.serverTexts().isEmpty && account.host.holds == 0 })
      account.list.undo()  // Ctrl+Z: nothing to take back
      #expect(account.view.texts.isEmpty)
      #expect(try await account.serverTexts().isEmpty)
      #expect(try await account.files().outbox.pendingChanges.isEmpty)
    }
  }

  @Test("a second deletion carries out the first: one Undo at a time, and it takes back the second")
  func secondDeletion() async throws {
    try await withAccount { account throws in
      await account.list.add("first").value
      await account.list.add("second").value
      account.list.delete([try account.view.keyShowing("first")])
      let firstNotice = try #require(account.presenter.notices.last)
      account.list.delete([try account.view.keyShowing("second")])
      #expect(!firstNotice.isShown)
      account.list.undo()
      #expect(account.view.texts == ["second"])
      #expect(try await eventually { try await account.serverTexts() == ["second"] })
    }
  }

  @Test("a refresh while edits wait shows the edits, not the server's older values; they go when it is back")
  func refreshWhileEditsWait() async throws {
    try await withAccount { account throws in
      await account.list.add("draft").value
      let task = try account.view.taskShowing("draft")
      await account.harness.running.stop()
      await account.list.setText(task, "final").value
      await account.list.reload()
      #expect(account.view.texts == ["final"])
      #expect(account.view.isWaiting("final"))
      let again = try await account.harness.startAgain()
      try await withTeardown({ await again.stop() }) { () throws in
        await account.list.reload()
        #expect(account.view.texts == ["final"] && !account.view.isWaiting("final"))
        #expect(try await account.serverTexts() == ["final"])
      }
    }
  }

  @Test("two quick edits of one task: both are kept, merged, and the server ends with the second")
  func twoQuickEdits() async throws {
    try await withAccount { account throws in
      await account.list.add("one").value
      let task = try account.view.taskShowing("one")
      let first = account.list.setText(task, "two")
      let second = account.list.setCompleted(task, true, undoable: true)
      let third = account.list.setText(task, "three")
      await first.value
      await second.value
      await third.value
      #expect(await eventually { await (try? account.files().outbox.pendingChanges.isEmpty) == true })
      let server = try await TaskAPIClient(session: account.session).list()
      #expect(server.map(\.text) == ["three"])
      #expect(server.first?.completed == true, "the completion between the edits is kept")
      #expect(account.view.texts == ["three"] && !account.view.isWaiting("three"))
    }
  }

  @Test("Ctrl+Z after ticking a task unticks it, at the server too")
  func undoCompletion() async throws {
    try await withAccount { account throws in
      await account.list.add("tick me").value
      let task = try account.view.taskShowing("tick me")
      await account.list.setCompleted(task, true, undoable: true).value
      #expect(try await TaskAPIClient(session: account.session).list().first?.completed == true)
      account.list.undo()
      #expect(account.view.task(.task(task.id))?.completed == false)
      #expect(
        try await eventually { try await TaskAPIClient(session: account.session).list().first?.completed == false })
    }
  }

  @Test("Delete Completed takes every completed task with one Undo; with none, it says so")
  func deleteCompleted() async throws {
    try await withAccount { account throws in
      account.list.deleteCompleted()
      #expect(account.presenter.messages.last == "No completed tasks to delete")
      for text in ["a", "b", "c"] { await account.list.add(text).value }
      for text in ["a", "c"] {
        let task = try account.view.taskShowing(text)
        await account.list.setCompleted(task, true, undoable: false).value
      }
      account.list.deleteCompleted()
      #expect(account.view.texts == ["b"])
      #expect(account.presenter.notices.count == 1)
      #expect(account.presenter.notices.last?.title == "2 tasks deleted")
      try #require(account.presenter.notices.last).dismiss()
      #expect(try await eventually { try await account.serverTexts() == ["b"] })
    }
  }

  @Test("a change the server refuses is said, and the server's list is shown")
  func refusedChange() async throws {
    try await withAccount { account throws in
      await account.list.add("gone elsewhere").value
      let task = try account.view.taskShowing("gone elsewhere")
      try await TaskAPIClient(session: account.harness.session()).delete(id: task.id)
      await account.list.setText(task, "too late").value
      #expect(account.presenter.messages.contains("A change could not be made: the task was deleted elsewhere"))
      #expect(account.view.texts.isEmpty)
      #expect(try await account.files().outbox.pendingChanges.isEmpty)
    }
  }

  @Test("sign-out while a deletion waits: the deletion reaches the server first, then everything is forgotten")
  func signOutWhileDeletionWaits() async throws {
    try await withAccount { account throws in
      await account.list.add("delete before leaving").value
      await account.list.add("stays").value
      account.list.delete([try account.view.keyShowing("delete before leaving")])
      let files = try await account.files()
      _ = try await account.account.signOut()
      #expect(try await account.serverTexts() == ["stays"])
      #expect(account.view.texts.isEmpty)
      #expect(account.events.last == .signedOut(elsewhere: false))
      #expect(!FileManager.default.fileExists(atPath: files.cache.file.path), "the offline copy is removed")
      #expect(await account.session.account == nil)
    }
  }

  @Test("the window closing carries out a deletion whose Undo showed; the list goes on without it")
  func detachCarriesOutDeletion() async throws {
    try await withAccount { account throws in
      await account.list.add("closing").value
      account.list.delete([try account.view.keyShowing("closing")])
      account.list.detach()
      #expect(account.host.holds == 1, "the application is held until the server has answered")
      #expect(await eventually { account.host.holds == 0 })
      #expect(try await account.serverTexts().isEmpty)
      await account.list.add("without a window").value
      #expect(try await account.serverTexts() == ["without a window"])
    }
  }
}

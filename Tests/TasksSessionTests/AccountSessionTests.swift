// Tests of the application's account without a desktop: the one sign-out and what it forgets, a sign-out in another
// app, and the broker's wait for a sign-in.

import Foundation
import TasksAccount
import TasksCore
import TasksTestSupport
import Testing

@Suite("The account session, headless", .serialized)
@MainActor
struct AccountSessionTests {
  @Test(
    "sign-out removes the session, the web session, the planner's copy (the offline copy), the reminder service's agenda and ledger and each outbox's file once all is sent: nothing of the account stays in the data folder"
  )
  func signOutForgetsEverything() async throws {
    try await SessionHarness.with { harness throws in
      let account = try AccountHarness(harness)
      _ = try await account.signIn()
      let task = try await account.add("sent before leaving")
      let files = try await account.files()
      // What the reminder service keeps of the account (the agenda, its outbox, what fired).
      try AtomicFile.write(Data("{}".utf8), to: files.reminderAgenda)
      try AtomicFile.write(Data("[]".utf8), to: files.reminderOutbox)
      try AtomicFile.write(Data("".utf8), to: files.reminderLedger)
      #expect(FileManager.default.fileExists(atPath: files.replica.path), "the planner's copy of the feed")
      let folders = account.account.webSessionFolders
      for folder in [folders.data, folders.cache] {
        try AtomicFile.write(Data("cookie".utf8), to: folder.appending(path: "cookies.sqlite"))
      }
      // An edit made offline is in the outbox's file; the sign-out sends it while it still can.
      await harness.running.stop()
      let shown = try account.view.task(task.title)
      var edited = shown
      edited.title = "edited offline"
      #expect(await account.planner.record(.changeTask(base: shown, mine: edited)))
      await account.planner.refresh()
      #expect(account.view.shown?.waiting == [task.id])
      let again = try await harness.startAgain()
      try await withTeardown({ await again.stop() }) { () throws in
        _ = try await account.account.signOut()
        #expect(try await harness.store.load(SessionKey(harness.settings)) == nil, "the keyring holds no session")
        #expect(try await harness.session().restore() == nil, "another app of the group is signed out too")
        #expect(try await account.serverTexts() == ["edited offline"])
        for path in [files.replica.path, files.plannerOutbox.path, folders.data.path, folders.cache.path] {
          #expect(!FileManager.default.fileExists(atPath: path), "\(path) is removed")
        }
        let dataHome = URL(filePath: account.environment["XDG_DATA_HOME"]!)
        #expect(AccountFolder.leftOver(dataHome: dataHome).isEmpty, "\(AccountFolder.leftOver(dataHome: dataHome))")
      }
    }
  }

  @Test(
    "sign-out while the service cannot be reached: the account says how many changes wait (the window asks before discarding them), and a sign-out then leaves nothing"
  )
  func signOutOfflineDiscardsWhenAsked() async throws {
    try await SessionHarness.with { harness throws in
      let account = try AccountHarness(harness)
      _ = try await account.signIn()
      await harness.running.stop()
      try await account.add("typed offline")
      #expect(await account.account.waitingAfterSending() == 1, "what the window's question counts")
      _ = try await account.account.signOut()
      let dataHome = URL(filePath: account.environment["XDG_DATA_HOME"]!)
      #expect(AccountFolder.leftOver(dataHome: dataHome).isEmpty, "\(AccountFolder.leftOver(dataHome: dataHome))")
      let again = try await harness.startAgain()
      try await withTeardown({ await again.stop() }) { () throws in
        _ = try await account.signIn()
        #expect(await account.account.waitingAfterSending() == 0)
        #expect(try await account.serverTexts() == [], "discarded, as the user chose")
      }
    }
  }

  /// What knows first that another app signed out.
  enum FirstToKnow: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case read = "a refresh's read", longPoll = "the window's long poll", edit = "an edit sent"
    case both = "the long poll and a refresh at once"
    case session = "the session, no request (the broker restored it for an app)"
    var testDescription: String { rawValue }
  }

  @Test(
    "signed out in another app: the lists empty, every file of the account goes, and the window is told it was elsewhere, whichever request knows first",
    arguments: FirstToKnow.allCases)
  func signedOutElsewhere(_ first: FirstToKnow) async throws {
    try await SessionHarness.with { harness throws in
      let account = try AccountHarness(harness, refreshMargin: 1_000_000)
      _ = try await account.signIn()
      try await account.add("mine")
      let files = try await account.files()
      let home = try #require(account.view.state.defaultList)
      #expect(FileManager.default.fileExists(atPath: files.replica.path))
      _ = try await harness.session().signOut()  // the CLI signs out
      switch first {
      case .read:
        await account.planner.refresh()
      case .longPoll:
        _ = await account.planner.waitForChanges()
      case .edit:
        let late = PlannerItem(id: UUID(), listID: home.id, title: "too late", createdAt: Date())
        _ = await account.planner.record(.createTask(late))
        await account.planner.refresh()
      case .both:
        async let polled = account.planner.waitForChanges()
        async let refreshed: Void = account.planner.refresh()
        _ = await (polled, refreshed)
      case .session:
        #expect(try await account.session.restore() == nil)
      }
      #expect(await eventually { account.events.last == .signedOut(elsewhere: true) }, "\(account.events)")
      #expect(account.view.titles.isEmpty)
      await account.planner.refresh()  // a refresh after it finds nobody signed in, and tells nothing again
      #expect(account.events.filter { $0 == .signedOut(elsewhere: true) }.count == 1, "told once")
      #expect(!FileManager.default.fileExists(atPath: files.replica.path))
      #expect(!FileManager.default.fileExists(atPath: files.plannerOutbox.path))
      let dataHome = URL(filePath: account.environment["XDG_DATA_HOME"]!)
      #expect(AccountFolder.leftOver(dataHome: dataHome).isEmpty, "\(AccountFolder.leftOver(dataHome: dataHome))")
    }
  }

  @Test(
    "signed out in another app while an edit is on the wire: once it is answered, nothing of the account is written back (the outbox's file stays gone)",
    .timeLimit(.minutes(3)))
  func signedOutElsewhereDuringSend() async throws {
    try await SessionHarness.with { harness throws in
      let account = try AccountHarness(harness)
      _ = try await account.signIn()
      let home = try #require(account.view.state.defaultList)
      let files = try await account.files()
      let gate = SendGate()
      account.planner.makeClient = gate.clients(base: harness.settings.taskAPI)
      // Two tasks typed: the first one's request is held on the wire, the second waits behind it.
      for title in ["first", "second"] {
        let item = PlannerItem(id: UUID(), listID: home.id, title: title, createdAt: Date())
        #expect(await account.planner.record(.createTask(item)))
      }
      #expect(await eventually { gate.isHolding })
      _ = try await harness.session().signOut()  // the CLI signs out
      #expect(try await account.session.restore() == nil)  // noticed (the broker restored it for an app)
      #expect(await eventually { account.events.last == .signedOut(elsewhere: true) })
      #expect(!FileManager.default.fileExists(atPath: files.plannerOutbox.path))
      gate.open()
      await account.settle()  // the send is answered, and the flush ends
      #expect(!FileManager.default.fileExists(atPath: files.plannerOutbox.path), "written back after the sign-out")
      let dataHome = URL(filePath: account.environment["XDG_DATA_HOME"]!)
      #expect(AccountFolder.leftOver(dataHome: dataHome).isEmpty, "\(AccountFolder.leftOver(dataHome: dataHome))")
    }
  }

  @Test("the broker's wait for a sign-in ends with the account, or with nothing when it is given up")
  func nextSignIn() async throws {
    try await SessionHarness.with { harness throws in
      let account = try AccountHarness(harness)
      let abandoned = Task { await account.account.nextSignIn() }
      #expect(await eventually { await account.account.waitingSignIns == 1 })
      account.account.signInAbandoned()
      #expect(await abandoned.value == nil)
      let waiting = Task { await account.account.nextSignIn() }
      #expect(await eventually { await account.account.waitingSignIns == 1 })
      let signedIn = try await account.signIn()
      #expect(await waiting.value == signedIn)
      #expect(account.events.contains(.signedIn(signedIn)))
    }
  }
}

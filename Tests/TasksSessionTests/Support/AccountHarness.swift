// AccountHarness: the application's account (`AccountSession`) without a desktop: a planner view that keeps what it
// is shown in the core's `PlannerViewState` (as the window's does) and records what a window would say, and a host
// whose network change the test announces. Main actor.

import Foundation
import TasksAccount
import TasksCore
import TasksTestSupport
import Testing

/// The planner window without GTK: what it was shown, in the core's `PlannerViewState`, the messages, the offline
/// banner and the Undo notices it would show.
@MainActor
final class RecordingPlanner: PlannerView {
  private(set) var state: PlannerViewState
  private(set) var shown: PlannerShown?
  private(set) var conflicts: [PlannerConflict] = []
  /// Each conflict's Use Mine (as its toast's button presses it).
  private(set) var useMines: [@MainActor () async -> Void] = []
  private(set) var messages: [String] = []
  private(set) var notices: [RecordedNotice] = []
  /// The offline state shown last (nil: none).
  private(set) var offline: NetworkError?

  init() {
    let now = DueLabel.now()
    state = PlannerViewState(today: now.today, now: now.time)
  }

  func show(_ shown: PlannerShown) {
    self.shown = shown
    _ = state.show(lists: shown.lists, tasks: shown.tasks, waiting: shown.waiting)
  }
  func showConflict(_ conflict: PlannerConflict, useMine: @escaping @MainActor () async -> Void) {
    conflicts.append(conflict)
    useMines.append(useMine)
  }
  func showMessage(_ message: String) { messages.append(message) }
  func showOffline(_ problem: NetworkError?, savedAt: Date?) { offline = problem }
  func showUndo(_ title: String, undo: @escaping @MainActor () -> Void, dismissed: @escaping @MainActor () -> Void)
    -> any UndoNotice
  {
    let notice = RecordedNotice(title, undo: undo, dismissed: dismissed)
    notices.append(notice)
    return notice
  }

  /// The titles shown, in no order.
  var titles: Set<String> { Set(shown?.tasks.map(\.title) ?? []) }

  /// The task titled `title`; the test fails without one.
  func task(_ title: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> PlannerItem {
    try #require(
      shown?.tasks.first { $0.title == title }, "no task \(title) is shown: \(shown?.tasks.map(\.title) ?? [])",
      sourceLocation: sourceLocation)
  }
}

/// An Undo notice on the recording planner: pressing Undo, or letting it go, as a toast does.
@MainActor
final class RecordedNotice: UndoNotice {
  let title: String
  private let undo: @MainActor () -> Void
  private let dismissed: @MainActor () -> Void
  private(set) var isShown = true

  init(_ title: String, undo: @escaping @MainActor () -> Void, dismissed: @escaping @MainActor () -> Void) {
    self.title = title
    self.undo = undo
    self.dismissed = dismissed
  }

  /// The user pressed Undo.
  func pressUndo() { undo() }

  /// The notice goes (its time ran out, or the user closed it); a toast tells its dismissal once.
  func dismiss() {
    guard isShown else { return }
    isShown = false
    dismissed()
  }
}

/// The application around the account: holds counted, idle work run at once, a network change on demand.
@MainActor
final class TestAccountHost: AccountHost {
  private(set) var holds = 0
  private var networkObservers: [@MainActor () -> Void] = []

  func holdApplication() -> @MainActor () -> Void {
    holds += 1
    return { self.holds -= 1 }
  }
  /// Idle work kept for `runIdleWork` instead of run at once (a busy main loop).
  var holdsIdleWork = false
  private var idleWork: [@MainActor () async -> Void] = []

  func whenIdle(_ body: @escaping @MainActor () async -> Void) {
    if holdsIdleWork { idleWork.append(body) } else { Task { await body() } }
  }

  /// Runs the idle work kept so far, to its end.
  func runIdleWork() async {
    let work = idleWork
    idleWork = []
    for body in work { await body() }
  }
  var networkAvailable: Bool { true }
  func onNetworkChange(_ body: @escaping @MainActor () -> Void) { networkObservers.append(body) }
  func debug(_ message: String) {}

  /// The network changed (a cable plugged in): whoever watches is told.
  func announceNetworkChange() {
    for observer in networkObservers { observer() }
  }
}

/// An account of a session harness, with its files in a folder of its own and its lists shown in a recording window.
@MainActor
final class AccountHarness {
  let harness: SessionHarness
  let session: Session
  let account: AccountSession
  let view = RecordingPlanner()
  let host = TestAccountHost()
  /// The XDG folders of the account's files.
  let environment: [String: String]
  private(set) var events: [AccountEvent] = []

  /// `refreshMargin`: how long before its expiry a token is refreshed (a huge one refreshes at every request, which
  /// is when a sign-out in another app is noticed).
  init(_ harness: SessionHarness, refreshMargin: TimeInterval = 300) throws {
    self.harness = harness
    let home = try TestDesktop.temporaryFolder("account")
    environment = [
      "HOME": home.path, "XDG_DATA_HOME": home.appending(path: "data").path,
      "XDG_CACHE_HOME": home.appending(path: "cache").path,
    ]
    session = harness.session(refreshMargin: refreshMargin)
    account = AccountSession(session: session, host: host, environment: environment)
    account.planner.view = view
    // Weak: work the account started (an edit's refresh) may end after the test, and tell an event then.
    account.observe { [weak self] event in self?.events.append(event) }
  }

  var planner: PlannerOperations { account.planner }

  /// Signs in as `email` through the pages and tells the account, as the window does; then loads the lists.
  func signIn(_ email: String = "ann@example.com") async throws -> Account {
    let signedIn = try await harness.signIn(session, email)
    await account.signedIn(signedIn)
    await planner.refresh()
    return signedIn
  }

  /// Adds `title` to the default list as the quick entry does; answers once the read that followed has run.
  @discardableResult
  func add(_ title: String) async throws -> PlannerItem {
    let home = try #require(view.state.defaultList, "no default list is shown")
    let item = PlannerItem(id: UUID(), listID: home.id, title: title, createdAt: Date())
    #expect(await planner.record(.createTask(item)))
    await planner.refresh()
    return item
  }

  /// Ends the test's planner: no window shows it any more, and the refreshes its edits started have run. The
  /// account must not outlive the test with work under way.
  func settle() async {
    planner.view = nil
    await planner.refresh()
  }

  /// The files of the signed-in account.
  func files() async throws -> AccountFiles {
    let signedIn = try #require(await session.account)
    return account.files(for: signedIn)
  }

  /// The server's tasks, asked by another app of the group (its own session over the same store; signed in anew when
  /// the group is signed out).
  func serverTexts() async throws -> [String] {
    let other = harness.session()
    if try await other.restore() == nil { _ = try await harness.signIn(other) }
    return try await TaskAPIClient(session: other).list().map(\.text).sorted()
  }
}

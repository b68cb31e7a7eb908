// AccountHarness: the application's account (`AccountSession`) without a desktop: a list view that keeps its rows in
// the core's `TaskListState` (as the window's does), a presenter that records what a window would show, and a host
// whose network change the test announces. Main actor.

import Foundation
import TasksAccount
import TasksCore
import TasksTestSupport
import Testing

/// The rows as the window's list keeps them (`TaskListState`), without GTK.
@MainActor
final class StateListView: TaskListView {
  private(set) var state = TaskListState()
  var editing = false

  func show(_ items: [TaskItem], waiting: [PendingTask], changed: Set<Int64>, sent: [String: Int64]) {
    _ = state.show(items, waiting: waiting, changed: changed, sent: sent)
  }
  func append(_ task: PendingTask) { _ = state.append(task) }
  func update(_ task: TaskItem, waiting: Bool) { _ = state.update(task, waiting: waiting) }
  func markWaiting(_ ids: Set<Int64>) { _ = state.markWaiting(ids) }
  func task(_ key: RowKey) -> TaskItem? { state.task(key) }
  func remove(_ keys: [RowKey]) { _ = state.remove(keys) }
  func restore(_ keys: [RowKey], focusing: Bool) { _ = state.restore(keys) }
  func forget(_ key: RowKey) { _ = state.forget(key) }
  var count: Int { state.count }
  var confirmedTasks: [TaskItem] { state.confirmedTasks }
  var completedKeys: [RowKey] { state.completedKeys }
  var isEditing: Bool { editing }

  /// The texts of the rows in the order shown, waiting ones included.
  var texts: [String] { state.keys.compactMap { state.text($0) } }

  /// The row showing `text`.
  func key(of text: String) -> RowKey? { state.keys.first { state.text($0) == text } }

  /// The row showing `text`; the test fails without one.
  func keyShowing(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> RowKey {
    try #require(key(of: text), "no row shows \(text): \(texts)", sourceLocation: sourceLocation)
  }

  /// The server's task whose row shows `text`; the test fails without one.
  func taskShowing(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> TaskItem {
    try #require(
      task(try keyShowing(text, sourceLocation: sourceLocation)), "\(text) is not the server's yet",
      sourceLocation: sourceLocation)
  }

  /// Whether the row of `text` says its change waits.
  func isWaiting(_ text: String) -> Bool {
    guard let key = key(of: text) else { return false }
    if case .pending = key { return true }
    guard let content = state.content(key) else { return false }
    return !content.confirmed || content.changeWaiting
  }
}

/// An Undo notice on the recording presenter: pressing Undo, or letting it go, as a toast does.
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

/// What a window would show, recorded.
@MainActor
final class RecordingPresenter: TaskListPresenter {
  private(set) var messages: [String] = []
  private(set) var notices: [RecordedNotice] = []
  /// The offline state shown last (nil: none).
  private(set) var offline: NetworkError?
  private(set) var spinnerRuns = 0
  var isShowingList = true

  func showMessage(_ title: String, aboutList: Bool, retry: (@MainActor () -> Void)?) {
    messages.append(title)
  }

  func showUndo(
    _ title: String, undo: @escaping @MainActor () -> Void, dismissed: @escaping @MainActor () -> Void
  ) -> any UndoNotice {
    let notice = RecordedNotice(title, undo: undo, dismissed: dismissed)
    notices.append(notice)
    return notice
  }

  func withSpinner<T>(_ body: () async -> T) async -> T {
    spinnerRuns += 1
    return await body()
  }

  func showOffline(_ problem: NetworkError?, savedAt: Date?) { offline = problem }
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

/// An account of a session harness, with its files in a folder of its own and a list shown in a recording window.
@MainActor
final class AccountHarness {
  let harness: SessionHarness
  let session: Session
  let account: AccountSession
  let view = StateListView()
  let presenter = RecordingPresenter()
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
    account.list.attach(view: view, presenter: presenter)
    // Weak: work the account started (an edit's refresh) may end after the test, and tell an event then.
    account.observe { [weak self] event in self?.events.append(event) }
  }

  var list: TaskListOperations { account.list }

  /// Signs in as `email` through the pages and tells the account, as the window does; then loads the list.
  func signIn(_ email: String = "ann@example.com") async throws -> Account {
    let signedIn = try await harness.signIn(session, email)
    await account.signedIn(signedIn)
    await list.reload()
    return signedIn
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

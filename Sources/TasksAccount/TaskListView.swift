// TaskListView, TaskListPresenter, UndoNotice, AccountHost: what the account's list operations ask of the list on
// screen, of the window around it and of the application. Main actor. The app implements them with GTK; the tests,
// headless, with TaskListState and records.

import FoundationEssentials
import TasksCore

/// The list on screen: its rows, as `TaskListState` keeps them. Every call changes what the user sees at once.
@MainActor
public protocol TaskListView: AnyObject {
  /// Replaces the rows: the server's tasks (with the outbox's changes made; `changed` are those with a change
  /// waiting), the tasks waiting in the outbox, and the server's ids of tasks just sent (`sent`, by outbox id).
  func show(_ items: [TaskItem], waiting: [PendingTask], changed: Set<Int64>, sent: [String: Int64])
  /// Adds a task that waits in the outbox and shows it (scrolled into view, highlighted).
  func append(_ task: PendingTask)
  /// Changes one task's row (`waiting`: the change is not sent yet).
  func update(_ task: TaskItem, waiting: Bool)
  /// Marks the tasks with a change still waiting (the others were sent).
  func markWaiting(_ ids: Set<Int64>)
  /// The task of a row, if it is the server's.
  func task(_ key: RowKey) -> TaskItem?
  /// Takes rows out while their Undo shows.
  func remove(_ keys: [RowKey])
  /// Puts rows taken out back; `focusing`, the first takes the keyboard focus.
  func restore(_ keys: [RowKey], focusing: Bool)
  /// Drops a row for good.
  func forget(_ key: RowKey)
  /// The number of rows, those being deleted aside.
  var count: Int { get }
  /// The server's tasks in the order shown, those being deleted aside (the offline copy).
  var confirmedTasks: [TaskItem] { get }
  /// The completed tasks' rows, in the order shown.
  var completedKeys: [RowKey] { get }
  /// Whether a row is being edited (a live refresh waits until it is not).
  var isEditing: Bool { get }
}

/// A notice with Undo on screen (a toast); it can be taken away before it goes by itself.
@MainActor
public protocol UndoNotice {
  func dismiss()
}

/// What the list operations show around the list: messages, the Undo notice, the spinner, the offline banner.
@MainActor
public protocol TaskListPresenter: AnyObject {
  /// Shows a message; `aboutList` ones go when the list does; `retry` adds a Retry button.
  func showMessage(_ title: String, aboutList: Bool, retry: (@MainActor () -> Void)?)
  /// Shows `title` with an Undo button: `undo` runs when it is pressed, `dismissed` when the notice goes otherwise.
  func showUndo(
    _ title: String, undo: @escaping @MainActor () -> Void, dismissed: @escaping @MainActor () -> Void
  ) -> any UndoNotice
  /// Runs `body` with a sign of work under way (the header's spinner).
  func withSpinner<T>(_ body: () async -> T) async -> T
  /// Says that the task service cannot be reached (`problem`), with the offline copy's date; nil takes it away.
  func showOffline(_ problem: NetworkError?, savedAt: Date?)
  /// Whether the list (or its empty page) is on screen.
  var isShowingList: Bool { get }
}

extension TaskListPresenter {
  /// Shows a message without a Retry button.
  public func showMessage(_ title: String, aboutList: Bool = false) {
    showMessage(title, aboutList: aboutList, retry: nil)
  }
}

/// What the account asks of the application: to keep running while a request must not be cut short, work that can
/// wait until the window is drawn, the network's state, and a debug log.
@MainActor
public protocol AccountHost: AnyObject {
  /// Keeps the application running until the answer is called.
  func holdApplication() -> @MainActor () -> Void
  /// Runs `body` once nothing more urgent is to be done (after the window is drawn).
  func whenIdle(_ body: @escaping @MainActor () async -> Void)
  /// Whether the computer has a network at all.
  var networkAvailable: Bool { get }
  /// Calls `body` whenever the network changes.
  func onNetworkChange(_ body: @escaping @MainActor () -> Void)
  /// Writes a debug line (never a secret).
  func debug(_ message: String)
}

// AccountWindow, TaskListWindow: what the account side and the task list ask of the window around them, and the
// window's pages. Main actor.

import CGtk
import GtkSupport
import TasksCore

/// The pages of the window's content stack, by their names in the `.ui` file (an empty list is the list's page with a
/// status page in place of the rows).
enum WindowPage: String, CaseIterable {
  case loading
  case welcome
  case signIn = "sign-in"
  case browser
  case signInFailed = "sign-in-failed"
  case tasks
  case noTasks = "no-tasks"
  case settingsError = "settings-error"

  /// The content stack's child that shows this page.
  var stackName: String { self == .noTasks ? WindowPage.tasks.rawValue : rawValue }

  /// Whether the page is the list (or its empty page): someone is signed in.
  var isList: Bool { self == .tasks || self == .noTasks }
}

/// What `AccountController` asks of the window: the pages, toasts, the spinner (through `TaskListWindow`) and the
/// user's sign-in preferences.
@MainActor
protocol AccountWindow: TaskListWindow {
  /// Shows `page` and hides the others.
  func show(_ page: WindowPage)
  /// Shows the sign-in failed page with what went wrong.
  func showSignInFailure(_ error: SessionError)
  /// Shows who is signed in (or that nobody is).
  func stateChanged(_ state: Session.State)
  /// Shows the window and brings it to the front.
  func present()
  /// The window, as the parent of dialogs and the browser chooser.
  var parentWindow: UnsafeMutablePointer<GtkWindow> { get }
  /// Whether the user ticked "Keep me signed in".
  var keepsSignedIn: Bool { get }
  /// How long a sign-in in the browser may take, in seconds (nil: the listener's default).
  var browserSignInTimeout: Int? { get }
}

/// What the task list's session asks of the window around it.
@MainActor
protocol TaskListWindow: AnyObject {
  /// Whether the list (or its empty page) is on screen.
  var isShowingList: Bool { get }
  /// Shows the list page, or its empty page when the list has no row.
  func showTasksPage()
  /// Shows the welcome page (nobody is signed in).
  func showWelcome()
  /// Shows a toast; `aboutList` ones go when the list does; `retry` adds a Retry button.
  @discardableResult
  func showToast(_ title: String, aboutList: Bool, retry: (@MainActor () -> Void)?) -> Toast
  /// Adds a toast built by the caller.
  func present(_ toast: Toast)
  /// Runs `body` with the header's spinner turning.
  func withSpinner<T>(_ body: () async -> T) async -> T
  /// Shows the banner saying the task service cannot be reached, with `message`; nil hides it.
  func showOfflineBanner(_ message: String?)
  /// Another app of the keychain group signed out: the window signs out as its own Sign Out does.
  func signedOutElsewhere()
  /// Keeps the application running until the answer is called (a request that must not be cut short by quitting).
  func holdApplication() -> @MainActor () -> Void
}

extension TaskListWindow {
  /// Shows a toast without a Retry button.
  @discardableResult
  func showToast(_ title: String, aboutList: Bool = false) -> Toast {
    showToast(title, aboutList: aboutList, retry: nil)
  }
}

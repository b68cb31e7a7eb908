// AccountWindow: what the account side asks of the window around it, and the window's pages. Main actor.

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
  case settingsError = "settings-error"

  /// The content stack's child that shows this page.
  var stackName: String { rawValue }

  /// Whether the page is the lists: someone is signed in.
  var isList: Bool { self == .tasks }
}

/// What `AccountController` asks of the window: the pages, toasts and the user's sign-in preferences. (The list and
/// the account's events reach the window through `PlannerView` and `AccountSession.observe`.)
@MainActor
protocol AccountWindow: AnyObject {
  /// The page shown.
  var page: WindowPage { get }
  /// Shows `page` and hides the others.
  func show(_ page: WindowPage)
  /// Shows the sign-in failed page with what went wrong.
  func showSignInFailure(_ error: SessionError)
  /// Shows who is signed in (or that nobody is).
  func stateChanged(_ state: Session.State)
  /// Shows a toast; `retry` adds a Retry button.
  func showToast(_ title: String, retry: (@MainActor () -> Void)?)
  /// Shows the window and brings it to the front.
  func present()
  /// The window, as the parent of dialogs and the browser chooser.
  var parentWindow: UnsafeMutablePointer<GtkWindow> { get }
  /// Whether the user ticked "Keep me signed in".
  var keepsSignedIn: Bool { get }
  /// How long a sign-in in the browser may take, in seconds (nil: the listener's default).
  var browserSignInTimeout: Int? { get }
  /// Runs `body` with a sign of work under way (the header's spinner).
  func whileLoading(_ body: () async -> Void) async
}

extension AccountWindow {
  /// Shows a toast without a Retry button.
  func showToast(_ title: String) { showToast(title, retry: nil) }
}

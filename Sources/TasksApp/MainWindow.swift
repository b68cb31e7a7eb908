// MainWindow: the B2C Tasks window: welcome, sign-in, task list and error pages, toasts. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore
import TasksLoopback

/// The main window, built from `ui/main-window.ui`: the chrome (pages, header, banner, toasts, spinner).
///
/// At start it asks the keyring for a session (single sign-on, no web view); with one it shows the task list (first
/// the offline copy, then the server's), else the welcome page. Sign In shows B2C's pages in an embedded web view,
/// loaded only then. When the settings cannot be used it says which file and key are wrong. Its size and maximised
/// state persist in GSettings. The parts: `AccountController` (session, sign-in, sign-out, switching, each
/// account's files), `TaskListController` (the list page: models, filter and sort, rows, editing), `UndoQueue`,
/// `ListSync` (fetches and automatic retry), the action table (`MainWindow+Actions.swift`), and the task
/// operations (`MainWindow+Tasks.swift`, `MainWindow+TaskList.swift`).
@MainActor
final class MainWindow {
  let builder = Builder(resource: Installation.resourceBase + "/ui/main-window.ui")
  let window: UnsafeMutablePointer<AdwApplicationWindow>
  private let toasts: ToastShelf
  private let accountHeader: AccountMenuHeader
  private let contentStack: OpaquePointer
  private let windowTitle: WindowTitle
  private let spinner: OpaquePointer
  let offlineBanner: OpaquePointer
  let windowState: WindowState?
  /// The account side: session, sign-in, sign-out, switching, each account's files (nil: the settings are
  /// unusable).
  private(set) var account: AccountController?
  /// The signed-in account's tasks on the list page (nil: the settings are unusable).
  private(set) var tasks: TaskListSession?
  var failureDetails = ""
  /// The window's actions (see `actionTable`) and where each can be used.
  var actions: [String: (action: OpaquePointer, scope: WindowAction.Scope)] = [:]
  /// The signed-in user's name, as the header shows it under the title on the list.
  private var accountName = ""
  var addTaskWindow: AddTaskWindow?
  private var requestsRunning = 0
  private var waitingToPresent = false
  private(set) var page: Page = .loading

  /// The window as a `GtkWindow`, for transient children.
  var gtkWindow: UnsafeMutablePointer<GtkWindow> { window.window }

  /// The session (nil: the settings are unusable).
  var session: Session? { account?.session }

  /// The outbox and offline copy of `account` (each account has its own).
  func files(for account: Account) -> AccountFiles {
    guard let controller = self.account else { preconditionFailure("an account without an account controller") }
    return controller.files(for: account)
  }

  init(
    application: UnsafeMutablePointer<AdwApplication>, installation: Installation,
    startup: Result<StartupLoad, SettingsError>
  ) {
    window = builder.object("window", adw_application_window_get_type())
    toasts = ToastShelf(overlay: builder.opaqueObject("toast_overlay", adw_toast_overlay_get_type()))
    accountHeader = AccountMenuHeader(
      menuButton: builder.opaqueObject("primary_menu_button", gtk_menu_button_get_type()))
    contentStack = builder.opaqueObject("content_stack", gtk_stack_get_type())
    windowTitle = WindowTitle(
      title: builder.opaqueObject("window_title", adw_window_title_get_type()),
      securityIcon: builder.object("page_security_icon", gtk_widget_get_type(), as: GtkWidget.self))
    spinner = builder.opaqueObject("refresh_spinner", gtk_spinner_get_type())
    offlineBanner = builder.opaqueObject("offline_banner", gtk_revealer_get_type())
    windowState = WindowState(schemaDirectory: installation.schemaDirectory)
    WindowTooltips.set(in: builder)
    gtk_window_set_application(window.window, application.cast(to: gtk_application_get_type()))
    windowState?.restore(window.window)
    windowState?.bind("keep-signed-in", to: builder.object("keep_signed_in_check"), property: "active")
    switch startup {
    case .failure(let error):
      let page = builder.opaqueObject("settings_error_page", adw_status_page_get_type())
      PlainText.setDescription(page, error.description)
      show(.settingsError)
    case .success(let startup):
      let session = startup.session
      let slot = builder.object("web_view_slot", gtk_widget_get_type(), as: GtkWidget.self)
      let controller = SignInController(
        session: session, installation: installation, slot: slot,
        progressBar: builder.opaqueObject("sign_in_progress", gtk_progress_bar_get_type()))
      // As a browser shows a page: its host, secure or not, and its own title under it.
      // (WebKit can report a page after the flow has left it: only the sign-in page shows such news.)
      controller.onPageLoaded = { [unowned self] title in
        if self.page == .signIn { self.windowTitle.setSubtitle(title) }
      }
      controller.onPageCommitted = { [unowned self] host, secure in
        if self.page == .signIn { self.windowTitle.showPageOrigin(host: host, secure: secure) }
      }
      account = AccountController(ui: self, session: session, signIn: controller)
      tasks = makeTasks(session: session)
    }
    Signal.connectReturningBool(window, "close-request") { [unowned self] in
      self.saveState()
      self.tasks?.finishPendingWork()
      return false  // let the window close
    }
    revealOfflineBanner(false)
    if case .success(let startup) = startup {
      addActions()
      show(.loading)
      Task { await self.account?.start(startup) }
    }
  }

  /// The pages of the window's content stack, by their names in the `.ui` file (an empty list is the list's page
  /// with a status page in place of the rows).
  enum Page: String, CaseIterable {
    case loading
    case welcome
    case signIn = "sign-in"
    case browser
    case signInFailed = "sign-in-failed"
    case tasks
    case noTasks = "no-tasks"
    case settingsError = "settings-error"

    /// The content stack's child that shows this page.
    var stackName: String { self == .noTasks ? Page.tasks.rawValue : rawValue }
  }

  /// Shows `page` and hides the others, so that keyboard focus and assistive technologies see only what is on
  /// screen (a GtkStack keeps its other pages visible, merely unmapped).
  func show(_ page: Page) {
    self.page = page
    if page != .tasks && page != .noTasks { toasts.dismissListToasts() }
    if page != .signIn {
      // The header is the app's again, whatever the sign-in page left in it (a page's title, its host).
      windowTitle.showPageOrigin(host: nil, secure: false)
      windowTitle.setSubtitle(page == .tasks || page == .noTasks ? accountName : "")
    }
    if page != .loading { presentIfWaiting() }
    for other in Page.allCases where other.stackName != page.stackName {
      gtk_widget_set_visible(gtk_stack_get_child_by_name(contentStack, other.stackName), 0)
    }
    let child = gtk_stack_get_child_by_name(contentStack, page.stackName)
    gtk_widget_set_visible(child, 1)
    gtk_stack_set_visible_child(contentStack, child)
    keepFocusInWindow(page: child)
    let signedIn = page == .tasks || page == .noTasks
    enableActions(on: page)
    // Header buttons that can do nothing on this page are hidden, not greyed (GNOME HIG).
    for name in ["add_task_button", "refresh_button", "search_button"] {
      gtk_widget_set_visible(builder.object(name, gtk_widget_get_type(), as: GtkWidget.self), signedIn ? 1 : 0)
    }
    if !signedIn { revealOfflineBanner(false) }
  }

  /// Puts the keyboard focus into `page` when it is nowhere, or on a widget that is no longer on screen (the web
  /// view a sign-in just dropped): GTK would otherwise leave Tab with nowhere to start, a keyboard trap.
  private func keepFocusInWindow(page: UnsafeMutablePointer<GtkWidget>?) {
    if let focus = gtk_window_get_focus(window.window), gtk_widget_get_mapped(focus) != 0,
      gtk_widget_get_root(focus) != nil
    {
      return
    }
    focusInto(page)
  }

  /// Gives the keyboard focus to the first thing in `page` that takes it, else to the window.
  private func focusInto(_ page: UnsafeMutablePointer<GtkWidget>?) {
    if let page, gtk_widget_child_focus(page, GTK_DIR_TAB_FORWARD) != 0 { return }
    gtk_widget_grab_focus(window.widget)
  }

  /// Shows the banner saying the task service cannot be reached, with `message`, or hides it (nil).
  func showOfflineBanner(_ message: String?) {
    if let message { gtk_label_set_text(builder.opaqueObject("offline_label", gtk_label_get_type()), message) }
    revealOfflineBanner(message != nil)
  }

  /// Shows or hides the banner saying the task service cannot be reached. (Hidden, it is also invisible: a
  /// revealer's folded child still counts as visible to assistive technologies.)
  private func revealOfflineBanner(_ shown: Bool) {
    if !shown, let focus = gtk_window_get_focus(window.window),
      focus == offlineBanner.widget || gtk_widget_is_ancestor(focus, offlineBanner.widget) != 0
    {
      // Its Retry button has the focus (it was just pressed): hand it to the page rather than drop it, which left
      // it on whatever GTK found next (a toast's close button, whose focus kept the toast from timing out).
      focusInto(gtk_stack_get_visible_child(contentStack))
    }
    gtk_widget_set_visible(offlineBanner.widget, shown ? 1 : 0)
    gtk_revealer_set_reveal_child(offlineBanner, shown ? 1 : 0)
  }

  /// Shows the list, or the empty-list page when there is nothing in it.
  func showTasksPage() {
    show((tasks?.list.count ?? 0) == 0 ? .noTasks : .tasks)
  }

  /// Shows the window and brings it to the front.
  func present() {
    waitingToPresent = false
    gtk_window_present(window.window)
  }

  /// Shows the window once it has something to show (the list, the welcome page, …) rather than a loading page
  /// replaced a moment later, which would also cost a frame; after `deadline`, whatever it has.
  func presentWhenReady(within deadline: Duration) {
    guard page == .loading else { return present() }
    waitingToPresent = true
    Task {
      try? await Task.sleep(for: deadline)
      self.presentIfWaiting()
    }
  }

  private func presentIfWaiting() {
    if waitingToPresent { present() }
  }

  /// Closes the window (and the add-task window) as its close button does.
  func close() {
    addTaskWindow?.close()
    gtk_window_close(window.window)
  }

  /// Writes the window's size and maximised state to GSettings.
  func saveState() {
    windowState?.save(window.window)
  }

  /// Shows a short message at the bottom of the window; with `retry`, a Retry button that runs it. A toast
  /// `aboutList` goes when the list does.
  @discardableResult
  func showToast(_ title: String, aboutList: Bool = false, retry: (@MainActor () -> Void)? = nil) -> OpaquePointer {
    toasts.show(title, aboutList: aboutList, retry: retry)
  }

  /// Adds `toast` (built by the caller) to the window.
  func present(_ toast: OpaquePointer) {
    toasts.present(toast)
  }

  /// Runs `body` with the header's spinner turning; it stops when the last such request has ended.
  func withSpinner<T>(_ body: () async -> T) async -> T {
    requestsRunning += 1
    gtk_widget_set_visible(spinner.widget, 1)
    gtk_spinner_start(spinner)
    defer {
      requestsRunning -= 1
      if requestsRunning == 0 {
        gtk_spinner_stop(spinner)
        gtk_widget_set_visible(spinner.widget, 0)
      }
    }
    return await body()
  }

  // MARK: Flow

  /// Shows who is signed in (or that nobody is) in the header and the main menu; a session that can no longer be
  /// refreshed while the list is shown asks to sign in again.
  func stateChanged(_ state: Session.State) {
    switch state {
    case .signedIn(let account), .refreshing(let account):
      accountName = account.displayName
      accountHeader.show(account)
      // On the sign-in page (Switch Account, Edit Profile) the subtitle is the page's own title.
      if page != .signIn { windowTitle.setSubtitle(account.displayName) }
    case .needsSignIn(let signedOut):
      accountName = ""
      accountHeader.show(nil)
      windowTitle.setSubtitle("")
      // While the list is shown: its session could not be refreshed. (At start, `start` handles it.)
      if page == .tasks || page == .noTasks { account?.sessionEnded(signedOut) }
    case .signedOut:
      accountName = ""
      accountHeader.show(nil)
      windowTitle.setSubtitle("")
    case .signingIn:
      break  // the current user (if any) stays until a new sign-in succeeds
    }
  }

  /// Shows the sign-in failed page with what went wrong; its Copy Details copies the failure's details.
  func showSignInFailure(_ error: SessionError) {
    let page = builder.opaqueObject("sign_in_failed_page", adw_status_page_get_type())
    PlainText.setDescription(page, error.message)
    var details = ["B2C Tasks sign-in failed", "Time: \(Date().formatted(.iso8601))", "Message: \(error.message)"]
    if case .authorization(.service(let service)) = error { details.append(service.details) }
    if case .service(let service) = error { details.append(service.details) }
    failureDetails = details.joined(separator: "\n")
    show(.signInFailed)
  }

}

extension MainWindow: TaskListWindow {
  var isShowingList: Bool { page == .tasks || page == .noTasks }

  func showWelcome() { show(.welcome) }

  func signedOutElsewhere() { account?.signedOutElsewhere() }

  func holdApplication() -> @MainActor () -> Void {
    guard let application = gtk_window_get_application(window.window) else { return {} }
    let app = application.cast(to: g_application_get_type(), as: GApplication.self)
    g_application_hold(app)
    return { g_application_release(app) }
  }
}

// MainWindow: the B2C Tasks window: welcome, sign-in, task list and error pages, toasts. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// The main window, built from `ui/main-window.ui`: the chrome (pages, header, banner, toasts, spinner).
///
/// At start it asks the keyring for a session (single sign-on, no web view); with one it shows the task list (first
/// the offline copy, then the server's), else the welcome page. Sign In shows B2C's pages in an embedded web view,
/// loaded only then. When the settings cannot be used it says which file and key are wrong. Its size and maximised
/// state persist in GSettings. The rooms: `AccountController` (session, sign-in, sign-out, switching, each
/// account's files), `TaskListSession` (the account's tasks: sync, outbox, undo), `TaskListController` (the list
/// view), `TaskListPage` (the controls around it) and `WindowActions` (every `win.` action).
@MainActor
final class MainWindow {
  // Template widgets (the builder keeps them).
  private let builder = Builder(resource: Installation.resourceBase + "/ui/main-window.ui")
  private let window: Window
  private let contentStack: Stack
  /// The header's buttons that only the list can use.
  private let listButtons: [Widget]
  // Owned.
  private let toasts: ToastShelf
  private let accountHeader: AccountMenuHeader
  private let windowTitle: WindowTitle
  private let spinner: HeaderSpinner
  private let offlineBanner: OfflineBanner
  private let failurePage: SignInFailurePage
  private let windowState: WindowState?
  /// The account side, the account's tasks, the list page's controls and the actions (nil: the settings are
  /// unusable).
  private var parts: (account: AccountController, tasks: TaskListSession, listPage: TaskListPage)?
  private var actions: WindowActions?
  /// The signed-in user's name, as the header shows it under the title on the list.
  private var accountName = ""
  private var waitingToPresent = false
  private(set) var page: WindowPage = .loading
  /// Told each page shown, and nil when the window closes (the broker's sign-in waits on it).
  var onPageShown: ((WindowPage?) -> Void)?

  init(
    application: UnsafeMutablePointer<AdwApplication>, installation: Installation,
    startup: Result<StartupLoad, SettingsError>
  ) {
    window = builder.widget("window", as: Window.init)
    contentStack = builder.widget("content_stack", as: Stack.init)
    listButtons = ["add_task_button", "refresh_button", "search_button"].map(builder.widget)
    toasts = ToastShelf(overlay: builder.widget("toast_overlay", as: ToastOverlay.init))
    accountHeader = AccountMenuHeader(
      menuButton: builder.opaqueObject("primary_menu_button", gtk_menu_button_get_type()))
    windowTitle = WindowTitle(
      title: builder.opaqueObject("window_title", adw_window_title_get_type()),
      securityIcon: builder.widget("page_security_icon"))
    spinner = HeaderSpinner(builder.widget("refresh_spinner", as: Spinner.init))
    offlineBanner = OfflineBanner(builder: builder, window: window, pages: contentStack)
    failurePage = SignInFailurePage(builder.widget("sign_in_failed_page", as: StatusPage.init))
    windowState = WindowState(schemaDirectory: installation.schemaDirectory)
    WindowTooltips.set(in: builder)
    gtk_window_set_application(window.window, application.cast(to: gtk_application_get_type()))
    windowState?.restore(window.window)
    windowState?.bind("keep-signed-in", to: builder.object("keep_signed_in_check"), property: "active")
    switch startup {
    case .failure(let error):
      builder.widget("settings_error_page", as: StatusPage.init).setDescription(error.description)
      show(.settingsError)
    case .success(let startup):
      parts = makeParts(session: startup.session, installation: installation)
    }
    Signal.connectReturningBool(window, "close-request") { [unowned self] in
      self.saveState()
      self.parts?.tasks.finishPendingWork()
      self.onPageShown?(nil)
      return false  // let the window close
    }
    offlineBanner.reveal(false)
    if case .success(let startup) = startup, let parts {
      let targets = ActionTargets(
        account: parts.account, tasks: parts.tasks, listPage: parts.listPage, failurePage: failurePage,
        toasts: toasts, window: window)
      actions = WindowActions(WindowActions.table(targets), to: window, windowState: windowState)
      show(.loading)
      Task { await parts.account.start(startup) }
    }
  }

  /// The sign-in (in the window's web view or the browser), the account's tasks and the list page, wired together.
  private func makeParts(session: Session, installation: Installation) -> (
    AccountController, TaskListSession, TaskListPage
  ) {
    let signIn = SignInController(
      session: session, installation: installation, slot: builder.widget("web_view_slot").widget,
      progressBar: builder.opaqueObject("sign_in_progress", gtk_progress_bar_get_type()))
    // As a browser shows a page: its host, secure or not, and its own title under it.
    // (WebKit can report a page after the flow has left it: only the sign-in page shows such news.)
    signIn.onPageLoaded = { [unowned self] title in
      if self.page == .signIn { self.windowTitle.setSubtitle(title) }
    }
    signIn.onPageCommitted = { [unowned self] host, secure in
      if self.page == .signIn { self.windowTitle.showPageOrigin(host: host, secure: secure) }
    }
    let tasks = TaskListSession(session: session, list: TaskListController(builder: builder), window: self) {
      [unowned self] account in self.parts!.account.files(for: account)
    }
    let account = AccountController(ui: self, session: session, signIn: signIn, tasks: tasks)
    let listPage = TaskListPage(builder: builder, window: window, windowState: windowState, tasks: tasks)
    return (account, tasks, listPage)
  }

  /// Shows `page` and hides the others, so that keyboard focus and assistive technologies see only what is on
  /// screen (a GtkStack keeps its other pages visible, merely unmapped).
  func show(_ page: WindowPage) {
    self.page = page
    if !page.isList { toasts.dismissListToasts() }
    if page != .signIn {
      // The header is the app's again, whatever the sign-in page left in it (a page's title, its host).
      windowTitle.showPageOrigin(host: nil, secure: false)
      windowTitle.setSubtitle(page.isList ? accountName : "")
    }
    if page != .loading { presentIfWaiting() }
    for other in WindowPage.allCases where other.stackName != page.stackName {
      contentStack.child(named: other.stackName).isVisible = false
    }
    let child = contentStack.child(named: page.stackName)
    child.isVisible = true
    contentStack.visibleChild = child
    keepFocusInWindow(page: child)
    actions?.enable(on: page)
    // Header buttons that can do nothing on this page are hidden, not greyed (GNOME HIG).
    for button in listButtons { button.isVisible = page.isList }
    if !page.isList { offlineBanner.reveal(false) }
    onPageShown?(page)
  }

  /// Puts the keyboard focus into `page` when it is nowhere, or on a widget that is no longer on screen (the web
  /// view a sign-in just dropped): GTK would otherwise leave Tab with nowhere to start, a keyboard trap.
  private func keepFocusInWindow(page: Widget) {
    if let focus = window.focus, focus.isMapped, focus.isInWindow { return }
    window.focusFirst(in: page)
  }

  /// Shows the window and brings it to the front.
  func present() {
    waitingToPresent = false
    window.present()
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
    parts?.listPage.closeTaskWindow()
    window.close()
  }

  /// Writes the window's size and maximised state to GSettings.
  func saveState() {
    windowState?.save(window.window)
  }
}

extension MainWindow: AccountWindow {
  var isShowingList: Bool { page.isList }
  var parentWindow: UnsafeMutablePointer<GtkWindow> { window.window }
  var keepsSignedIn: Bool { windowState?.bool("keep-signed-in") ?? false }
  var browserSignInTimeout: Int? { windowState?.uint("browser-sign-in-timeout") }

  func showTasksPage() {
    show((parts?.tasks.list.count ?? 0) == 0 ? .noTasks : .tasks)
  }

  func showWelcome() { show(.welcome) }

  func showOfflineBanner(_ message: String?) { offlineBanner.show(message) }

  @discardableResult
  func showToast(_ title: String, aboutList: Bool, retry: (@MainActor () -> Void)?) -> Toast {
    toasts.show(title, aboutList: aboutList, retry: retry)
  }

  func present(_ toast: Toast) { toasts.present(toast) }

  func withSpinner<T>(_ body: () async -> T) async -> T { await spinner.whileRunning(body) }

  func signedOutElsewhere() { parts?.account.signedOutElsewhere() }

  /// Signs out as Sign Out in the menu does (for the broker); answers when it is done.
  func signOut() async { await parts?.account.signOut().value }

  /// The window as a dialog's parent.
  var asParent: Window { window }

  func holdApplication() -> @MainActor () -> Void {
    guard let application = gtk_window_get_application(window.window) else { return {} }
    let app = application.cast(to: g_application_get_type(), as: GApplication.self)
    g_application_hold(app)
    return { g_application_release(app) }
  }

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
      if page.isList { parts?.account.sessionEnded(signedOut) }
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
    failurePage.show(error)
    show(.signInFailed)
  }
}

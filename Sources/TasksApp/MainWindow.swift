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
  private let toastOverlay: OpaquePointer
  private let contentStack: OpaquePointer
  private let windowTitle: OpaquePointer
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
  /// The main menu's account header: its box, name and email labels.
  private var menuAccount:
    (UnsafeMutablePointer<GtkWidget>, UnsafeMutablePointer<GtkWidget>, UnsafeMutablePointer<GtkWidget>)?
  /// The toasts about the list on screen (dismissed when another page replaces the list).
  private var listToasts: [OpaquePointer] = []
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
    toastOverlay = builder.opaqueObject("toast_overlay", adw_toast_overlay_get_type())
    contentStack = builder.opaqueObject("content_stack", gtk_stack_get_type())
    windowTitle = builder.opaqueObject("window_title", adw_window_title_get_type())
    spinner = builder.opaqueObject("refresh_spinner", gtk_spinner_get_type())
    offlineBanner = builder.opaqueObject("offline_banner", gtk_revealer_get_type())
    windowState = WindowState(schemaDirectory: installation.schemaDirectory)
    // The tooltips are set here, not in main-window.ui: GtkBuilder sets them with gtk_widget_set_tooltip_text, eight
    // times 50–170 µs of building the window (see `Tooltip`).
    let tooltips = [
      ("add_task_button", tr("Add Task (Ctrl+Shift+N)")), ("refresh_button", tr("Refresh (F5)")),
      ("refresh_spinner", tr("Loading tasks…")), ("primary_menu_button", tr("Main Menu (F10)")),
      ("search_button", tr("Search (Ctrl+F)")),
      (
        "keep_signed_in_check",
        tr(
          "Stay signed in after you log out of the desktop, and let the sign-in page remember you. Unticked, you stay signed in until you log out."
        )
      ),
      ("browser_sign_in_button", tr("Sign in with your web browser, its password manager and security keys")),
      ("quick_entry", tr("Type a task and press Enter to add it (Ctrl+N)")),
    ]
    for (id, text) in tooltips { Tooltip.set(builder.object(id, gtk_widget_get_type(), as: GtkWidget.self), text) }
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
        if self.page == .signIn { adw_window_title_set_subtitle(self.windowTitle, title) }
      }
      controller.onPageCommitted = { [unowned self] host, secure in
        if self.page == .signIn { self.showPageOrigin(host: host, secure: secure) }
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
    if page != .tasks && page != .noTasks {
      for toast in listToasts { adw_toast_dismiss(toast) }
    }
    if page != .signIn {
      // The header is the app's again, whatever the sign-in page left in it (a page's title, its host).
      showPageOrigin(host: nil, secure: false)
      adw_window_title_set_subtitle(windowTitle, page == .tasks || page == .noTasks ? accountName : "")
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

  /// Shows who is signed in at the top of the main menu (nil: nobody, and the place is hidden).
  private func showAccountInMenu(_ account: Account?) {
    if menuAccount == nil {
      let button = builder.opaqueObject("primary_menu_button", gtk_menu_button_get_type())
      guard let popover = gtk_menu_button_get_popover(button) else { return }
      let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
      let name = gtk_label_new("")!
      let email = gtk_label_new("")!
      for label in [name, email] {
        gtk_label_set_xalign(OpaquePointer(label), 0)
        gtk_label_set_ellipsize(OpaquePointer(label), PANGO_ELLIPSIZE_END)
        gtk_box_append(box.cast(to: gtk_box_get_type(), as: GtkBox.self), label)
      }
      gtk_widget_add_css_class(name, "heading")
      gtk_widget_add_css_class(email, "dim-label")
      gtk_widget_set_margin_start(box, 12)
      gtk_widget_set_margin_end(box, 12)
      gtk_widget_set_margin_top(box, 6)
      gtk_widget_set_margin_bottom(box, 6)
      gtk_popover_menu_add_child(OpaquePointer(popover), box, "account")
      menuAccount = (box, name, email)
    }
    guard let (box, name, email) = menuAccount else { return }
    gtk_label_set_text(OpaquePointer(name), account?.displayName ?? "")
    gtk_label_set_text(OpaquePointer(email), account?.email ?? "")
    gtk_widget_set_visible(email, (account?.email ?? "").isEmpty ? 0 : 1)
    gtk_widget_set_visible(box, account == nil ? 0 : 1)
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

  /// Shows in the header the host of the sign-in page on screen, with GNOME Web's secure or insecure sign (a person
  /// sees whose page asks for the password); nil puts the app's own title back.
  private func showPageOrigin(host: String?, secure: Bool) {
    let icon = builder.object("page_security_icon", gtk_widget_get_type(), as: GtkWidget.self)
    guard let host else {
      gtk_widget_set_visible(icon, 0)
      adw_window_title_set_title(windowTitle, tr("B2C Tasks"))
      return
    }
    adw_window_title_set_title(windowTitle, host)
    gtk_image_set_from_icon_name(
      OpaquePointer(icon), secure ? "channel-secure-symbolic" : "channel-insecure-symbolic")
    let explanation =
      secure
      ? String(template: tr("Secure connection: the identity of %@ is verified and the page is encrypted"), host)
      : String(template: tr("Not secure: the page from %@ is not encrypted"), host)
    gtk_widget_set_tooltip_text(icon, explanation)
    b2c_accessible_set_label(icon, explanation)
    gtk_widget_set_visible(icon, 1)
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
  /// `aboutList` goes when the list does (a sign-in page has no use for "1 waiting task was sent").
  @discardableResult
  func showToast(_ title: String, aboutList: Bool = false, retry: (@MainActor () -> Void)? = nil) -> OpaquePointer {
    let toast = PlainText.toast(title)
    if let retry {
      adw_toast_set_button_label(toast, tr("Retry"))
      Signal.connect(toast, "button-clicked") { retry() }
    }
    if aboutList {
      listToasts.append(toast)
      g_object_ref(toast.gpointer)
      Signal.connect(toast, "dismissed") { [unowned self] in
        self.listToasts.removeAll { $0 == toast }
        g_object_unref(toast.gpointer)
      }
    }
    present(toast)
    return toast
  }

  /// Adds `toast` (built by the caller) to the window.
  func present(_ toast: OpaquePointer) {
    adw_toast_overlay_add_toast(toastOverlay, toast)
    nameToastCloseButtons()
    // A toast waiting behind another is drawn when that one goes.
    Signal.connect(toast, "dismissed") { [unowned self] in Task { self.nameToastCloseButtons() } }
  }

  /// libadwaita 1.2 leaves a toast's close button without an accessible name (a screen reader says "GtkImage"):
  /// it gets one. The button is found by its icon, as the library's own template sets it.
  private func nameToastCloseButtons() {
    func visit(_ widget: UnsafeMutablePointer<GtkWidget>) {
      if g_type_check_instance_is_a(widget.gpointer.assumingMemoryBound(to: GTypeInstance.self), gtk_button_get_type())
        != 0
      {
        let button = widget.cast(to: gtk_button_get_type(), as: GtkButton.self)
        if let icon = gtk_button_get_icon_name(button), String(cString: icon) == "window-close-symbolic" {
          b2c_accessible_set_label(widget, tr("Dismiss"))
        }
      }
      var child = gtk_widget_get_first_child(widget)
      while let current = child {
        visit(current)
        child = gtk_widget_get_next_sibling(current)
      }
    }
    visit(toastOverlay.widget)
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
      showAccountInMenu(account)
      // On the sign-in page (Switch Account, Edit Profile) the subtitle is the page's own title.
      if page != .signIn { adw_window_title_set_subtitle(windowTitle, account.displayName) }
    case .needsSignIn(let signedOut):
      accountName = ""
      showAccountInMenu(nil)
      adw_window_title_set_subtitle(windowTitle, "")
      // While the list is shown: its session could not be refreshed. (At start, `start` handles it.)
      if page == .tasks || page == .noTasks { account?.sessionEnded(signedOut) }
    case .signedOut:
      accountName = ""
      showAccountInMenu(nil)
      adw_window_title_set_subtitle(windowTitle, "")
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

/// One account's files: the outbox of tasks waiting to be sent and the offline copy of the list.
struct AccountFiles: Sendable {
  let objectID: String
  let outbox: Outbox
  let cache: TaskCache

  init(account: Account, in key: SessionKey) {
    objectID = account.objectID
    outbox = Outbox(file: Outbox.file(for: account, in: key))
    cache = TaskCache(account: account, in: key)
  }
}

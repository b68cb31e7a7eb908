// MainWindow: the B2C Tasks window: welcome, sign-in, the lists and error pages, toasts. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksAccount
import TasksCore

/// The main window, built from `ui/main-window.ui`: the chrome (pages, header, banner, toasts) over the application's
/// account (`AccountSession`), which it shows and observes: it owns no account state, so closing it loses nothing.
///
/// At start it shows what the start-up load brought: the lists (first the copy on disk, then the service's) or the
/// welcome page. Sign In shows B2C's pages in an embedded web view, loaded only then. When the settings cannot be used
/// it says which file and key are wrong. Its size and maximised state persist in GSettings. The rooms:
/// `AccountController` (sign-in, sign-out, switching), `PlannerController` (the sidebar, the list page and a task's
/// details, driven by the account's `PlannerOperations`), `TaskWindows` (the add-task window) and `WindowActions`
/// (every `win.` action).
@MainActor
final class MainWindow {
  /// The rooms of a window with usable settings.
  private struct Rooms {
    let account: AccountController
    let taskWindows: TaskWindows
    let planner: PlannerController
    let actions: WindowActions
    let liveRefresh: LiveRefresh
    let observation: Int
  }

  // Template widgets (the builder keeps them).
  private let builder = Builder(resource: Installation.resourceBase + "/ui/main-window.ui")
  private let window: Window
  private let contentStack: Stack
  // Owned.
  private let header: WindowHeader
  private let toasts: ToastShelf
  private let offlineBanner: OfflineBanner
  private let failurePage: SignInFailurePage
  private let windowState: WindowState?
  /// Nil: the settings are unusable.
  private var rooms: Rooms?
  private var waitingToPresent = false
  private(set) var page: WindowPage = .loading
  /// Called once the window has closed.
  private let onClose: () -> Void

  /// A window over `startup`'s account (or saying why the settings cannot be used); `onClose` is called once it has
  /// closed.
  init(
    application: UnsafeMutablePointer<AdwApplication>, installation: Installation,
    startup: Result<(AccountSession, StartupLoad), SettingsError>, onClose: @escaping () -> Void
  ) {
    window = builder.widget("window", as: Window.init)
    contentStack = builder.widget("content_stack", as: Stack.init)
    header = WindowHeader(builder: builder)
    toasts = ToastShelf(overlay: builder.widget("toast_overlay", as: ToastOverlay.init))
    toasts.keepClear(of: builder.widget("sidebar_foot"))
    offlineBanner = OfflineBanner(builder: builder, window: window, pages: contentStack)
    failurePage = SignInFailurePage(
      builder.widget("sign_in_failed_page", as: StatusPage.init),
      browserButton: builder.widget("failure_browser_button"))
    windowState = WindowState(schemaDirectory: installation.schemaDirectory)
    self.onClose = onClose
    WindowTooltips.set(in: builder)
    gtk_window_set_application(window.window, application.cast(to: gtk_application_get_type()))
    windowState?.restore(window)
    windowState?.bind(.keepSignedIn, to: builder.object("keep_signed_in_check"), property: "active")
    switch startup {
    case .failure(let error):
      builder.widget("settings_error_page", as: StatusPage.init).setDescription(error.description)
      show(.settingsError)
    case .success(let (account, _)):
      rooms = makeRooms(account: account, installation: installation)
    }
    Signal.connectReturningBool(window, "close-request") { [unowned self] in
      // Its dialogs first, as their close buttons would: a task's details keep what was typed; what is typed in
      // the add-task window and not added is dropped, as with Escape.
      self.window.closeDialogs()
      self.saveState()
      if let rooms = self.rooms {
        // The lists go on without the window (a deletion whose Undo showed is carried out now).
        rooms.account.account.stopObserving(rooms.observation)
        rooms.account.windowClosed()
      }
      self.stayUntilDestroyed()
      self.onClose()
      return false  // let the window close
    }
    offlineBanner.reveal(false)
    if case .success(let (_, startup)) = startup, let rooms {
      show(.loading)
      Task { await rooms.account.start(startup) }
    }
  }

  /// The sign-in (in the window's web view or the browser), the planner, the actions, wired to the account; the
  /// window observes the account from now on.
  private func makeRooms(account: AccountSession, installation: Installation) -> Rooms {
    let signIn = SignInController(
      session: account.session, installation: installation, webSession: account.webSessionFolders,
      slot: builder.widget("web_view_slot").widget,
      progressBar: builder.opaqueObject("sign_in_progress", gtk_progress_bar_get_type()))
    // As a browser shows a page: its host, secure or not, and its own title under it.
    // (WebKit can report a page after the flow has left it: only the sign-in page shows such news.)
    signIn.onPageLoaded = { [unowned self] title in
      if self.page == .signIn { self.header.showPageTitle(title) }
    }
    signIn.onPageCommitted = { [unowned self] host, secure in
      if self.page == .signIn { self.header.showPageOrigin(host: host, secure: secure) }
    }
    let controller = AccountController(ui: self, account: account, signIn: signIn)
    let planner = PlannerController(builder: builder, planner: account.planner, toasts: toasts)
    planner.navigation.onFoldChanged = { [unowned self] folded in self.header.setSidebarFolded(folded) }
    planner.window = window
    planner.onOffline = { [unowned self] problem, savedAt in
      guard self.page.isList else { return }
      self.offlineBanner.show(
        problem.map {
          OfflineBanner.message(for: $0, savedAt: savedAt, networkAvailable: NetworkMonitor.isAvailable)
        })
    }
    let taskWindows = TaskWindows(window: window, planner: planner)
    let targets = ActionTargets(
      account: controller, taskWindows: taskWindows, failurePage: failurePage, toasts: toasts, window: window,
      planner: planner, header: header)
    let actions = WindowActions(WindowActions.table(targets), to: window, windowState: windowState)
    if let windowState {
      windowState.watch(.showCompleted) { planner.setShowCompleted(windowState.bool(.showCompleted)) }
    }
    let liveRefresh = LiveRefresh(window: window, planner: account.planner)
    let observation = account.observe { [unowned self] event in self.accountChanged(event, signIn: signIn) }
    return Rooms(
      account: controller, taskWindows: taskWindows, planner: planner, actions: actions, liveRefresh: liveRefresh,
      observation: observation)
  }

  /// Shows what happened to the account.
  private func accountChanged(_ event: AccountEvent, signIn: SignInController) {
    switch event {
    case .signedOut(let elsewhere):
      signIn.clearLiveWebView()
      rooms?.planner.navigation.reset()
      show(.welcome)
      if elsewhere { toasts.show(SessionError.signedOutElsewhere.message) }
    case .signedIn, .signInAbandoned:
      break  // the window's own sign-in shows its pages (AccountController)
    }
  }

  /// Shows `page` and hides the others, so that keyboard focus and assistive technologies see only what is on
  /// screen (a GtkStack keeps its other pages visible, merely unmapped).
  func show(_ page: WindowPage) {
    self.page = page
    if !page.isList { toasts.dismissListToasts() }
    header.show(page)
    if page != .loading { presentIfWaiting() }
    for other in WindowPage.allCases where other.stackName != page.stackName {
      contentStack.child(named: other.stackName).isVisible = false
    }
    let child = contentStack.child(named: page.stackName)
    child.isVisible = true
    contentStack.visibleChild = child
    keepFocusInWindow(page: child)
    rooms?.actions.enable(on: page)
    if !page.isList { offlineBanner.reveal(false) }
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

  /// Closes the window as its close button does.
  func close() {
    window.close()
  }

  /// Keeps this object until GTK has destroyed the window: until then its widgets' signals still reach the parts
  /// they were connected to. (GObject drops a widget's handlers as it destroys it; this is released after that, on
  /// the next turn of the main loop, outside GTK's own teardown.)
  private func stayUntilDestroyed() {
    Signal.connect(window, "destroy") { [self] in
      rooms?.liveRefresh.stop()
      Task { withExtendedLifetime(self) {} }
    }
  }

  /// Shows a task a reminder named: its list.
  func openTask(_ id: UUID) { rooms?.planner.openTask(id) }

  /// Writes the window's size and maximised state to GSettings.
  func saveState() {
    windowState?.save(window)
  }

  /// The window as a dialog's parent.
  var asParent: Window { window }
}

extension MainWindow: AccountWindow {
  var parentWindow: UnsafeMutablePointer<GtkWindow> { window.window }
  var keepsSignedIn: Bool { windowState?.bool(.keepSignedIn) ?? false }
  var browserSignInTimeout: Int? { windowState?.uint(.browserSignInTimeout) }

  func showToast(_ title: String, retry: (@MainActor () -> Void)?) {
    toasts.show(title, retry: retry)
  }

  func whileLoading(_ body: () async -> Void) async { await header.whileRunning(body) }

  /// Shows who is signed in (or that nobody is) in the header and the main menu; a session that can no longer be
  /// refreshed while the list is shown asks to sign in again.
  func stateChanged(_ state: Session.State) {
    switch state {
    case .signedIn(let account), .refreshing(let account):
      // On the sign-in page (Switch Account, Edit Profile) the subtitle is the page's own title.
      header.showAccount(account, onSignInPage: page == .signIn)
    case .needsSignIn(let signedOut):
      header.showAccount(nil, onSignInPage: page == .signIn)
      // While the list is shown: its session could not be refreshed. (At start, `start` handles it.)
      if page.isList { rooms?.account.sessionEnded(signedOut) }
    case .signedOut:
      header.showAccount(nil, onSignInPage: page == .signIn)
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

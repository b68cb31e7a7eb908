// MainWindow: the B2C Tasks window: welcome, sign-in, task list and error pages, toasts. Main actor.

import CGtk
import Foundation
import GtkSupport
import TasksCore
import TasksKeyring

/// The main window, built from `ui/main-window.ui`.
///
/// At start it asks the keyring for a session (single sign-on, no web view); with one it shows the task list, else
/// the welcome page. Sign In shows B2C's pages in an embedded web view, loaded only then. When the settings cannot be
/// used it says which file and key are wrong. Its size and maximised state persist in GSettings.
@MainActor
final class MainWindow {
  private let builder = Builder(resource: Installation.resourceBase + "/ui/main-window.ui")
  private let window: UnsafeMutablePointer<AdwApplicationWindow>
  private let toastOverlay: OpaquePointer
  private let contentStack: OpaquePointer
  private let windowTitle: OpaquePointer
  private let windowState: WindowState?
  private let session: Session?
  private var signIn: SignInController?
  private var taskList: TaskListController?
  private var failureDetails = ""
  private var actions: [String: OpaquePointer] = [:]
  private var outbox: (account: String, box: Outbox)?
  private var addTaskWindow: AddTaskWindow?

  /// The window as a `GtkWindow`, for transient children.
  var gtkWindow: UnsafeMutablePointer<GtkWindow> { window.window }

  init(
    application: UnsafeMutablePointer<AdwApplication>, installation: Installation,
    settings: Result<AppSettings, SettingsError>
  ) {
    window = builder.object("window", adw_application_window_get_type())
    toastOverlay = builder.opaqueObject("toast_overlay", adw_toast_overlay_get_type())
    contentStack = builder.opaqueObject("content_stack", gtk_stack_get_type())
    windowTitle = builder.opaqueObject("window_title", adw_window_title_get_type())
    windowState = WindowState(schemaDirectory: installation.schemaDirectory)
    gtk_window_set_application(window.window, application.cast(to: gtk_application_get_type()))
    windowState?.restore(window.window)
    switch settings {
    case .failure(let error):
      session = nil
      let page = builder.opaqueObject("settings_error_page", adw_status_page_get_type())
      adw_status_page_set_description(page, error.description)
      show(.settingsError)
    case .success(let settings):
      let session = Session(settings: settings, store: KeyringSessionStore())
      self.session = session
      let slot = builder.object("web_view_slot", gtk_widget_get_type(), as: GtkWidget.self)
      let controller = SignInController(
        session: session, installation: installation, slot: slot,
        progressBar: builder.opaqueObject("sign_in_progress", gtk_progress_bar_get_type()))
      controller.onFinished = { [unowned self] step in self.signInFinished(step) }
      // As a browser shows a page's title: the B2C page's own title under the window's.
      controller.onPageLoaded = { [unowned self] title in adw_window_title_set_subtitle(self.windowTitle, title) }
      signIn = controller
      let tasks = TaskListController(listView: builder.opaqueObject("task_list", gtk_list_view_get_type()))
      tasks.onToggle = { [unowned self] task, done in self.setCompleted(task, done) }
      taskList = tasks
    }
    Signal.connectReturningBool(window, "close-request") { [unowned self] in
      self.saveState()
      return false  // let the window close
    }
    if let session {
      addActions()
      show(.loading)
      Task { await self.start(session) }
    }
  }

  /// The pages of the window's content stack, by their names in the `.ui` file.
  enum Page: String, CaseIterable {
    case loading
    case welcome
    case signIn = "sign-in"
    case signInFailed = "sign-in-failed"
    case tasks
    case noTasks = "no-tasks"
    case settingsError = "settings-error"
  }

  /// Shows `page` and hides the others, so that keyboard focus and assistive technologies see only what is on
  /// screen (a GtkStack keeps its other pages visible, merely unmapped).
  func show(_ page: Page) {
    for other in Page.allCases where other != page {
      gtk_widget_set_visible(gtk_stack_get_child_by_name(contentStack, other.rawValue), 0)
    }
    let child = gtk_stack_get_child_by_name(contentStack, page.rawValue)
    gtk_widget_set_visible(child, 1)
    gtk_stack_set_visible_child(contentStack, child)
    let signedIn = page == .tasks || page == .noTasks
    actions["refresh"].map { Actions.setEnabled($0, signedIn) }
    actions["add-task"].map { Actions.setEnabled($0, signedIn) }
    actions["sign-out"].map { Actions.setEnabled($0, signedIn) }
    actions["edit-profile"].map { Actions.setEnabled($0, signedIn) }
  }

  /// Shows the window and brings it to the front.
  func present() {
    gtk_window_present(window.window)
  }

  /// Writes the window's size and maximised state to GSettings.
  func saveState() {
    windowState?.save(window.window)
  }

  /// Shows a short message at the bottom of the window.
  func showToast(_ title: String) {
    adw_toast_overlay_add_toast(toastOverlay, adw_toast_new(title))
  }

  // MARK: Flow

  private func addActions() {
    actions["sign-in"] = Actions.add("sign-in", to: window) { [unowned self] in self.startSignIn() }
    actions["cancel-sign-in"] = Actions.add("cancel-sign-in", to: window) { [unowned self] in
      Task {
        await self.signIn?.cancel()
        self.show(.welcome)
      }
    }
    actions["edit-profile"] = Actions.add("edit-profile", to: window) { [unowned self] in
      self.startSignIn(editProfile: true)
    }
    actions["sign-out"] = Actions.add("sign-out", to: window) { [unowned self] in self.signOut() }
    actions["refresh"] = Actions.add("refresh", to: window) { [unowned self] in Task { await self.reload() } }
    actions["add-task"] = Actions.add("add-task", to: window) { [unowned self] in self.openAddTask() }
    actions["copy-details"] = Actions.add("copy-details", to: window) { [unowned self] in
      gdk_clipboard_set_text(gtk_widget_get_clipboard(self.window.widget), self.failureDetails)
      self.showToast(tr("Details copied"))
    }
    if let application = gtk_window_get_application(window.window) {
      Actions.setAccelerators(application, for: "win.refresh", ["F5", "<Primary>r"])
      Actions.setAccelerators(application, for: "win.add-task", ["<Primary>n"])
    }
  }

  private func start(_ session: Session) async {
    Task {
      for await state in await session.updates() { self.stateChanged(state) }
    }
    do {
      if try await session.restore() != nil {
        await reload()
      } else {
        show(.welcome)
      }
    } catch {
      show(.welcome)
      showToast(error.message)
    }
  }

  private func stateChanged(_ state: Session.State) {
    switch state {
    case .signedIn(let account), .refreshing(let account):
      adw_window_title_set_subtitle(windowTitle, account.displayName)
    case .needsSignIn:
      adw_window_title_set_subtitle(windowTitle, "")
      show(.welcome)
      showToast(tr("Your sign-in has ended. Please sign in again."))
    case .signedOut, .signingIn:
      adw_window_title_set_subtitle(windowTitle, "")
    }
  }

  private func startSignIn(editProfile: Bool = false) {
    guard let signIn else { return }
    show(.signIn)
    Task {
      if case .failure(let error) = await signIn.start(editProfile: editProfile) {
        showFailure(error)
      }
    }
  }

  private func signInFinished(_ step: SignInStep) {
    switch step {
    case .signedIn, .profileUpdated:
      Task { await reload() }
    case .cancelled:
      show(.welcome)
    case .failed(let error):
      showFailure(error)
    case .notOurs, .load:
      break
    }
  }

  private func showFailure(_ error: SessionError) {
    let page = builder.opaqueObject("sign_in_failed_page", adw_status_page_get_type())
    adw_status_page_set_description(page, error.message)
    var details = ["B2C Tasks sign-in failed", "Time: \(Date().formatted(.iso8601))", "Message: \(error.message)"]
    if case .authorization(.service(let service)) = error { details.append(service.details) }
    if case .service(let service) = error { details.append(service.details) }
    failureDetails = details.joined(separator: "\n")
    show(.signInFailed)
  }

  private func signOut() {
    guard let session else { return }
    Task {
      do throws(SessionError) {
        _ = try await session.signOut()
        outbox = nil
        signIn?.clearWebsiteData()
        taskList?.show([])
        show(.welcome)
      } catch {
        showToast(error.message)
      }
    }
  }

  // MARK: Tasks

  /// Sends what waits in the outbox, then shows the server's list followed by what still waits.
  private func reload() async {
    guard let session, let taskList else { return }
    guard let account = await session.account else {
      show(.welcome)
      return
    }
    let outbox = outbox(for: account)
    let client = TaskAPIClient(session: session)
    let flushed = await outbox.flush(client)
    do {
      let tasks = try await client.list()
      taskList.show(tasks, waiting: await outbox.pending)
      show(taskList.count == 0 ? .noTasks : .tasks)
      if let stopped = flushed.stoppedBy { showToast(stopped.message) }
    } catch .unauthorized {
      show(.welcome)
    } catch {
      taskList.show([], waiting: await outbox.pending)
      show(taskList.count == 0 ? .noTasks : .tasks)
      showToast(error.message)
    }
  }

  /// The outbox of `account` (each account has its own).
  private func outbox(for account: Account) -> Outbox {
    if let outbox, outbox.account == account.objectID { return outbox.box }
    let box = Outbox(file: Outbox.file(for: account))
    outbox = (account.objectID, box)
    return box
  }

  private func openAddTask() {
    // One add window at a time: Ctrl+N again brings it back to the front.
    if let addTaskWindow {
      addTaskWindow.present()
      return
    }
    let addWindow = AddTaskWindow(parent: window.window) { [unowned self] text in self.add(text) }
    // Released on the next main-loop turn: the window may be closing from inside one of its own handlers.
    addWindow.onClose { [unowned self] in Task { self.addTaskWindow = nil } }
    addTaskWindow = addWindow
    addWindow.present()
  }

  /// Keeps the task in the outbox (on disk) first, shows it, then tries to send it.
  private func add(_ text: String) {
    guard let session else { return }
    Task {
      guard let account = await session.account else {
        showToast(tr("Sign in to add tasks."))
        return
      }
      do {
        _ = try await outbox(for: account).add(text)
      } catch {
        showToast(tr("The task could not be saved. Check that your disk is not full."))
        return
      }
      await reload()
    }
  }

  private func setCompleted(_ task: TaskItem, _ done: Bool) {
    guard let session else { return }
    var changed = task
    changed.completed = done
    taskList?.update(changed)
    Task {
      do throws(TaskAPIError) {
        try await TaskAPIClient(session: session).update(id: task.id, completed: done)
      } catch {
        taskList?.update(task)
        showToast(error.message)
      }
    }
  }
}

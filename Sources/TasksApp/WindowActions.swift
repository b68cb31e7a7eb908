// WindowActions: every action of the window (`win.…`), its shortcuts and when it can be used, declared once in one
// table. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksAccount
import TasksCore

/// One action of the window: its name (`win.NAME` in menus and `.ui` files), its keyboard shortcuts, the pages it
/// can be used on, and what it does.
struct WindowAction {
  /// Where an action can be used; elsewhere it is disabled (its menu items and shortcuts with it).
  enum Scope {
    /// On every page.
    case always
    /// On the list, signed in.
    case signedIn
    /// While a sign-in shows its page (in the window or the browser).
    case signingIn
  }

  let name: String
  var accelerators: [String] = []
  var scope: Scope = .always
  let run: @MainActor () -> Void
}

/// The parts of a signed-in-capable window the actions run.
@MainActor
struct ActionTargets {
  let account: AccountController
  let taskWindows: TaskWindows
  let failurePage: SignInFailurePage
  let toasts: ToastShelf
  let window: Window
  let planner: PlannerController
  let header: WindowHeader
}

/// The window's actions, added to it with their shortcuts; `enable(on:)` enables those a page can use.
@MainActor
final class WindowActions {
  private var actions: [(action: OpaquePointer, scope: WindowAction.Scope)] = []

  /// The window's actions. Edit Profile is there only when the provider has an edit-profile flow: a missing action
  /// hides its menu item.
  static func table(_ targets: ActionTargets) -> [WindowAction] {
    let (account, planner) = (targets.account, targets.planner)
    var table = [
      WindowAction(name: "sign-in") { account.startSignIn() },
      WindowAction(name: "sign-in-browser") { account.startBrowserSignIn() },
      // Escape cancels a sign-in, in the window or in the browser (before the page sees the key).
      WindowAction(name: "cancel-sign-in", accelerators: ["Escape"], scope: .signingIn) { account.cancelSignIn() },
      WindowAction(name: "switch-account", scope: .signedIn) { account.switchAccount() },
      WindowAction(name: "sign-out", scope: .signedIn) { account.signOut() },
      WindowAction(name: "refresh", accelerators: ["F5", "<Primary>r"], scope: .signedIn) {
        Task { await targets.header.whileRunning { await planner.planner.refresh() } }
      },
      WindowAction(name: "add-task", accelerators: ["<Primary><Shift>n"], scope: .signedIn) {
        targets.taskWindows.openAddTask()
      },
      WindowAction(name: "new-task", accelerators: ["<Primary>n"], scope: .signedIn) {
        planner.page.quickEntry.focus()
      },
      WindowAction(name: "search", accelerators: ["<Primary>f"], scope: .signedIn) { planner.page.openSearch() },
      WindowAction(name: "undo", accelerators: ["<Primary>z"], scope: .signedIn) { planner.undo() },
      WindowAction(name: "delete-completed", scope: .signedIn) { planner.deleteCompleted() },
      WindowAction(name: "copy-details") {
        targets.failurePage.copyDetails(from: targets.window)
        targets.toasts.show(tr("Details copied"))
      },
    ]
    table += plannerActions(targets)
    if account.session.canEditProfile {
      table.append(WindowAction(name: "edit-profile", scope: .signedIn) { account.startSignIn(editProfile: true) })
    }
    return table
  }

  /// The planner's: the sidebar's entries (Ctrl+1…9, Alt+Up/Down, Ctrl+L), the list menu, a task's due date
  /// (Ctrl+D) and its place in its list (Alt+Shift+Up/Down).
  private static func plannerActions(_ targets: ActionTargets) -> [WindowAction] {
    let planner = targets.planner
    let dialogs = PlannerListDialogs(window: targets.window, planner: planner, toasts: targets.toasts)
    var table = [
      WindowAction(name: "focus-sidebar", accelerators: ["<Primary>l"], scope: .signedIn) { planner.focusSidebar() },
      WindowAction(name: "previous-entry", accelerators: ["<Alt>Up"], scope: .signedIn) { planner.move(by: -1) },
      WindowAction(name: "next-entry", accelerators: ["<Alt>Down"], scope: .signedIn) { planner.move(by: 1) },
      WindowAction(name: "new-list", accelerators: ["<Primary><Alt>n"], scope: .signedIn) { dialogs.newList() },
      WindowAction(name: "rename-list", scope: .signedIn) { dialogs.renameList() },
      WindowAction(name: "share-list", scope: .signedIn) { dialogs.shareList() },
      WindowAction(name: "join-list", scope: .signedIn) { dialogs.joinList() },
      WindowAction(name: "delete-list", scope: .signedIn) { dialogs.deleteList() },
      WindowAction(name: "leave-list", scope: .signedIn) { dialogs.leaveList() },
      WindowAction(name: "set-due-date", accelerators: ["<Primary>d"], scope: .signedIn) { planner.setDueDate() },
      WindowAction(name: "move-task-up", accelerators: ["<Alt><Shift>Up"], scope: .signedIn) {
        planner.moveFocusedTask(by: -1)
      },
      WindowAction(name: "move-task-down", accelerators: ["<Alt><Shift>Down"], scope: .signedIn) {
        planner.moveFocusedTask(by: 1)
      },
    ]
    for number in 1...9 {
      table.append(
        WindowAction(name: "go-to-\(number)", accelerators: ["<Primary>\(number)"], scope: .signedIn) {
          planner.go(to: number)
        })
    }
    return table
  }

  /// Adds `table`'s actions to `window`, their shortcuts to its application, and the settings the main menu shows
  /// (Show Completed) as an action bound to GSettings.
  init(_ table: [WindowAction], to window: Window, windowState: WindowState?) {
    let application = gtk_window_get_application(window.window)
    for entry in table {
      actions.append((Actions.add(entry.name, to: window) { entry.run() }, entry.scope))
      if let application, !entry.accelerators.isEmpty {
        Actions.setAccelerators(application, for: "win." + entry.name, entry.accelerators)
      }
    }
    // The keyboard shortcuts (Ctrl+?): GTK's help overlay, built the first time it is asked for. GtkApplication
    // would build it with the window from `gtk/help-overlay.ui` at every start (memory and time for a window most
    // starts never show); this action makes it then hands `win.show-help-overlay` over to GTK's own.
    Actions.add("show-help-overlay", to: window) { Self.showShortcuts(for: window) }
    if let application { Actions.setAccelerators(application, for: "win.show-help-overlay", ["<Primary>question"]) }
    windowState?.addAction(for: .showCompleted, to: window)
    if let application { Actions.setAccelerators(application, for: "window.close", ["<Primary>w"]) }
  }

  /// Enables the actions that can be used on `page`, and disables the others.
  func enable(on page: WindowPage) {
    for (action, scope) in actions {
      switch scope {
      case .always: Actions.setEnabled(action, true)
      case .signedIn: Actions.setEnabled(action, page.isList)
      case .signingIn: Actions.setEnabled(action, page == .signIn || page == .browser)
      }
    }
  }

  /// Builds the keyboard shortcuts window, makes it the window's help overlay (GTK then shows the accelerators the
  /// application has for each action, keeps the window, and answers `win.show-help-overlay` itself) and shows it.
  private static func showShortcuts(for window: Window) {
    let builder = Builder(resource: Installation.resourceBase + "/ui/shortcuts-window.ui")
    gtk_application_window_set_help_overlay(
      window.cast(to: gtk_application_window_get_type(), as: GtkApplicationWindow.self),
      builder.opaqueObject("help_overlay", gtk_shortcuts_window_get_type()))
    builder.widget("help_overlay", as: Window.init).present()
  }
}

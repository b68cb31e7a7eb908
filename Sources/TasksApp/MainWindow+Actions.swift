// MainWindow+Actions: every action of the window (`win.…`), its shortcuts and when it can be used, declared once in
// one table. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
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
  let run: @MainActor (MainWindow) -> Void
}

extension MainWindow {
  /// The window's actions. Edit Profile is there only when the provider has an edit-profile flow: a missing
  /// action hides its menu item.
  var actionTable: [WindowAction] {
    var table = [
      WindowAction(name: "sign-in") { $0.account?.startSignIn() },
      WindowAction(name: "sign-in-browser") { $0.account?.startBrowserSignIn() },
      // Escape cancels a sign-in, in the window or in the browser (before the page sees the key).
      WindowAction(name: "cancel-sign-in", accelerators: ["Escape"], scope: .signingIn) { $0.account?.cancelSignIn() },
      WindowAction(name: "switch-account", scope: .signedIn) { $0.account?.switchAccount() },
      WindowAction(name: "sign-out", scope: .signedIn) { $0.account?.signOut() },
      WindowAction(name: "refresh", accelerators: ["F5", "<Primary>r"], scope: .signedIn) { window in
        Task { await window.tasks?.reload() }
      },
      WindowAction(name: "add-task", accelerators: ["<Primary><Shift>n"], scope: .signedIn) { $0.openAddTask() },
      WindowAction(name: "new-task", accelerators: ["<Primary>n"], scope: .signedIn) { $0.focusQuickEntry() },
      WindowAction(name: "search", accelerators: ["<Primary>f"], scope: .signedIn) { $0.openSearch() },
      WindowAction(name: "undo", accelerators: ["<Primary>z"], scope: .signedIn) { $0.tasks?.undo() },
      WindowAction(name: "delete-completed", scope: .signedIn) { $0.tasks?.deleteCompleted() },
      WindowAction(name: "copy-details") { $0.copyFailureDetails() },
    ]
    if session?.canEditProfile == true {
      table.append(WindowAction(name: "edit-profile", scope: .signedIn) { $0.account?.startSignIn(editProfile: true) })
    }
    return table
  }

  /// Adds the table's actions to the window, their shortcuts to the application, and the settings the main menu
  /// shows (sort order, Show Completed) as actions bound to GSettings.
  func addActions() {
    let application = gtk_window_get_application(window.window)
    for action in actionTable {
      let added = Actions.add(action.name, to: window) { [unowned self] in action.run(self) }
      actions[action.name] = (added, action.scope)
      if let application, !action.accelerators.isEmpty {
        Actions.setAccelerators(application, for: "win." + action.name, action.accelerators)
      }
    }
    // The keyboard shortcuts (Ctrl+?): GTK's help overlay, built the first time it is asked for. GtkApplication
    // would build it with the window from `gtk/help-overlay.ui` at every start (1.3 MB for a window most starts
    // never show); this action makes it then hands `win.show-help-overlay` over to GTK's own.
    Actions.add("show-help-overlay", to: window) { [unowned self] in self.showShortcuts() }
    if let application { Actions.setAccelerators(application, for: "win.show-help-overlay", ["<Primary>question"]) }
    windowState?.addAction(for: "sort-order", to: window)
    windowState?.addAction(for: "show-completed", to: window)
    if let application { Actions.setAccelerators(application, for: "window.close", ["<Primary>w"]) }
  }

  /// Enables the actions that can be used on `page`, and disables the others.
  func enableActions(on page: Page) {
    let signedIn = page == .tasks || page == .noTasks
    for (action, scope) in actions.values {
      switch scope {
      case .always: Actions.setEnabled(action, true)
      case .signedIn: Actions.setEnabled(action, signedIn)
      case .signingIn: Actions.setEnabled(action, page == .signIn || page == .browser)
      }
    }
  }

  private func copyFailureDetails() {
    gdk_clipboard_set_text(gtk_widget_get_clipboard(window.widget), failureDetails)
    showToast(tr("Details copied"))
  }

  /// Builds the keyboard shortcuts window, makes it the window's help overlay (GTK then shows the accelerators the
  /// application has for each action, keeps the window, and answers `win.show-help-overlay` itself) and shows it.
  private func showShortcuts() {
    let builder = Builder(resource: Installation.resourceBase + "/ui/shortcuts-window.ui")
    gtk_application_window_set_help_overlay(
      window.cast(to: gtk_application_window_get_type(), as: GtkApplicationWindow.self),
      builder.opaqueObject("help_overlay", gtk_shortcuts_window_get_type()))
    gtk_window_present(builder.object("help_overlay", gtk_window_get_type(), as: GtkWindow.self))
  }
}

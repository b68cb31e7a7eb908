// WindowTooltips: the main window's tooltips. Main actor.

import CGtk
import GtkSupport
import TasksCore

/// The tooltips of the main window's controls.
@MainActor
enum WindowTooltips {
  /// Sets them on the widgets `builder` made.
  static func set(in builder: Builder) {
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
      (
        "planner_entry",
        tr("Type a task and press Enter to add it; words such as “tomorrow 9am” give it a date (Ctrl+N)")
      ),
    ]
    for (id, text) in tooltips { Tooltip.set(builder.object(id, gtk_widget_get_type(), as: GtkWidget.self), text) }
  }
}

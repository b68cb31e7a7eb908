// AddTaskWindow: the small window where a task is typed. Main actor.

import CGtk
import Foundation
import GtkSupport
import TasksCore

/// The add-task window, transient for the list: an entry, Add on Enter or the Add button, empty text refused inline,
/// Escape or Cancel closes it.
@MainActor
final class AddTaskWindow {
  private let builder = Builder(resource: Installation.resourceBase + "/ui/add-task-window.ui")
  private let window: UnsafeMutablePointer<GtkWidget>
  private let entry: UnsafeMutablePointer<GtkWidget>
  private let errorLabel: UnsafeMutablePointer<GtkWidget>
  private let onAdd: (String) -> Void
  private var onClose: () -> Void = {}
  private var closed = false

  /// Opens the window over `parent`; `onAdd` receives the trimmed text.
  init(parent: UnsafeMutablePointer<GtkWindow>, onAdd: @escaping (String) -> Void) {
    window = builder.object("add_task_window", gtk_widget_get_type())
    entry = builder.object("task_entry", gtk_widget_get_type())
    errorLabel = builder.object("task_error_label", gtk_widget_get_type())
    self.onAdd = onAdd
    gtk_window_set_transient_for(window.window, parent)
    Signal.connect(entry, "activate") { [unowned self] in self.submit() }
    Signal.connect(builder.object("add_button"), "clicked") { [unowned self] in self.submit() }
    // Cancel and Escape close through "close-request". (The builder holds a reference to the window, so "destroy"
    // would only come with the builder.)
    Signal.connectReturningBool(window, "close-request") { [unowned self] in
      self.finish()
      return false
    }
    Signal.connect(entry, "changed") { [unowned self] in
      gtk_label_set_text(OpaquePointer(self.errorLabel), "")
      gtk_widget_remove_css_class(self.entry, "error")
    }
  }

  /// Shows the window with the entry focused.
  func present() {
    gtk_window_present(window.window)
    gtk_widget_grab_focus(entry)
  }

  /// Closes the window (what is typed and not added is dropped, as with Escape).
  func close() {
    gtk_window_close(window.window)
  }

  /// Sets what runs once when the window closes, whichever way.
  func onClose(_ body: @escaping () -> Void) {
    onClose = body
  }

  private func finish() {
    guard !closed else { return }
    closed = true
    onClose()
  }

  private func submit() {
    let text = String(cString: gtk_editable_get_text(OpaquePointer(entry)))
      .trimmingCharacters(in: .whitespacesAndNewlines)
    guard !text.isEmpty else {
      gtk_label_set_text(OpaquePointer(errorLabel), tr("Type what needs doing first."))
      gtk_widget_add_css_class(entry, "error")
      return
    }
    onAdd(text)
    finish()
    gtk_window_destroy(window.window)
  }
}

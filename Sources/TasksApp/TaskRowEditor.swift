// TaskRowEditor: editing a task's text in place of its row's label. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// Puts an entry with a task's text in place of its row's label. Enter or leaving the entry saves, Escape cancels;
/// the focus goes back to the row. One row at a time.
@MainActor
final class TaskRowEditor {
  private var editing: (row: TaskRow, entry: UnsafeMutablePointer<GtkWidget>, id: Int64)?
  /// Called when an edit ends with a save: the task's id and the entry's text, trimmed (maybe empty or unchanged).
  var onSave: (Int64, String) -> Void = { _, _ in }

  /// Whether a row's text is being edited.
  var isEditing: Bool { editing != nil }

  /// Whether `row` is the one being edited.
  func isEditing(_ row: TaskRow) -> Bool { editing?.row === row }

  /// Starts editing `task` in `row` (an edit in another row is saved first).
  func start(_ task: TaskItem, in row: TaskRow) {
    finish(saving: true)
    let entry = gtk_entry_new()!
    gtk_editable_set_text(OpaquePointer(entry), task.text)
    gtk_widget_set_hexpand(entry, 1)
    gtk_widget_set_valign(entry, GTK_ALIGN_CENTER)
    b2c_accessible_set_label(entry, task.text)
    gtk_box_insert_child_after(row.box.cast(to: gtk_box_get_type(), as: GtkBox.self), entry, row.check)
    gtk_widget_set_visible(row.texts, 0)
    editing = (row, entry, task.id)
    Signal.connect(entry, "activate") { [unowned self] in self.finish(saving: true) }
    let keys = gtk_event_controller_key_new()!
    Signal.connectKeyPressed(keys) { [unowned self] keyval in
      guard keyval == UInt32(GDK_KEY_Escape) else { return false }
      self.finish(saving: false)
      return true
    }
    gtk_widget_add_controller(entry, keys)
    let focus = gtk_event_controller_focus_new()!
    Signal.connect(focus, "leave") { [unowned self] in
      // After the focus has moved: ending the edit removes the entry.
      Task { if self.editing?.entry == entry { self.finish(saving: true) } }
    }
    gtk_widget_add_controller(entry, focus)
    gtk_widget_grab_focus(entry)
    gtk_editable_select_region(OpaquePointer(entry), 0, -1)
  }

  /// Ends the edit in progress, handing its text to `onSave` when `saving`; the focus goes back to the row.
  func finish(saving: Bool) {
    guard let (row, entry, id) = editing else { return }
    editing = nil
    let text = String(cString: gtk_editable_get_text(OpaquePointer(entry))).trimmed()
    let hadFocus = gtk_widget_has_focus(entry) != 0 || gtk_widget_get_focus_child(entry) != nil
    gtk_widget_set_visible(row.texts, 1)
    gtk_box_remove(row.box.cast(to: gtk_box_get_type(), as: GtkBox.self), entry)
    if hadFocus, let item = row.listItem { gtk_widget_grab_focus(item) }
    if saving { onSave(id, text) }
  }
}

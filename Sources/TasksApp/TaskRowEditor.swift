// TaskRowEditor: editing a task's text in place of its row's label. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// Puts an entry with a task's text in place of its row's label. Enter or leaving the entry saves, Escape cancels;
/// the focus goes back to the row. One row at a time.
@MainActor
final class TaskRowEditor {
  private var editing: (row: TaskRow, entry: Editable, id: Int64)?
  /// Called when an edit ends with a save: the task's id and the entry's text, trimmed (maybe empty or unchanged).
  var onSave: (Int64, String) -> Void = { _, _ in }

  /// Whether a row's text is being edited.
  var isEditing: Bool { editing != nil }

  /// Whether `row` is the one being edited.
  func isEditing(_ row: TaskRow) -> Bool { editing?.row === row }

  /// Starts editing `task` in `row` (an edit in another row is saved first).
  func start(_ task: TaskItem, in row: TaskRow) {
    finish(saving: true)
    let entry = Editable(gtk_entry_new()!)
    entry.text = task.text
    entry.expandsHorizontally = true
    entry.centreVertically()
    b2c_accessible_set_label(entry.widget, task.text)
    row.box.insert(entry, after: row.check)
    row.texts.isVisible = false
    editing = (row, entry, task.id)
    Signal.connect(entry, "activate") { [unowned self] in self.finish(saving: true) }
    entry.onKeyPressed { [unowned self] keyval, _ in
      guard keyval == UInt32(GDK_KEY_Escape) else { return false }
      self.finish(saving: false)
      return true
    }
    entry.onFocus(entering: false) { [unowned self] in
      // After the focus has moved: ending the edit removes the entry.
      Task { if self.editing?.entry.widget == entry.widget { self.finish(saving: true) } }
    }
    entry.grabFocus()
    entry.selectAll()
  }

  /// Ends the edit in progress, handing its text to `onSave` when `saving`; the focus goes back to the row.
  func finish(saving: Bool) {
    guard let (row, entry, id) = editing else { return }
    editing = nil
    let text = entry.text.trimmed()
    let hadFocus = entry.hasFocus || entry.focusChild != nil
    row.texts.isVisible = true
    row.box.remove(entry)
    if hadFocus, let item = row.listItem { item.grabFocus() }
    if saving { onSave(id, text) }
  }
}

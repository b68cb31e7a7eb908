// TaskListKeyboard: the task list's keys and keyboard focus: a Tab stop per row, Space, Delete, F2, the Menu key,
// and focus that survives rows coming and going. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// The list view's keyboard: the row is the one keyboard stop (Tab and Shift+Tab go from row to row, then out of the
/// list); Space ticks, Delete deletes, F2 edits, the Menu key or Shift+F10 opens the row's menu. It answers what a key
/// asks for as an `Intent`; the list decides what that means for the row's task.
@MainActor
final class TaskListKeyboard {
  /// What a key pressed on a row asks for.
  enum Intent { case toggle, delete, edit, menu }

  // Borrowed.
  private let listView: Widget
  private let model: TaskListModel
  private let rows: TaskRowFactory
  /// Where a row is among the rows shown.
  var position: (RowKey) -> Int? = { _ in nil }
  /// Whether keys go elsewhere for now (a row's text is being edited).
  var isPaused: () -> Bool = { false }
  /// Called with what a key asks of a row.
  var onIntent: (Intent, TaskRow, RowKey) -> Void = { _, _, _ in }
  /// Called when Tab leaves the list: past its last row (`true`) or before its first (`false`).
  var onLeave: (_ forward: Bool) -> Void = { _ in }

  init(listView: Widget, model: TaskListModel, rows: TaskRowFactory) {
    self.listView = listView
    self.model = model
    self.rows = rows
    // Before the row sees them: its own binding takes Space (to select, which this list does not do).
    listView.onKeyPressed(first: true) { [unowned self] keyval, modifiers in self.keyPressed(keyval, modifiers) }
  }

  /// The row whose list item has the keyboard focus (or holds the focused editor).
  func focusedRow() -> TaskRow? {
    var widget = listView.focusInWindow
    while let current = widget, current.widget != listView.widget {
      if let row = rows.row(at: current) { return row }
      widget = current.parent
    }
    return nil
  }

  /// Gives the keyboard focus to the first row shown; answers whether there was one.
  func focusFirstRow() -> Bool {
    guard model.shownCount > 0 else { return false }
    focusRow(at: 0)
    return true
  }

  /// Gives the keyboard focus to the last row shown; answers whether there was one.
  func focusLastRow() -> Bool {
    let count = model.shownCount
    guard count > 0 else { return false }
    focusRow(at: count - 1)
    return true
  }

  /// Gives the keyboard focus to the row at `position` of what is shown (or the last one).
  func focusRow(at position: Int) {
    let count = model.shownCount
    guard count > 0, let key = model.key(at: min(position, count - 1)) else { return }
    focus(key)
  }

  /// Scrolls `key` into view and gives its row the keyboard focus (once the list has made its widget: it makes the
  /// widgets of rows scrolled to on its next frames).
  func focus(_ key: RowKey, tries: Int = 3) {
    guard let position = position(key) else { return }
    scroll(to: position)
    if let item = rows.row(showing: key)?.listItem {
      item.grabFocus()
    } else if tries > 0 {
      Task { self.focus(key, tries: tries - 1) }
    }
  }

  /// Scrolls the row at `position` of what is shown into view.
  func scroll(to position: Int) {
    listView.activateAction("list.scroll-to-item", UInt32(position))
  }

  private func keyPressed(_ keyval: UInt32, _ modifiers: GdkModifierType) -> Bool {
    guard !isPaused(), let row = focusedRow(), let key = row.key else { return false }
    let shift = modifiers.rawValue & GDK_SHIFT_MASK.rawValue != 0
    switch Int32(keyval) {
    case GDK_KEY_Tab, GDK_KEY_ISO_Left_Tab:
      // A Tab stop per row, then out of the list. (GTK 4.8's list view, left to itself here, kept the focus.)
      let forward = keyval == UInt32(GDK_KEY_Tab) && !shift
      guard let current = position(key) else { return false }
      let next = forward ? current + 1 : current - 1
      if next >= 0 && next < model.shownCount { focusRow(at: next) } else { onLeave(forward) }
    case GDK_KEY_space: onIntent(.toggle, row, key)
    case GDK_KEY_Delete, GDK_KEY_KP_Delete: onIntent(.delete, row, key)
    case GDK_KEY_F2: onIntent(.edit, row, key)
    case GDK_KEY_Menu: onIntent(.menu, row, key)
    case GDK_KEY_F10 where shift: onIntent(.menu, row, key)
    default: return false
    }
    return true
  }
}

// AddTaskWindow: the add-task window, one of the two windows the sample is named for: a task read as the quick entry
// reads it, with its chips, and notes. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// The add-task window, transient for the main window: the task's words, read for dates, times, repeats and
/// priorities in the user's language and English (the chips under it say what was understood, and each can be
/// dismissed), and notes. Add, Enter or Ctrl+Enter adds it to `listName`'s list and is insensitive while there is no
/// title; Escape or Cancel closes it. It is never wider than the main window.
@MainActor
final class AddTaskWindow {
  private let builder = Builder(resource: Installation.resourceBase + "/ui/add-task-window.ui")
  private let window: Window
  private let field: QuickEntryField
  private let notes: TextView
  private var onClose: () -> Void = {}
  private var closed = false

  /// Opens the window over `parent`; `onAdd` receives what was read and the notes, and answers whether the task was
  /// taken (the window then closes).
  init(parent: Window, listName: String?, onAdd: @escaping (QuickEntry, String) -> Bool) {
    window = builder.widget("add_task_window", as: Window.init)
    notes = builder.widget("task_notes", as: TextView.init)
    field = QuickEntryField(
      entry: builder.widget("task_entry", as: Editable.init), chipsBox: builder.widget("task_chips", as: Box.init),
      activating: false)
    builder.widget("hint_label", as: Label.init).text =
      listName.map { String(template: tr("Adds to “%@”. Ctrl+Enter adds the task."), $0) }
      ?? tr("Ctrl+Enter adds the task.")
    window.setTransient(for: parent)
    // Never wider than the main window (a narrow one on a phone-sized screen included).
    if parent.width > 0 { window.setDefaultWidth(min(420, parent.width)) }
    // Add, Enter and Ctrl+Enter: one action, insensitive while there is no title.
    let group = g_simple_action_group_new()!
    let addAction = Actions.add("add", to: group) { [unowned self] in self.field.add() }
    window.insertActions(group, as: "add-task")
    g_object_unref(group.gpointer)
    Actions.setEnabled(addAction, false)
    field.onRead = { reading in Actions.setEnabled(addAction, !reading.title.isEmpty) }
    field.onAdd = { [unowned self] reading in
      guard onAdd(reading, self.notes.text.trimmed()) else { return false }
      self.finish()
      self.window.destroy()
      return true
    }
    // Cancel and Escape close through "close-request". (The builder holds a reference to the window, so "destroy"
    // would only come with the builder.)
    Signal.connectReturningBool(window, "close-request") { [unowned self] in
      self.finish()
      return false
    }
  }

  /// Shows the window with the task's words focused.
  func present() {
    window.present()
    field.focus()
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
}

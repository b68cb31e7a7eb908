// AddTaskWindow: the window where a longer task is typed. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// The add-task window, transient for the list: a multi-line text; Add (or Ctrl+Enter) adds it and is insensitive
/// while there is nothing but blanks; Escape or Cancel closes it. It is never wider than the main window. Given a
/// task's text, it is the task's details: the whole text in a multi-line editor, and Save.
@MainActor
final class AddTaskWindow {
  private let builder = Builder(resource: Installation.resourceBase + "/ui/add-task-window.ui")
  private let window: Window
  private let textView: TextView
  private let onAdd: (String) -> Void
  private var onClose: () -> Void = {}
  private var closed = false
  /// Whether it shows a task's details (rather than adding one).
  let isDetails: Bool
  /// The longest text the task API takes, in Unicode code points, as GTK's max-length and JSON Schema count (the
  /// quick entry's limit too).
  private static let maximumLength = 4000

  /// Opens the window over `parent`; `onAdd` receives the trimmed text. With `editing`, the window shows that text
  /// to change ("Edit Task", Save).
  init(parent: Window, editing: String? = nil, onAdd: @escaping (String) -> Void) {
    window = builder.widget("add_task_window", as: Window.init)
    textView = builder.widget("task_text", as: TextView.init)
    self.onAdd = onAdd
    isDetails = editing != nil
    if let editing {
      window.title = tr("Edit Task")
      builder.widget("add_label", as: Label.init).setMnemonicText(tr("_Save"))
      builder.widget("hint_label", as: Label.init).text = tr("Ctrl+Enter saves the task.")
      textView.text = editing
    }
    window.setTransient(for: parent)
    // Never wider than the main window (a narrow one on a phone-sized screen included).
    if parent.width > 0 { window.setDefaultWidth(min(420, parent.width)) }
    // Add and Ctrl+Enter: one action, insensitive while the text is blank.
    let group = g_simple_action_group_new()!
    let addAction = Actions.add("add", to: group) { [unowned self] in self.submit() }
    window.insertActions(group, as: "add-task")
    g_object_unref(group.gpointer)
    Actions.setEnabled(addAction, !text.isEmpty)
    Signal.connect(textView.textBuffer, "changed") { [unowned self] in Actions.setEnabled(addAction, !self.text.isEmpty)
    }
    // Cancel and Escape close through "close-request". (The builder holds a reference to the window, so "destroy"
    // would only come with the builder.)
    Signal.connectReturningBool(window, "close-request") { [unowned self] in
      self.finish()
      return false
    }
  }

  /// What is typed, without leading and trailing blanks.
  private var text: String { textView.text.trimmed() }

  /// Shows the window with the text focused.
  func present() {
    window.present()
    textView.grabFocus()
  }

  /// Closes the window (what is typed and not added is dropped, as with Escape).
  func close() {
    window.close()
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
    // Whole characters only: an emoji with modifiers is several code points, never cut in half.
    var used = 0
    let text = String(
      text.prefix { character in
        used += character.unicodeScalars.count
        return used <= Self.maximumLength
      })
    guard !text.isEmpty else { return }
    onAdd(text)
    finish()
    window.destroy()
  }
}

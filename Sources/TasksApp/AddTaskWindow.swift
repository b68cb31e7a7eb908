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
  private let window: UnsafeMutablePointer<GtkWidget>
  private let textView: UnsafeMutablePointer<GtkWidget>
  private let buffer: UnsafeMutablePointer<GtkTextBuffer>
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
  init(parent: UnsafeMutablePointer<GtkWindow>, editing: String? = nil, onAdd: @escaping (String) -> Void) {
    window = builder.object("add_task_window", gtk_widget_get_type())
    textView = builder.object("task_text", gtk_widget_get_type())
    buffer = gtk_text_view_get_buffer(textView.cast(to: gtk_text_view_get_type(), as: GtkTextView.self))
    self.onAdd = onAdd
    isDetails = editing != nil
    if let editing {
      gtk_window_set_title(window.window, tr("Edit Task"))
      builder.widget("add_label", as: Label.init).setMnemonicText(tr("_Save"))
      builder.widget("hint_label", as: Label.init).text = tr("Ctrl+Enter saves the task.")
      gtk_text_buffer_set_text(buffer, editing, -1)
    }
    gtk_window_set_transient_for(window.window, parent)
    // Never wider than the main window (a narrow one on a phone-sized screen included).
    let parentWidth = gtk_widget_get_width(parent.cast(to: gtk_widget_get_type(), as: GtkWidget.self))
    if parentWidth > 0 { gtk_window_set_default_size(window.window, min(420, parentWidth), -1) }
    // Add and Ctrl+Enter: one action, insensitive while the text is blank.
    let group = g_simple_action_group_new()!
    let addAction = Actions.add("add", to: group) { [unowned self] in self.submit() }
    gtk_widget_insert_action_group(window, "add-task", OpaquePointer(group))
    g_object_unref(group.gpointer)
    Actions.setEnabled(addAction, !text.isEmpty)
    Signal.connect(buffer, "changed") { [unowned self] in Actions.setEnabled(addAction, !self.text.isEmpty) }
    // Cancel and Escape close through "close-request". (The builder holds a reference to the window, so "destroy"
    // would only come with the builder.)
    Signal.connectReturningBool(window, "close-request") { [unowned self] in
      self.finish()
      return false
    }
  }

  /// What is typed, without leading and trailing blanks.
  private var text: String {
    var start = GtkTextIter()
    var end = GtkTextIter()
    gtk_text_buffer_get_bounds(buffer, &start, &end)
    guard let chars = gtk_text_buffer_get_text(buffer, &start, &end, 0) else { return "" }
    defer { g_free(chars) }
    return String(cString: chars).trimmed()
  }

  /// Shows the window with the text focused.
  func present() {
    gtk_window_present(window.window)
    gtk_widget_grab_focus(textView)
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
    gtk_window_destroy(window.window)
  }
}

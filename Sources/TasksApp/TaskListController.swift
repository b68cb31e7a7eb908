// TaskListController: the task list: a virtualised GtkListView of the user's tasks. Main actor.

import CGtk
import Foundation
import GtkSupport
import TasksCore

/// A row of the list: a task the server has, or one still waiting in the outbox.
enum RowKey: Hashable {
  case task(Int64)
  case pending(String)

  /// The string kept in the list's model.
  var modelString: String {
    switch self {
    case .task(let id): return String(id)
    case .pending(let id): return "p:" + id
    }
  }

  init?(modelString: String) {
    if modelString.hasPrefix("p:") {
      self = .pending(String(modelString.dropFirst(2)))
    } else if let id = Int64(modelString) {
      self = .task(id)
    } else {
      return nil
    }
  }
}

/// The widgets of one on-screen row: a check button, the text, a status note and a delete button. GTK 4.8's list
/// view keeps up to 200 of them around what is on screen and binds them to whichever task scrolls into view, so a
/// row is kept light: the text is a plain one-line label, and an entry is made only for the row being edited.
@MainActor
private final class TaskRow {
  let box: UnsafeMutablePointer<GtkWidget>
  let check: UnsafeMutablePointer<GtkWidget>
  let label: UnsafeMutablePointer<GtkWidget>
  let status: UnsafeMutablePointer<GtkWidget>
  let delete: UnsafeMutablePointer<GtkWidget>
  var key: RowKey?
  private var tooltip: String?
  /// Texts longer than this many characters may not fit a row: they get a tooltip with the whole text.
  private static let longText = 40

  init() {
    box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)
    check = gtk_check_button_new()
    label = gtk_label_new("")
    status = gtk_label_new("")
    delete = gtk_button_new_from_icon_name("user-trash-symbolic")
    for (side, widget) in [(12, box), (0, check), (0, label), (0, status), (0, delete)] {
      gtk_widget_set_valign(widget, GTK_ALIGN_CENTER)
      gtk_widget_set_margin_start(widget, Int32(side))
      gtk_widget_set_margin_end(widget, Int32(side))
    }
    gtk_widget_set_margin_top(box, 3)
    gtk_widget_set_margin_bottom(box, 3)
    gtk_widget_set_hexpand(label, 1)
    gtk_label_set_xalign(OpaquePointer(label), 0)
    // One line, shortened with "…" (the whole text is in the tooltip, the accessible name and the editor): a
    // wrapping label makes the list measure every row's height for its width whenever rows are bound anew, which
    // made dragging through 10 000 tasks draw 20 frames a second instead of 50 (Tests/Benchmarks/RESULTS.md).
    gtk_label_set_ellipsize(OpaquePointer(label), PANGO_ELLIPSIZE_END)
    gtk_widget_add_css_class(label, "task-text")
    gtk_widget_add_css_class(status, "task-note")
    gtk_widget_add_css_class(status, "caption")
    gtk_widget_add_css_class(delete, "flat")
    gtk_widget_set_tooltip_text(delete, tr("Delete"))
    gtk_widget_add_css_class(box, "task-row")
    for widget in [check, label, status, delete] {
      gtk_box_append(box.cast(to: gtk_box_get_type(), as: GtkBox.self), widget)
    }
  }

  /// Shows `text` with `note` (empty for none); `name` is what assistive technologies hear for the check button.
  func show(text: String, completed: Bool, note: String, confirmed: Bool) {
    gtk_label_set_text(OpaquePointer(label), text)
    // Only when it changes: setting a tooltip makes GTK 4.8 look for the widget under the pointer again, which
    // cost a quarter of a millisecond per row, 200 rows a frame when the scroll bar is dragged down a long list.
    let tooltip = text.count > Self.longText ? text : nil
    if tooltip != self.tooltip {
      gtk_widget_set_tooltip_text(label, tooltip)
      self.tooltip = tooltip
    }
    gtk_check_button_set_active(check.cast(to: gtk_check_button_get_type(), as: GtkCheckButton.self), completed ? 1 : 0)
    // Most rows have no note: a hidden label is neither measured nor drawn.
    gtk_label_set_text(OpaquePointer(status), note)
    gtk_widget_set_visible(status, note.isEmpty ? 0 : 1)
    gtk_widget_set_sensitive(check, confirmed ? 1 : 0)
    let spoken = note.isEmpty ? text : "\(text) — \(note)"
    b2c_accessible_set_label(check, spoken)
    b2c_accessible_set_label(delete, String(format: tr("Delete “%@”"), text))
    if completed { gtk_widget_add_css_class(box, "completed") } else { gtk_widget_remove_css_class(box, "completed") }
  }
}

/// Shows tasks in a `GtkListView`. The model is a `GtkStringList` of row keys (so GTK keeps only keys, and widgets
/// for what is on screen, however long the list); rows read their task from a dictionary when they are bound, and a
/// change to one task touches only its row.
///
/// Tick the check button to complete a task; double-click a row or press Enter on it to edit its text (Enter or
/// leaving the field saves, Escape cancels); the trash button deletes it.
@MainActor
final class TaskListController {
  private let listView: OpaquePointer
  private let model: OpaquePointer
  private let factory: OpaquePointer
  private var keys: [RowKey] = []
  private var tasks: [Int64: TaskItem] = [:]
  private var pending: [String: PendingTask] = [:]
  private var rows: [UnsafeMutableRawPointer: TaskRow] = [:]
  private var boundRows: [RowKey: TaskRow] = [:]
  private var binding = false
  private var editor: (row: TaskRow, entry: UnsafeMutablePointer<GtkWidget>, id: Int64)?
  /// Called when the user ticks or unticks a task.
  var onToggle: (TaskItem, Bool) -> Void = { _, _ in }
  /// Called when the user changed a task's text (already trimmed and not empty).
  var onEdit: (TaskItem, String) -> Void = { _, _ in }
  /// Called when the user pressed a row's delete button.
  var onDelete: (RowKey) -> Void = { _ in }

  /// The number of rows, confirmed or waiting.
  var count: Int { keys.count }

  /// The server's tasks in the order shown (for the offline copy).
  var confirmedTasks: [TaskItem] {
    keys.compactMap { if case .task(let id) = $0 { tasks[id] } else { nil } }
  }

  init(listView: OpaquePointer) {
    self.listView = listView
    model = gtk_string_list_new(nil)
    factory = gtk_signal_list_item_factory_new()
    g_object_ref(model.gpointer)  // the selection model takes a reference of its own
    let selection = gtk_no_selection_new(model)
    gtk_list_view_set_model(listView, selection)
    gtk_list_view_set_factory(listView, factory)
    Signal.connect(factory, "setup") { [unowned self] item in self.setUp(OpaquePointer(item)) }
    Signal.connect(factory, "bind") { [unowned self] item in self.bind(OpaquePointer(item)) }
    Signal.connect(factory, "unbind") { [unowned self] item in self.unbind(OpaquePointer(item)) }
    // GTK 4.8 does not recycle row widgets: a jump far down a long list destroys them and sets up new ones.
    Signal.connect(factory, "teardown") { [unowned self] item in self.tearDown(OpaquePointer(item)) }
    // After the click that activated the row is handled: the row takes keyboard focus at the end of it, which
    // would end an edit started at once.
    Signal.connectPosition(listView, "activate") { [unowned self] position in
      Task { self.startEditing(at: Int(position)) }
    }
  }

  /// Replaces the list: the server's tasks, then those still waiting in the outbox. Only the rows between the
  /// unchanged start and end of the list are replaced in the model, so a refresh keeps the scroll position and
  /// keyboard focus, and costs GTK nothing when little changed; rows on screen are redrawn with the new data.
  func show(_ items: [TaskItem], waiting: [PendingTask] = []) {
    tasks = Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
    pending = Dictionary(waiting.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
    let old = keys
    keys = items.map { .task($0.id) } + waiting.map { .pending($0.id) }
    let shorter = min(old.count, keys.count)
    var prefix = 0
    while prefix < shorter && old[prefix] == keys[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < shorter - prefix && old[old.count - 1 - suffix] == keys[keys.count - 1 - suffix] { suffix += 1 }
    if prefix < old.count - suffix || prefix < keys.count - suffix {
      splice(at: prefix, removing: old.count - suffix - prefix, inserting: Array(keys[prefix..<(keys.count - suffix)]))
    }
    for (key, row) in boundRows { fill(row, key) }
  }

  /// Adds a task that waits in the outbox at the end of the list, at once.
  func append(_ task: PendingTask) {
    pending[task.id] = task
    insert(.pending(task.id), at: keys.count)
  }

  /// Changes one task: only its row, if it is on screen, is redrawn.
  func update(_ task: TaskItem) {
    tasks[task.id] = task
    if let row = boundRows[.task(task.id)] { fill(row, .task(task.id)) }
  }

  /// The task of a row, if it is the server's.
  func task(_ key: RowKey) -> TaskItem? {
    if case .task(let id) = key { tasks[id] } else { nil }
  }

  /// The waiting task of a row, if it is one.
  func pendingTask(_ key: RowKey) -> PendingTask? {
    if case .pending(let id) = key { pending[id] } else { nil }
  }

  /// Takes a row out of the list; answers where it was, to put it back with `insert`.
  func remove(_ key: RowKey) -> Int? {
    guard let index = keys.firstIndex(of: key) else { return nil }
    keys.remove(at: index)
    splice(at: index, removing: 1, inserting: [])
    return index
  }

  /// Puts a row back at `index` (after an undo or a failed delete).
  func insert(_ key: RowKey, at index: Int) {
    let index = min(max(index, 0), keys.count)
    keys.insert(key, at: index)
    splice(at: index, removing: 0, inserting: [key])
  }

  private func splice(at index: Int, removing count: Int, inserting inserted: [RowKey]) {
    withCStringArray(inserted.map(\.modelString)) { array in
      gtk_string_list_splice(model, UInt32(index), UInt32(count), array)
    }
  }

  // MARK: Rows

  private func setUp(_ item: OpaquePointer?) {
    guard let item else { return }
    let row = TaskRow()
    gtk_list_item_set_child(item, row.box)
    rows[UnsafeMutableRawPointer(row.box)] = row
    Signal.connect(row.check, "toggled") { [unowned self, unowned row] in
      guard !self.binding, case .task(let id) = row.key, let task = self.tasks[id] else { return }
      self.onToggle(
        task, gtk_check_button_get_active(row.check.cast(to: gtk_check_button_get_type(), as: GtkCheckButton.self)) != 0
      )
    }
    Signal.connect(row.delete, "clicked") { [unowned self, unowned row] in
      if let key = row.key { self.onDelete(key) }
    }
  }

  private func bind(_ item: OpaquePointer?) {
    guard let item, let child = gtk_list_item_get_child(item), let row = rows[UnsafeMutableRawPointer(child)],
      let object = gtk_list_item_get_item(item),
      let key = RowKey(modelString: String(cString: gtk_string_object_get_string(OpaquePointer(object))))
    else { return }
    row.key = key
    boundRows[key] = row
    fill(row, key)
  }

  private func unbind(_ item: OpaquePointer?) {
    guard let item, let child = gtk_list_item_get_child(item), let row = rows[UnsafeMutableRawPointer(child)],
      let key = row.key
    else { return }
    if editor?.row === row { finishEditing(commit: true) }
    if boundRows[key] === row { boundRows[key] = nil }
    row.key = nil
  }

  private func tearDown(_ item: OpaquePointer?) {
    guard let item, let child = gtk_list_item_get_child(item) else { return }
    rows[UnsafeMutableRawPointer(child)] = nil
  }

  private func fill(_ row: TaskRow, _ key: RowKey) {
    binding = true
    defer { binding = false }
    switch key {
    case .task(let id):
      guard let task = tasks[id] else { return }
      row.show(text: task.text, completed: task.completed, note: "", confirmed: true)
    case .pending(let id):
      // Shown at once, confirmed by the server later; it cannot be ticked until then.
      guard let waiting = pending[id] else { return }
      let note = waiting.refusal.map { String(format: tr("refused: %@"), $0) } ?? tr("waiting to be sent")
      row.show(text: waiting.text, completed: false, note: note, confirmed: false)
    }
  }

  // MARK: Editing

  /// Puts an entry with the task's text in place of its label. Enter or leaving the entry saves, Escape cancels.
  private func startEditing(at position: Int) {
    guard position < keys.count, case .task(let id) = keys[position], let task = tasks[id],
      let row = boundRows[keys[position]]
    else { return }
    finishEditing(commit: true)
    let entry = gtk_entry_new()!
    gtk_editable_set_text(OpaquePointer(entry), task.text)
    gtk_widget_set_hexpand(entry, 1)
    gtk_widget_set_valign(entry, GTK_ALIGN_CENTER)
    b2c_accessible_set_label(entry, task.text)
    gtk_box_insert_child_after(row.box.cast(to: gtk_box_get_type(), as: GtkBox.self), entry, row.check)
    gtk_widget_set_visible(row.label, 0)
    editor = (row, entry, id)
    Signal.connect(entry, "activate") { [unowned self] in self.finishEditing(commit: true) }
    let keys = gtk_event_controller_key_new()!
    Signal.connectKeyPressed(keys) { [unowned self] keyval in
      guard keyval == UInt32(GDK_KEY_Escape) else { return false }
      self.finishEditing(commit: false)
      return true
    }
    gtk_widget_add_controller(entry, keys)
    let focus = gtk_event_controller_focus_new()!
    Signal.connect(focus, "leave") { [unowned self] in
      // After the focus has moved: ending the edit removes the entry.
      Task { if self.editor?.entry == entry { self.finishEditing(commit: true) } }
    }
    gtk_widget_add_controller(entry, focus)
    gtk_widget_grab_focus(entry)
    gtk_editable_select_region(OpaquePointer(entry), 0, -1)
  }

  /// Ends the edit in progress, saving a changed, non-empty text when `commit`; focus goes back to the row.
  private func finishEditing(commit: Bool) {
    guard let (row, entry, id) = editor else { return }
    editor = nil
    let text = String(cString: gtk_editable_get_text(OpaquePointer(entry)))
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let hadFocus = gtk_widget_has_focus(entry) != 0 || gtk_widget_get_focus_child(entry) != nil
    gtk_widget_set_visible(row.label, 1)
    gtk_box_remove(row.box.cast(to: gtk_box_get_type(), as: GtkBox.self), entry)
    if hadFocus, let item = gtk_widget_get_parent(row.box) { gtk_widget_grab_focus(item) }
    // An emptied text is not saved: the task keeps its text.
    guard commit, let task = tasks[id], !text.isEmpty, text != task.text else { return }
    onEdit(task, text)
  }
}

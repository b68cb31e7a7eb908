// TaskListController: the task-list page: a virtualised, sorted and filtered GtkListView of the user's tasks, its
// rows, their keys and context menu, editing, and the page's empty states. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// Shows tasks in a `GtkListView`: `TaskListState` holds the rows and answers the edits each change makes;
/// `TaskListModel` keeps only their keys for GTK (filtered while a search or hidden completed tasks need it), and
/// `TaskRowFactory` the widgets of what is on screen, however long the list; a change touches only the rows that
/// moved.
///
/// The row is the keyboard stop: Space ticks, Delete deletes, Enter or F2 edits, the Menu key or Shift+F10 opens
/// its context menu (also on right-click). Double-click edits. Tasks being deleted (their Undo toast showing) are
/// kept out of the list until `forget` or `restore`.
@MainActor
final class TaskListController {
  private let listView: OpaquePointer
  private let listStack: OpaquePointer
  private let emptyPage: OpaquePointer
  private let emptyAddButton: UnsafeMutablePointer<GtkWidget>
  private let model = TaskListModel()
  private let rowFactory = TaskRowFactory()
  /// The list's data, order, filter and highlight; every change answers the model edits to make.
  private var state = TaskListState()
  private let editor = TaskRowEditor()
  private let menu: TaskRowMenu
  /// Called when the user ticks or unticks a task.
  var onToggle: (TaskItem, Bool) -> Void = { _, _ in }
  /// Called when the user changed a task's text (already trimmed and not empty).
  var onEdit: (TaskItem, String) -> Void = { _, _ in }
  /// Called when the user asks for a task's details (its whole text in a multi-line editor).
  var onOpenDetails: (TaskItem) -> Void = { _ in }
  /// Called when the user deletes a row (its button, the Delete key or the context menu).
  var onDelete: (RowKey) -> Void = { _ in }
  /// Called when Tab leaves the list: past its last row (`true`) or before its first (`false`).
  var onLeave: (_ forward: Bool) -> Void = { _ in }
  /// Called with a message for a toast ("Copied").
  var onMessage: (String) -> Void = { _ in }

  /// How the list is sorted.
  var sortOrder: TaskSortOrder {
    get { state.sortOrder }
    set { model.apply(state.setSortOrder(newValue)) }
  }

  /// Whether completed tasks are shown (after the open ones).
  var showCompleted: Bool {
    get { state.showCompleted }
    set { if let change = state.setShowCompleted(newValue) { applyFilter(change) } }
  }

  /// What the search bar holds.
  var search: TaskSearch {
    get { state.search }
    set { if let change = state.setSearch(newValue) { applyFilter(change) } }
  }

  /// The number of rows, confirmed or waiting, shown or not (those being deleted aside).
  var count: Int { state.count }

  /// The server's tasks in the order shown (for the offline copy), those being deleted aside.
  var confirmedTasks: [TaskItem] { state.confirmedTasks }

  /// The completed tasks' rows, in the order shown.
  var completedKeys: [RowKey] { state.completedKeys }

  init(builder: Builder) {
    listView = builder.opaqueObject("task_list", gtk_list_view_get_type())
    listStack = builder.opaqueObject("list_stack", gtk_stack_get_type())
    emptyPage = builder.opaqueObject("empty_page", adw_status_page_get_type())
    emptyAddButton = builder.object("empty_add_task_button", gtk_widget_get_type())
    menu = TaskRowMenu(on: listView.widget)
    gtk_list_view_set_model(listView, model.selection)
    gtk_list_view_set_factory(listView, rowFactory.factory)
    model.setFilter { [weak self] key in self?.state.isShown(key) ?? true }
    model.onChange { [weak self] in self?.showEmptyState() }
    rowFactory.content = { [unowned self] key in
      self.state.content(key).map { ($0, key == self.state.highlighted) }
    }
    rowFactory.onToggled = { [unowned self] key, done in
      if let task = self.state.task(key) { self.onToggle(task, done) }
    }
    rowFactory.onDeleteClicked = { [unowned self] key in self.onDelete(key) }
    rowFactory.onContextClick = { [unowned self] row, x, y in self.openMenu(for: row, at: (x, y)) }
    rowFactory.onUnbind = { [unowned self] row in
      if self.editor.isEditing(row) { self.editor.finish(saving: true) }
    }
    // After the click that activated the row is handled: the row takes keyboard focus at the end of it, which
    // would end an edit started at once.
    Signal.connectPosition(listView, "activate") { [unowned self] position in
      Task { if let key = self.model.key(at: Int(position)) { self.startEditing(key) } }
    }
    let keys = gtk_event_controller_key_new()!
    Signal.connectKeyPressed(keys) { [unowned self] keyval in self.keyPressed(keyval, keys) }
    // Before the row sees them: its own binding takes Space (to select, which this list does not do).
    gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
    gtk_widget_add_controller(listView.widget, keys)
    menu.onCommand = { [unowned self] command, key in self.run(command, key) }
    editor.onSave = { [unowned self] id, text in
      // An emptied text is not saved: the task keeps its text.
      guard let task = self.state.task(.task(id)), !text.isEmpty, text != task.text else { return }
      self.onEdit(task, text)
    }
    showEmptyState()
  }

  // MARK: Contents

  /// Replaces the list: the server's tasks (with the outbox's changes made; `changed` are the ids of those with a
  /// change waiting), the tasks still waiting in the outbox, and the server's ids of tasks sent since (`sent`, by
  /// outbox id: the highlight of a task just added follows it). Only rows that moved are replaced in the model, so a
  /// refresh keeps the scroll position and keyboard focus, and costs GTK nothing when nothing changed; rows on
  /// screen are redrawn with the new data.
  func show(
    _ items: [TaskItem], waiting: [PendingTask] = [], changed: Set<Int64> = [], sent: [String: Int64] = [:]
  ) {
    model.apply(state.show(items, waiting: waiting, changed: changed, sent: sent))
    rowFactory.refillAll()
  }

  /// Adds a task that waits in the outbox, at once, and shows it: scrolled into view and briefly highlighted.
  func append(_ task: PendingTask) {
    model.apply(state.append(task))
    reveal(.pending(task.id))
  }

  /// Changes one task (`waiting`: the change is not sent yet): its row moves if its place in the order changed,
  /// and is redrawn if it is on screen.
  func update(_ task: TaskItem, waiting: Bool = false) {
    let key = RowKey.task(task.id)
    let hadFocus = focusedRow()?.key == key
    let before = state.keys
    model.apply(state.update(task, waiting: waiting))
    // A row ticked from the keyboard moves after the open ones: the focus goes with it.
    if hadFocus && before != state.keys { focus(key) }
    rowFactory.refill([key])
  }

  /// Marks the tasks with a change still waiting in the outbox (the others were sent); their rows say so.
  func markWaiting(_ ids: Set<Int64>) {
    rowFactory.refill(state.markWaiting(ids))
  }

  /// Redraws the rows on screen (their ages move on with the clock).
  func redrawAges() {
    state.forgetAges()
    rowFactory.refillAll()
  }

  /// The task of a row, if it is the server's.
  func task(_ key: RowKey) -> TaskItem? { state.task(key) }

  /// Takes rows out of the list (while their Undo toast shows); `restore` puts them back in their places.
  func remove(_ removed: [RowKey]) {
    let focusedIndex = focusedRow().flatMap { $0.key }.flatMap { position(of: $0) }
    model.apply(state.remove(removed))
    // The keyboard stays where the row was: on the next one (or the new last).
    if let focusedIndex { focusRow(at: focusedIndex) }
  }

  /// Puts rows taken out by `remove` back (Undo, or a deletion that failed); `focusing`, the first of them takes
  /// the keyboard focus (an Undo brings the focus back with the row).
  func restore(_ restored: [RowKey], focusing: Bool = false) {
    model.apply(state.restore(restored))
    if focusing,
      let first = restored.compactMap({ key in position(of: key).map { (key, $0) } }).min(by: { $0.1 < $1.1 })
    {
      focus(first.0)
    }
  }

  /// Drops a row for good (the server deleted it).
  func forget(_ key: RowKey) {
    model.apply(state.forget(key))
  }

  // MARK: Filter and empty page

  /// Tells the model what changed in the filter.
  private func applyFilter(_ change: FilterChange) {
    model.filterChanged(change, needed: state.needsFilter, count: state.count)
    showEmptyState()
  }

  /// The page shows the list, or a status page saying why nothing is in it.
  private func showEmptyState() {
    let shown = model.shownCount
    gtk_stack_set_visible_child_name(listStack, shown > 0 ? "list" : "empty")
    gtk_widget_set_visible(gtk_stack_get_child_by_name(listStack, "list"), shown > 0 ? 1 : 0)
    gtk_widget_set_visible(gtk_stack_get_child_by_name(listStack, "empty"), shown > 0 ? 0 : 1)
    guard shown == 0 else { return }
    let reason = state.emptyReason
    let (title, description): (String, String) =
      switch reason {
      case .noTasks: (tr("No Tasks"), tr("Tasks you add appear here."))
      case .noMatches: (tr("No Matching Tasks"), tr("No task contains what you searched for."))
      case .allDone: (tr("All Done"), tr("Your completed tasks are hidden. Show them from the main menu."))
      }
    adw_status_page_set_title(emptyPage, title)
    PlainText.setDescription(emptyPage, description)
    gtk_widget_set_visible(emptyAddButton, reason == .noTasks ? 1 : 0)
  }

  /// Where `key` is among the rows shown.
  private func position(of key: RowKey) -> Int? {
    model.position(of: key, in: state.keys)
  }

  /// Scrolls the row at `position` of what is shown into view.
  private func scroll(to position: Int) {
    gtk_widget_activate_action_variant(listView.widget, "list.scroll-to-item", g_variant_new_uint32(UInt32(position)))
  }

  /// Scrolls `key` into view and highlights it for a moment.
  private func reveal(_ key: RowKey) {
    if let position = position(of: key) { scroll(to: position) }
    rowFactory.row(showing: key)?.highlight(true)
    Task {
      try? await Task.sleep(for: .seconds(2))
      guard let current = self.state.clearHighlight() else { return }
      self.rowFactory.row(showing: current)?.highlight(false)
    }
  }

  // MARK: Keyboard

  /// The row whose list item has the keyboard focus (or holds the focused editor).
  private func focusedRow() -> TaskRow? {
    guard let root = gtk_widget_get_root(listView.widget), var widget = gtk_root_get_focus(root) else { return nil }
    while widget != listView.widget {
      if let row = rowFactory.row(at: widget) { return row }
      guard let parent = gtk_widget_get_parent(widget) else { return nil }
      widget = parent
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
  private func focusRow(at position: Int) {
    let count = model.shownCount
    guard count > 0, let key = model.key(at: min(position, count - 1)) else { return }
    focus(key)
  }

  /// Scrolls `key` into view and gives its row the keyboard focus (once the list has made its widget).
  private func focus(_ key: RowKey, tries: Int = 3) {
    guard let position = position(of: key) else { return }
    scroll(to: position)
    if let item = rowFactory.row(showing: key)?.listItem {
      item.grabFocus()
    } else if tries > 0 {
      Task { self.focus(key, tries: tries - 1) }
    }
  }

  private func keyPressed(_ keyval: UInt32, _ controller: OpaquePointer) -> Bool {
    guard !editor.isEditing, let row = focusedRow(), let key = row.key else { return false }
    let modifiers = gtk_event_controller_get_current_event_state(controller)
    let shift = modifiers.rawValue & GDK_SHIFT_MASK.rawValue != 0
    switch Int32(keyval) {
    case GDK_KEY_Tab, GDK_KEY_ISO_Left_Tab:
      // A Tab stop per row, then out of the list. (GTK 4.8's list view, left to itself here, kept the focus.)
      let forward = keyval == UInt32(GDK_KEY_Tab) && !shift
      let count = model.shownCount
      guard let position = position(of: key) else { return false }
      let next = forward ? position + 1 : position - 1
      if next >= 0 && next < count { focusRow(at: next) } else { onLeave(forward) }
    case GDK_KEY_space:
      guard let task = state.task(key) else { return true }
      onToggle(task, !task.completed)
    case GDK_KEY_Delete, GDK_KEY_KP_Delete:
      onDelete(key)
    case GDK_KEY_F2:
      startEditing(key)
    case GDK_KEY_Menu:
      openMenu(for: row, at: nil)
    case GDK_KEY_F10 where shift:
      openMenu(for: row, at: nil)
    default:
      return false
    }
    return true
  }

  // MARK: Context menu

  /// Opens the row's menu, at the pointer or under the row.
  private func openMenu(for row: TaskRow, at point: (Double, Double)?) {
    guard let key = row.key else { return }
    menu.open(for: row, key: key, task: state.task(key), at: point)
  }

  /// Runs a command of the row's menu.
  private func run(_ command: RowMenuCommand, _ key: RowKey) {
    switch command {
    case .edit: startEditing(key)
    case .details: if let task = state.task(key) { onOpenDetails(task) }
    case .markDone, .markNotDone: if let task = state.task(key) { onToggle(task, command == .markDone) }
    case .copy:
      guard let text = state.text(key) else { return }
      gdk_clipboard_set_text(gtk_widget_get_clipboard(listView.widget), text)
      onMessage(tr("Text copied"))
    case .delete: onDelete(key)
    }
  }

  // MARK: Editing

  /// Edits the task's text in its row (scrolled into view first); a text of several lines opens the details
  /// instead (an entry holds one line).
  private func startEditing(_ key: RowKey) {
    guard let task = state.task(key) else { return }
    if task.text.contains(where: \.isNewline) { return onOpenDetails(task) }
    if rowFactory.row(showing: key) == nil, let position = position(of: key) { scroll(to: position) }
    guard let row = rowFactory.row(showing: key) else { return }
    editor.start(task, in: row)
  }

  /// Whether a row's text is being edited (a live refresh waits until it is not).
  var isEditing: Bool { editor.isEditing }
}

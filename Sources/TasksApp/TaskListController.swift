// TaskListController: the task-list page: a virtualised, sorted and filtered GtkListView of the user's tasks, its
// rows, their keys and context menu, editing, and the page's empty states. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// Shows tasks in a `GtkListView`. The model is a `GtkStringList` of row keys in the order shown (sorted here, in
/// Swift, from cached facts), under a `GtkFilterListModel` for search and hidden completed tasks, which is taken out
/// of the chain when it would let everything through. GTK keeps only keys, and widgets for what is on screen,
/// however long the list; a change touches only the rows that moved.
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
  private let model: OpaquePointer
  private let filterModel: OpaquePointer
  private var filter: CustomFilter?
  private var filterInUse = false
  private let factory: OpaquePointer
  /// The list's data, order, filter and highlight; every change answers the model edits to make.
  private var state = TaskListState()
  private var rows: [UnsafeMutableRawPointer: TaskRow] = [:]
  private var boundRows: [RowKey: TaskRow] = [:]
  private var binding = false
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
    set { apply(state.setSortOrder(newValue)) }
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
    model = gtk_string_list_new(nil)
    factory = gtk_signal_list_item_factory_new()
    menu = TaskRowMenu(on: listView.widget)
    g_object_ref(model.gpointer)  // the filter model takes a reference of its own
    filterModel = gtk_filter_list_model_new(OpaquePointer(model.gpointer), nil)
    g_object_ref(filterModel.gpointer)  // and the selection model of the filter model
    let selection = gtk_no_selection_new(OpaquePointer(filterModel.gpointer))
    gtk_list_view_set_model(listView, selection)
    gtk_list_view_set_factory(listView, factory)
    Signal.connect(factory, "setup") { [unowned self] item in self.setUp(OpaquePointer(item)) }
    Signal.connect(factory, "bind") { [unowned self] item in self.bind(OpaquePointer(item)) }
    Signal.connect(factory, "unbind") { [unowned self] item in self.unbind(OpaquePointer(item)) }
    // GTK 4.8 does not recycle row widgets: a jump far down a long list destroys them and sets up new ones.
    Signal.connect(factory, "teardown") { [unowned self] item in self.tearDown(OpaquePointer(item)) }
    Signal.connectItemsChanged(filterModel) { [unowned self] _, _, _ in self.showEmptyState() }
    // After the click that activated the row is handled: the row takes keyboard focus at the end of it, which
    // would end an edit started at once.
    Signal.connectPosition(listView, "activate") { [unowned self] position in
      Task { if let key = self.key(at: position) { self.startEditing(key) } }
    }
    let keys = gtk_event_controller_key_new()!
    Signal.connectKeyPressed(keys) { [unowned self] keyval in self.keyPressed(keyval, keys) }
    // Before the row sees them: its own binding takes Space (to select, which this list does not do).
    gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
    gtk_widget_add_controller(listView.widget, keys)
    filter = CustomFilter { [weak self] item in
      guard let self, let key = RowKey(modelString: String(cString: gtk_string_object_get_string(OpaquePointer(item))))
      else { return true }
      return self.state.isShown(key)
    }
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
    apply(state.show(items, waiting: waiting, changed: changed, sent: sent))
    for (key, row) in boundRows { fill(row, key) }
  }

  /// Adds a task that waits in the outbox, at once, and shows it: scrolled into view and briefly highlighted.
  func append(_ task: PendingTask) {
    apply(state.append(task))
    reveal(.pending(task.id))
  }

  /// Changes one task (`waiting`: the change is not sent yet): its row moves if its place in the order changed,
  /// and is redrawn if it is on screen.
  func update(_ task: TaskItem, waiting: Bool = false) {
    let key = RowKey.task(task.id)
    let hadFocus = focusedRow()?.key == key
    let before = state.keys
    apply(state.update(task, waiting: waiting))
    // A row ticked from the keyboard moves after the open ones: the focus goes with it.
    if hadFocus && before != state.keys { focus(key) }
    if let row = boundRows[key] { fill(row, key) }
  }

  /// Marks the tasks with a change still waiting in the outbox (the others were sent); their rows say so.
  func markWaiting(_ ids: Set<Int64>) {
    for key in state.markWaiting(ids) {
      if let row = boundRows[key] { fill(row, key) }
    }
  }

  /// Redraws the rows on screen (their ages move on with the clock).
  func redrawAges() {
    state.forgetAges()
    for (key, row) in boundRows { fill(row, key) }
  }

  /// The task of a row, if it is the server's.
  func task(_ key: RowKey) -> TaskItem? { state.task(key) }

  /// The waiting task of a row, if it is one.
  func pendingTask(_ key: RowKey) -> PendingTask? { state.pendingTask(key) }

  /// Takes rows out of the list (while their Undo toast shows); `restore` puts them back in their places.
  func remove(_ removed: [RowKey]) {
    let focusedIndex = focusedRow().flatMap { $0.key }.flatMap { position(of: $0) }
    apply(state.remove(removed))
    // The keyboard stays where the row was: on the next one (or the new last).
    if let focusedIndex { focusRow(at: focusedIndex) }
  }

  /// Puts rows taken out by `remove` back (Undo, or a deletion that failed); `focusing`, the first of them takes
  /// the keyboard focus (an Undo brings the focus back with the row).
  func restore(_ restored: [RowKey], focusing: Bool = false) {
    apply(state.restore(restored))
    if focusing,
      let first = restored.compactMap({ key in position(of: key).map { (key, $0) } }).min(by: { $0.1 < $1.1 })
    {
      focus(first.0)
    }
  }

  /// Drops a row for good (the server deleted it).
  func forget(_ key: RowKey) {
    apply(state.forget(key))
  }

  /// Makes the model's edits.
  private func apply(_ edits: [ListEdit]) {
    for edit in edits {
      withCStringArray(edit.insert.map(\.modelString)) { array in
        gtk_string_list_splice(model, UInt32(edit.at), UInt32(edit.remove), array)
      }
    }
  }

  // MARK: Filtering

  /// Tells the filter model what changed; with nothing to filter, the filter leaves the chain (no call per row).
  private func applyFilter(_ change: FilterChange) {
    let needed = state.needsFilter
    // Long lists are filtered a slice at a time, so typing in the search stays smooth.
    gtk_filter_list_model_set_incremental(filterModel, state.count > 5000 ? 1 : 0)
    guard let filter else { return }
    if needed && filterInUse {
      let gtkChange =
        switch change {
        case .moreStrict: GTK_FILTER_CHANGE_MORE_STRICT
        case .lessStrict: GTK_FILTER_CHANGE_LESS_STRICT
        case .different: GTK_FILTER_CHANGE_DIFFERENT
        }
      filter.changed(gtkChange)
    } else if needed {
      gtk_filter_list_model_set_filter(filterModel, filter.filter)
      filterInUse = true
    } else if filterInUse {
      gtk_filter_list_model_set_filter(filterModel, nil)
      filterInUse = false
    }
    showEmptyState()
  }

  /// The page shows the list, or a status page saying why nothing is in it.
  private func showEmptyState() {
    let shown = g_list_model_get_n_items(OpaquePointer(filterModel.gpointer))
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

  /// The row at `position` of what is shown.
  private func key(at position: UInt32) -> RowKey? {
    guard let object = g_list_model_get_item(OpaquePointer(filterModel.gpointer), position) else { return nil }
    defer { g_object_unref(object) }
    return RowKey(modelString: String(cString: gtk_string_object_get_string(OpaquePointer(object))))
  }

  /// Where `key` is among the rows shown.
  private func position(of key: RowKey) -> Int? {
    if !filterInUse { return state.keys.firstIndex(of: key) }
    let count = g_list_model_get_n_items(OpaquePointer(filterModel.gpointer))
    return (0..<count).first { self.key(at: $0) == key }.map(Int.init)
  }

  // MARK: Rows

  private func setUp(_ item: OpaquePointer?) {
    guard let item else { return }
    let row = TaskRow()
    gtk_list_item_set_child(item, row.box)
    rows[UnsafeMutableRawPointer(row.box)] = row
    Signal.connect(row.check, "toggled") { [unowned self, unowned row] in
      guard !self.binding, let key = row.key, let task = self.state.task(key) else { return }
      self.onToggle(
        task, gtk_check_button_get_active(row.check.cast(to: gtk_check_button_get_type(), as: GtkCheckButton.self)) != 0
      )
    }
    Signal.connect(row.delete, "clicked") { [unowned self, unowned row] in
      if let key = row.key { self.onDelete(key) }
    }
    let click = gtk_gesture_click_new()!
    gtk_gesture_single_set_button(click, 3)
    Signal.connectClick(click, "pressed") { [unowned self, unowned row] x, y in
      self.openMenu(for: row, at: (x, y))
    }
    gtk_widget_add_controller(row.box, click)
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
    if editor.isEditing(row) { editor.finish(saving: true) }
    if boundRows[key] === row { boundRows[key] = nil }
    row.key = nil
  }

  private func tearDown(_ item: OpaquePointer?) {
    guard let item, let child = gtk_list_item_get_child(item) else { return }
    rows.removeValue(forKey: UnsafeMutableRawPointer(child))?.retire()
  }

  private func fill(_ row: TaskRow, _ key: RowKey) {
    binding = true
    defer { binding = false }
    guard let content = state.content(key) else { return }
    row.show(content)
    row.highlight(key == state.highlighted)
  }

  /// Scrolls `key` into view and highlights it for a moment.
  private func reveal(_ key: RowKey) {
    if let position = position(of: key) {
      gtk_widget_activate_action_variant(listView.widget, "list.scroll-to-item", g_variant_new_uint32(UInt32(position)))
    }
    if let row = boundRows[key] { row.highlight(true) }
    Task {
      try? await Task.sleep(for: .seconds(2))
      guard let current = self.state.clearHighlight() else { return }
      self.boundRows[current]?.highlight(false)
    }
  }

  // MARK: Keyboard

  /// The row whose list item has the keyboard focus (or holds the focused editor).
  private func focusedRow() -> TaskRow? {
    guard let root = gtk_widget_get_root(listView.widget), var widget = gtk_root_get_focus(root) else { return nil }
    while widget != listView.widget {
      if let row = rows[UnsafeMutableRawPointer(widget)] { return row }
      if let child = gtk_widget_get_first_child(widget), let row = rows[UnsafeMutableRawPointer(child)] { return row }
      guard let parent = gtk_widget_get_parent(widget) else { return nil }
      widget = parent
    }
    return nil
  }

  /// Gives the keyboard focus to the first row shown; answers whether there was one.
  func focusFirstRow() -> Bool {
    guard g_list_model_get_n_items(OpaquePointer(filterModel.gpointer)) > 0 else { return false }
    focusRow(at: 0)
    return true
  }

  /// Gives the keyboard focus to the last row shown; answers whether there was one.
  func focusLastRow() -> Bool {
    let count = Int(g_list_model_get_n_items(OpaquePointer(filterModel.gpointer)))
    guard count > 0 else { return false }
    focusRow(at: count - 1)
    return true
  }

  /// Gives the keyboard focus to the row at `position` of what is shown (or the last one).
  private func focusRow(at position: Int) {
    let count = Int(g_list_model_get_n_items(OpaquePointer(filterModel.gpointer)))
    guard count > 0, let key = key(at: UInt32(min(position, count - 1))) else { return }
    focus(key)
  }

  /// Scrolls `key` into view and gives its row the keyboard focus (once the list has made its widget).
  private func focus(_ key: RowKey, tries: Int = 3) {
    guard let position = position(of: key) else { return }
    gtk_widget_activate_action_variant(listView.widget, "list.scroll-to-item", g_variant_new_uint32(UInt32(position)))
    if let item = boundRows[key]?.listItem {
      gtk_widget_grab_focus(item)
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
      let count = Int(g_list_model_get_n_items(OpaquePointer(filterModel.gpointer)))
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
    if boundRows[key] == nil, let position = position(of: key) {
      gtk_widget_activate_action_variant(listView.widget, "list.scroll-to-item", g_variant_new_uint32(UInt32(position)))
    }
    guard let row = boundRows[key] else { return }
    editor.start(task, in: row)
  }

  /// Whether a row's text is being edited (a live refresh waits until it is not).
  var isEditing: Bool { editor.isEditing }
}

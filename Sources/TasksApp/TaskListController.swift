// TaskListController: the task-list page: a virtualised, sorted and filtered GtkListView of the user's tasks, its
// rows, their keys and context menu, editing, and the page's empty states. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksAccount
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
final class TaskListController: TaskListView {
  // Template widgets (the builder keeps them).
  private let listView: ListView
  private let emptyPage: TaskListEmptyPage
  // Owned.
  private let model = TaskListModel()
  private let rowFactory = TaskRowFactory()
  /// The list's data, order, filter and highlight; every change answers the model edits to make.
  private var state = TaskListState()
  private let editor = TaskRowEditor()
  private let menu: TaskRowMenu
  private let keyboard: TaskListKeyboard
  /// Called when the user ticks or unticks a task.
  var onToggle: (TaskItem, Bool) -> Void = { _, _ in }
  /// Called when the user changed a task's text (already trimmed and not empty).
  var onEdit: (TaskItem, String) -> Void = { _, _ in }
  /// Called when the user asks for a task's details (its whole text in a multi-line editor).
  var onOpenDetails: (TaskItem) -> Void = { _ in }
  /// Called when the user deletes a row (its button, the Delete key or the context menu).
  var onDelete: (RowKey) -> Void = { _ in }
  /// Called when Tab leaves the list: past its last row (`true`) or before its first (`false`).
  var onLeave: (_ forward: Bool) -> Void {
    get { keyboard.onLeave }
    set { keyboard.onLeave = newValue }
  }
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
    listView = builder.widget("task_list", as: ListView.init)
    emptyPage = TaskListEmptyPage(builder: builder)
    menu = TaskRowMenu(on: listView.asWidget)
    keyboard = TaskListKeyboard(listView: listView.asWidget, model: model, rows: rowFactory)
    listView.show(model.selection, rows: rowFactory.factory)
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
    keyboard.position = { [unowned self] key in self.position(of: key) }
    keyboard.isPaused = { [unowned self] in self.editor.isEditing }
    keyboard.onIntent = { [unowned self] intent, row, key in self.run(intent, row, key) }
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
    // A long list's first rows are given to GTK as many as the window shows (rows are at least 32 pixels high),
    // and the rest once it is drawn.
    let fill = listView.windowHeight.map { $0 / 32 + 1 } ?? 50
    model.apply(state.show(items, waiting: waiting, changed: changed, sent: sent), fill: fill)
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
    let hadFocus = keyboard.focusedRow()?.key == key
    let before = state.keys
    model.apply(state.update(task, waiting: waiting))
    // A row ticked from the keyboard moves after the open ones: the focus goes with it.
    if hadFocus && before != state.keys { keyboard.focus(key) }
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
    let focusedIndex = keyboard.focusedRow().flatMap { $0.key }.flatMap { position(of: $0) }
    model.apply(state.remove(removed))
    // The keyboard stays where the row was: on the next one (or the new last).
    if let focusedIndex { keyboard.focusRow(at: focusedIndex) }
  }

  /// Puts rows taken out by `remove` back (Undo, or a deletion that failed); `focusing`, the first of them takes
  /// the keyboard focus (an Undo brings the focus back with the row).
  func restore(_ restored: [RowKey], focusing: Bool = false) {
    model.apply(state.restore(restored))
    if focusing,
      let first = restored.compactMap({ key in position(of: key).map { (key, $0) } }).min(by: { $0.1 < $1.1 })
    {
      keyboard.focus(first.0)
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
    emptyPage.show(model.shownCount > 0 ? nil : state.emptyReason)
  }

  /// Where `key` is among the rows shown.
  private func position(of key: RowKey) -> Int? {
    model.position(of: key, in: state.keys)
  }

  /// Scrolls `key` into view and highlights it for a moment.
  private func reveal(_ key: RowKey) {
    if let position = position(of: key) { keyboard.scroll(to: position) }
    rowFactory.row(showing: key)?.highlight(true)
    Task {
      try? await Task.sleep(for: .seconds(2))
      guard let current = self.state.clearHighlight() else { return }
      self.rowFactory.row(showing: current)?.highlight(false)
    }
  }

  // MARK: Keys and the context menu

  /// Does what a key asked of a row.
  private func run(_ intent: TaskListKeyboard.Intent, _ row: TaskRow, _ key: RowKey) {
    switch intent {
    case .toggle: if let task = state.task(key) { onToggle(task, !task.completed) }
    case .delete: onDelete(key)
    case .edit: startEditing(key)
    case .menu: openMenu(for: row, at: nil)
    }
  }

  /// Gives the keyboard focus to the first row shown; answers whether there was one.
  func focusFirstRow() -> Bool { keyboard.focusFirstRow() }

  /// Gives the keyboard focus to the last row shown; answers whether there was one.
  func focusLastRow() -> Bool { keyboard.focusLastRow() }

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
      listView.copyToClipboard(text)
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
    if rowFactory.row(showing: key) == nil, let position = position(of: key) { keyboard.scroll(to: position) }
    guard let row = rowFactory.row(showing: key) else { return }
    editor.start(task, in: row)
  }

  /// Whether a row's text is being edited (a live refresh waits until it is not).
  var isEditing: Bool { editor.isEditing }
}

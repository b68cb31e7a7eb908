// PlannerController: the planner in the window — what the account's `PlannerOperations` show, kept in the core's
// `PlannerViewState` and handed to its rooms: the sidebar (`PlannerNavigation`), the list page (`PlannerListPage`),
// a task's details (`TaskDetailsWindow`) and the page's edits (`PlannerTaskEditor`). Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksAccount
import TasksCore

/// Shows the account's lists and tasks: the sidebar (Today, Upcoming, the lists) and, for the entry chosen, the one
/// list page (every list, the default one included, Today and Upcoming). Ticks finish a task (a repeating one moves
/// to its next date, with Undo); deletions wait for their toast's Undo; a conflict the sync could not merge shows a
/// toast with Use Mine.
@MainActor
final class PlannerController: PlannerView {
  // Owned.
  let navigation: PlannerNavigation
  private(set) var page: PlannerListPage!
  private(set) var editor: PlannerTaskEditor!
  private(set) var state: PlannerViewState
  /// Lists whose deletion can still be undone (not shown), and what the planner showed last.
  private var hidden = (lists: Set<UUID>(), lastShown: PlannerShown?.none)
  private var details: TaskDetailsWindow?
  private var taskToOpen: UUID?
  private var membersAsked: Set<UUID> = []  // lists whose members are being asked for
  // Borrowed.
  let planner: PlannerOperations
  private let toasts: ToastShelf
  /// The window the details open over.
  var window: Window?
  /// Says that the task service cannot be reached (the window's banner), or (nil) that it can.
  var onOffline: (NetworkError?, Date?) -> Void = { _, _ in }

  init(builder: Builder, planner: PlannerOperations, toasts: ToastShelf) {
    navigation = PlannerNavigation(builder: builder)
    self.planner = planner
    self.toasts = toasts
    let now = DueLabel.now()
    state = PlannerViewState(today: now.today, now: now.time)
    page = PlannerListPage(builder: builder, controller: self)
    editor = PlannerTaskEditor(planner: planner, toasts: toasts) { [weak self] in self?.state }
    let factory = page.factory
    factory.content = { [unowned self] id in self.state.content(id) }
    factory.heading = { [unowned self] date in self.state.heading(date) }
    factory.onToggled = { [unowned self] id, done in self.editor.setDone(id, done) }
    factory.canMove = { [unowned self] id in self.state.reordering(id, by: 0) != nil }
    factory.onDropped = { [unowned self] id, target in
      guard let offset = self.state.offset(moving: id, to: target), offset != 0 else { return false }
      self.move(id, by: offset)
      return true
    }
    navigation.onChoose = { [unowned self] selection in
      if selection != self.state.selection { self.select(selection) }
    }
    page.quickEntry.onAdd = { [unowned self] reading in self.add(reading) }
    planner.view = self
  }

  // MARK: PlannerView

  func show(_ shown: PlannerShown) {
    hidden.lastShown = shown
    var shown = shown
    if !hidden.lists.isEmpty {
      shown.lists.removeAll { hidden.lists.contains($0.id) }
      shown.tasks.removeAll { hidden.lists.contains($0.listID) }
    }
    let now = DueLabel.now()
    var changes = state.setNow(today: now.today, now: now.time)
    let before = state.selection
    // Until the user chooses, the default list is shown (chosen here, before any other entry's rows are made).
    let home = navigation.chosen ? nil : shown.lists.first(where: \.isDefault)
    let selecting = home.map { PlannerSelection.list($0.id) }
    let more =
      if let indexed = shown.indexed {
        state.show(lists: shown.lists, indexed: indexed, waiting: shown.waiting, selecting: selecting)
      } else {
        state.show(lists: shown.lists, tasks: shown.tasks, waiting: shown.waiting, selecting: selecting)
      }
    changes.rows += more.rows
    changes.changedRows.formUnion(more.changedRows)
    page.show(state.rows, edits: changes.rows, refill: changes.changedRows)
    navigation.showSidebar(!shown.lists.isEmpty)
    if !navigation.chosen, let home = state.defaultList, state.selection != .list(home.id) {
      select(.list(home.id))  // a service without a default list: its first
    } else if state.selection != before || more.selectionMoved {
      selectionShown(after: before)
    }
    navigation.sidebar.show(state.entries, selected: state.selection)
    readMembers(of: shown.lists)
    details?.update()
    if let id = taskToOpen { openTask(id) }
  }

  /// A conflict stays on screen until the user chooses (Use Mine, or closes it): a value of theirs was set aside, and
  /// five seconds are not enough to read which and decide.
  func showConflict(_ conflict: PlannerConflict, useMine: @escaping @MainActor () async -> Void) {
    let toast = Toast.new(conflict.message, button: tr("Use Mine"), untilClosed: true)
    toast.onButtonClicked { [unowned self] in self.planner.soon { _ in await useMine() } }
    toasts.present(toast)
  }

  func showMessage(_ message: String) { toasts.show(message) }

  func showOffline(_ problem: NetworkError?, savedAt: Date?) { onOffline(problem, savedAt) }

  func showUndo(_ title: String, undo: @escaping @MainActor () -> Void, dismissed: @escaping @MainActor () -> Void)
    -> any UndoNotice
  {
    let toast = Toast.new(title, button: tr("Undo"), urgent: true)
    toast.onButtonClicked(undo)
    toast.onDismissed(dismissed)
    toasts.present(toast)
    return toast
  }

  /// Takes a list out of view while its deletion can be undone, or (`false`: Undo) shows it again.
  func hide(list: UUID, _ hide: Bool = true) {
    if hide { hidden.lists.insert(list) } else { hidden.lists.remove(list) }
    if let lastShown = hidden.lastShown { show(lastShown) }
  }

  /// Asks who shares each shared list, so that its entry names them ("Shared with Bob") and its rows who changed
  /// them last: once, and again when a task names someone not known then (a member who joined since).
  private func readMembers(of lists: [PlannerListItem]) {
    for list in lists where list.shared && !membersAsked.contains(list.id) && state.needsMembers(of: list.id) {
      membersAsked.insert(list.id)
      Task {
        defer { membersAsked.remove(list.id) }  // (a failure: asked again at the next refresh)
        guard let members = try? await planner.members(of: list.id) else { return }
        let changes = state.setMembers(members, of: list.id)
        guard !changes.isEmpty else { return }
        page.factory.refill(changes.changedRows)  // rows of tasks someone else changed last name them
        navigation.sidebar.show(state.entries, selected: state.selection)
      }
    }
  }

  // MARK: Adding, searching, deleting

  /// Adds the task quick entry (or the add-task window) read to the list shown (Today and Upcoming: the default
  /// list), with `notes`; answers whether there was one.
  func add(_ reading: QuickEntry, notes: String = "") -> Bool {
    let list = selectedList ?? state.defaultList
    guard list == nil || list?.id == PlannerOperations.provisionalDefaultList else {
      return editor.add(reading, to: list, notes: notes)
    }
    // No list is known yet (signed in while the service could not be reached): the words as typed wait for the
    // default list, whichever it is (its dates are read again once the list is there and the task is edited).
    guard !reading.title.isEmpty else { return false }
    let text = notes.isEmpty ? reading.typed : reading.typed + "\n" + notes
    planner.soon { _ = await $0.addToDefaultList(text) }
    return true
  }

  /// The search bar's words: only the tasks holding them show.
  func search(_ search: TaskSearch) {
    let edits = state.setSearch(search)
    page.show(state.rows, edits: edits, refill: [])
  }

  /// Deletes a task (and its subtasks) at once, with Undo for as long as the toast shows; sent when it goes.
  func deleteTask(_ id: UUID) {
    guard let item = state.item(id) else { return }
    page.keepFocusInPlace(of: id)
    planner.delete([id], title: String(template: tr("“%@” deleted"), item.title))
  }

  /// Ctrl+Z: takes back the last deletion, completion or move; a task deleted comes back with the focus.
  func undo() {
    if case .deletion(let items)? = planner.undoHistory.steps.last?.kind, let first = items.first {
      page.focus(whenShown: first.id)
    }
    planner.undo()
  }

  /// Delete Completed: the finished tasks of the entry shown, with one Undo.
  func deleteCompleted() { planner.deleteCompleted(state.completedTasks) }

  /// Shows or hides finished tasks in a list (Show Completed).
  func setShowCompleted(_ show: Bool) {
    let edits = state.setShowCompleted(show)
    // Told as the window is made, before any list is known: the page waits for the lists (it would show itself
    // empty, and its empty page's icon be read, in a start that shows rows a moment later).
    guard hidden.lastShown != nil else { return }
    page.show(state.rows, edits: edits, refill: [])
  }

  // MARK: A task's details

  /// Shows a task named from outside (a reminder's notification): its list and its details, once the task is known.
  func openTask(_ id: UUID) {
    guard let item = state.item(id) else { return taskToOpen = id }
    taskToOpen = nil
    choose(.list(item.listID))
    openDetails(id)
  }

  /// Opens a task's details (a row activated: Enter, F2 or a double click).
  func openDetails(_ id: UUID, openingCalendar: Bool = false) {
    guard let window, state.item(id) != nil else { return }
    if let details, details.id == id { return details.openCalendar() }
    let opened = TaskDetailsWindow(task: id, controller: self, parent: window)
    opened.onClosed = { [weak self, unowned opened] in
      if self?.details === opened { self?.details = nil }
    }
    details = opened
    opened.present(openingCalendar: openingCalendar)
  }

  /// Ctrl+D: the due date of the task whose row has the focus, in its details.
  func setDueDate() {
    guard let id = page.focusedTask() else { return page.listView.errorBell() }
    openDetails(id, openingCalendar: true)
  }

  /// Alt+Shift+Up/Down: the task whose row has the focus a place up or down in its list (the focus stays on it).
  func moveFocusedTask(by offset: Int) {
    guard let id = page.focusedTask() else { return page.listView.errorBell() }
    move(id, by: offset)
  }

  /// Moves task `id` `offset` places in its list.
  private func move(_ id: UUID, by offset: Int) {
    page.factory.following = id
    editor.move(id, by: offset) { [unowned self] moved in
      if !moved { self.page.listView.errorBell() }
    }
  }

  // MARK: Choosing an entry

  /// Shows `selection` on the list page.
  func select(_ selection: PlannerSelection) {
    let before = state.selection
    _ = state.select(selection)
    if state.selection != before { page.replaceAll(with: state.rows) }
    selectionShown(after: before, rebound: true)
  }

  /// The entry selected now is shown (`before` was selected until then).
  private func selectionShown(after before: PlannerSelection, rebound: Bool = false) {
    // Rows kept from a list to Today or Upcoming (or back) are bound again: those name their list.
    let namesLists = { (selection: PlannerSelection) in if case .list = selection { false } else { true } }
    if !rebound && namesLists(state.selection) != namesLists(before) { page.factory.refillAll() }
    page.show(state.rows, edits: [], refill: [])
    navigation.sidebar.select(state.selection)
  }

  /// Shows `selection` as the user's choice (a list just made or joined, a key): from then on the default list,
  /// when the service's lists come, no longer takes its place.
  func choose(_ selection: PlannerSelection) {
    navigation.choose()
    select(selection)
  }

  /// Alt+Up/Down: the entry above or below.
  func move(by offset: Int) {
    guard let next = state.entry(movingBy: offset) else { return }
    choose(next)
  }

  /// Ctrl+1…9: the entry of that number.
  func go(to number: Int) {
    guard let entry = state.entry(number: number) else { return }
    choose(entry)
  }

  /// Ctrl+L: the sidebar, focused on the entry shown.
  func focusSidebar() { navigation.focusSidebar(state.selection) }

  /// The list shown, when a list (not Today or Upcoming) is.
  var selectedList: PlannerListItem? {
    if case .list(let id) = state.selection { state.list(id) } else { nil }
  }
}

extension Toast: UndoNotice {}

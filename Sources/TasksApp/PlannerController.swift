// PlannerController: the planner in the window — the sidebar, the planner page's list and quick entry — kept in the
// core's `PlannerViewState` and fed by the account's `PlannerOperations`. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksAccount
import TasksCore

/// Shows the account's lists and tasks: the sidebar (Today, Upcoming, the lists), and for the entry chosen the
/// planner page (Today, Upcoming and every list but the default one) or the sample's list page (the default list,
/// which is the task API's `/api/tasks`). Ticks finish a task (a repeating one moves to its next date, with Undo);
/// a conflict the sync could not merge shows a toast with Use Mine.
@MainActor
final class PlannerController: PlannerView {
  // Template widgets (the builder keeps them).
  private let leaflet: OpaquePointer
  private let sidebarBox: Widget
  private let pages: Stack
  private let listStack: Stack
  private let listView: ListView
  // Owned.
  let sidebar: PlannerSidebar
  let quickEntry: PlannerQuickEntry
  private let factory = PlannerRowFactory()
  private(set) var state: PlannerViewState
  private var editor: PlannerTaskEditor!
  /// Lists and tasks whose deletion can still be undone (not shown), and what the planner showed last.
  private var hidden: Set<UUID> = []
  private var hiddenTasks: Set<UUID> = []
  private var lastShown: PlannerShown?
  /// Whether the user chose an entry (until then, the default list is shown when it comes).
  private var chosen = false
  // Borrowed.
  let planner: PlannerOperations
  private let toasts: ToastShelf

  init(builder: Builder, planner: PlannerOperations, toasts: ToastShelf) {
    leaflet = builder.opaqueObject("planner_leaflet", adw_leaflet_get_type())
    sidebarBox = builder.widget("sidebar_box")
    pages = builder.widget("planner_stack", as: Stack.init)
    listStack = builder.widget("planner_list_stack", as: Stack.init)
    listView = builder.widget("planner_list", as: ListView.init)
    sidebar = PlannerSidebar(builder: builder)
    quickEntry = PlannerQuickEntry(builder: builder)
    self.planner = planner
    self.toasts = toasts
    let now = DueLabel.now()
    state = PlannerViewState(today: now.today, now: now.time, rowsOfDefaultList: false)
    listView.show(factory.model(), rows: factory.factory)
    factory.listView = listView
    factory.content = { [unowned self] id in self.state.content(id) }
    factory.heading = { [unowned self] date in self.state.heading(date) }
    editor = PlannerTaskEditor(planner: planner, toasts: toasts) { [unowned self] in self.state }
    factory.onToggled = { [unowned self] id, done in self.editor.setDone(id, done) }
    factory.canMove = { [unowned self] id in self.state.reordering(id, by: 0) != nil }
    factory.onDropped = { [unowned self] id, target in
      guard let offset = self.state.offset(moving: id, to: target), offset != 0 else { return false }
      self.move(id, by: offset)
      return true
    }
    sidebar.onSelect = { [unowned self] selection in
      self.chosen = true
      if selection != self.state.selection { self.select(selection) }
      adw_leaflet_set_visible_child_name(self.leaflet, "content")
    }
    Signal.connect(Widget(UnsafeMutableRawPointer(leaflet)), "notify::folded") {
      [unowned self] (_: UnsafeMutableRawPointer?) in
      self.onFoldChanged(adw_leaflet_get_folded(self.leaflet) != 0)
    }
    quickEntry.onAdd = { [unowned self] reading in
      self.editor.add(reading, to: self.selectedList ?? self.state.defaultList)
    }
    Signal.connectPosition(listView, "activate") { [unowned self] position in
      guard state.rows.indices.contains(Int(position)), case .task(let id) = state.rows[Int(position)] else { return }
      self.openDetails(id)
    }
    sidebarBox.isVisible = false  // until the service's lists come (a service without v2 has none)
    pages.child(named: "planner").isVisible = false
    planner.view = self
  }

  // MARK: PlannerView

  func show(_ shown: PlannerShown) {
    lastShown = shown
    var shown = shown
    if !hidden.isEmpty || !hiddenTasks.isEmpty {
      shown.lists.removeAll { hidden.contains($0.id) }
      shown.tasks.removeAll {
        hidden.contains($0.listID) || hiddenTasks.contains($0.id) || $0.parentID.map(hiddenTasks.contains) == true
      }
    }
    let now = DueLabel.now()
    var changes = state.setNow(today: now.today, now: now.time)
    let before = state.selection
    // Until the user chooses, the default list is shown (chosen here, before any other entry's rows are made).
    let home = chosen ? nil : shown.lists.first(where: \.isDefault)
    let more = state.show(
      lists: shown.lists, tasks: shown.tasks, waiting: shown.waiting, selecting: home.map { .list($0.id) })
    changes.rows += more.rows
    changes.changedRows.formUnion(more.changedRows)
    apply(changes.rows, refill: changes.changedRows)
    sidebarBox.isVisible = !shown.lists.isEmpty
    if !chosen, let home = state.defaultList, state.selection != .list(home.id) {
      select(.list(home.id))  // a service without a default list: its first
    } else if state.selection != before || more.selectionMoved {
      selectionShown(after: before)
    }
    sidebar.show(state.entries, selected: state.selection)
    readMembers(of: shown.lists)
    details?.update()
    if let id = taskToOpen { openTask(id) }
  }

  /// Shows a task named from outside (a reminder's notification): its list and its details, once the task is known.
  func openTask(_ id: UUID) {
    guard let item = state.item(id) else { return taskToOpen = id }
    taskToOpen = nil
    choose(.list(item.listID))
    openDetails(id)
  }
  private var taskToOpen: UUID?
  private var membersAsked: Set<UUID> = []  // lists whose members are being asked for

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
        factory.refill(changes.changedRows)  // rows of tasks someone else changed last name them
        sidebar.show(state.entries, selected: state.selection)
      }
    }
  }

  func showConflict(_ conflict: PlannerConflict) {
    let toast = Toast.new(conflict.message, button: tr("Use Mine"))
    toast.onButtonClicked { [unowned self] in Task { await self.planner.useMine(conflict) } }
    toasts.present(toast)
  }

  func showMessage(_ message: String) { toasts.show(message) }

  /// Takes a list out of view while its deletion can be undone, or (`false`: Undo) shows it again.
  func hide(list: UUID, _ hide: Bool = true) {
    if hide { hidden.insert(list) } else { hidden.remove(list) }
    if let lastShown { show(lastShown) }
  }

  // MARK: A task's details

  private var details: TaskDetailsWindow?
  /// The window the details open over.
  var window: Window?

  /// Opens a task's details (a row activated: Enter or a double click).
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
    guard let id = focusedTask() else { return listView.errorBell() }
    openDetails(id, openingCalendar: true)
  }

  /// Alt+Shift+Up/Down: the task whose row has the focus a place up or down in its list (the focus stays on it).
  func moveFocusedTask(by offset: Int) {
    guard let id = focusedTask() else { return listView.errorBell() }
    move(id, by: offset)
  }

  /// Moves task `id` `offset` places in its list.
  private func move(_ id: UUID, by offset: Int) {
    factory.following = id
    editor.move(id, by: offset) { [unowned self] moved in
      if !moved { self.listView.errorBell() }
    }
  }

  /// The task whose row on the planner page has the keyboard focus.
  private func focusedTask() -> UUID? {
    guard isShowingPlannerPage, let focus = listView.focusInWindow, case .task(let id)? = factory.key(around: focus)
    else { return nil }
    return id
  }

  /// Deletes a task (and its subtasks) at once, with Undo for as long as the toast shows; sent when it goes.
  func deleteTask(_ id: UUID) {
    guard let item = state.item(id) else { return }
    let toast = Toast.new(String(template: tr("“%@” deleted"), item.title), button: tr("Undo"))
    let undone = Flag()
    toast.onButtonClicked { [unowned self] in
      undone.isSet = true
      self.hiddenTasks.remove(id)
      if let lastShown = self.lastShown { self.show(lastShown) }
    }
    toast.onDismissed { [unowned self] in
      guard !undone.isSet else { return }
      Task {
        await self.planner.record(.deleteTask(list: item.listID, id: id))
        self.hiddenTasks.remove(id)
      }
    }
    hiddenTasks.insert(id)
    if let lastShown { show(lastShown) }
    toasts.present(toast)
  }

  // MARK: Choosing an entry

  /// Shows `selection`: the planner page, or the list page for the default list.
  func select(_ selection: PlannerSelection) {
    let before = state.selection
    _ = state.select(selection)
    // Another entry's rows, from the top, in the row widgets there are (kept hidden while the default list shows).
    if state.selection != before && state.showsDefaultList {
      factory.keep()
    } else if state.selection != before {
      factory.replaceAll(with: state.rows)
      listView.scrollToTop()
    }
    selectionShown(after: before, rebound: true)
  }

  /// Shows the page of the entry selected now, its rows made (`before` was selected until then).
  private func selectionShown(after before: PlannerSelection, rebound: Bool = false) {
    let selection = state.selection
    // Rows kept from a list to Today or Upcoming (or back) are bound again: those name their list.
    let namesLists = { (selection: PlannerSelection) in if case .list = selection { false } else { true } }
    if !rebound && namesLists(selection) != namesLists(before) { factory.refillAll() }
    listStack.visibleChildName = state.rows.isEmpty ? "empty" : "rows"
    let isDefault = state.showsDefaultList
    let name = isDefault ? "list" : "planner"
    // The page not shown is hidden too: a GtkStack leaves it visible, merely unmapped, to assistive technologies.
    pages.child(named: "list").isVisible = isDefault
    pages.child(named: "planner").isVisible = !isDefault
    pages.visibleChildName = name
    sidebar.select(state.selection)
  }

  /// Shows `selection` as the user's choice (a list just made or joined): from then on the default list, when the
  /// service's lists come, no longer takes its place.
  func choose(_ selection: PlannerSelection) {
    chosen = true
    select(selection)
  }

  /// Alt+Up/Down: the entry above or below.
  func move(by offset: Int) {
    guard let next = state.entry(movingBy: offset) else { return }
    choose(next)
    adw_leaflet_set_visible_child_name(leaflet, "content")
  }

  /// Ctrl+1…9: the entry of that number.
  func go(to number: Int) {
    guard let entry = state.entry(number: number) else { return }
    choose(entry)
    adw_leaflet_set_visible_child_name(leaflet, "content")
  }

  /// Ctrl+L: the sidebar (brought back on a narrow window, where it had folded away).
  func focusSidebar() {
    adw_leaflet_set_visible_child_name(leaflet, "sidebar")
    sidebar.focus(state.selection)
    // A folded leaflet maps the sidebar as its transition starts: the focus follows once it has.
    Task { self.sidebar.focus(self.state.selection) }
  }

  /// Called with whether the sidebar is folded away (a narrow window): the header's button brings it back.
  var onFoldChanged: (Bool) -> Void = { _ in }

  /// Whether the planner's page (not the sample's list) is on screen.
  var isShowingPlannerPage: Bool { pages.visibleChildName == "planner" }

  /// The list shown, when a list (not Today or Upcoming) is.
  var selectedList: PlannerListItem? {
    if case .list(let id) = state.selection { state.list(id) } else { nil }
  }

  private func apply(_ edits: [KeyedEdit<PlannerRowKey>], refill: Set<PlannerRowKey>) {
    factory.show(state.rows, edits: edits, refill: refill)
    listStack.visibleChildName = state.rows.isEmpty ? "empty" : "rows"
  }

}

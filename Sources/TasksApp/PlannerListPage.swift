// PlannerListPage: the page of the entry chosen (a list, the default one included, Today or Upcoming): the quick
// entry with its chips, the search bar, the rows or the empty page, the rows' keys and context menu. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// The list page, shown for every entry of the sidebar. The row is the keyboard stop: Space ticks, Delete deletes,
/// Enter, F2 or a double click opens the details, the Menu key or Shift+F10 (or a right click) opens the row's menu;
/// Tab and Shift+Tab go from row to row (one stop each), from the quick entry to the first row and past the last on to
/// the header. A ticked row keeps the focus as it moves; a deleted one hands it to its neighbour, and Undo gives it
/// back. Ctrl+F, the header's search button or typing on the rows opens the search bar, which keeps the tasks holding
/// every word it holds.
@MainActor
final class PlannerListPage {
  // Template widgets (the builder keeps them).
  let listView: ListView
  private let listStack: Stack
  private let emptyPage: StatusPage
  private let searchBar: SearchBar
  private let searchEntry: Editable
  private let addTaskButton: Widget
  // Owned.
  let quickEntry: QuickEntryField
  let factory = PlannerRowFactory()
  private let menu: PlannerRowMenu
  /// Where the focus goes at the next show: a row's task (Undo brought it back), or a place (its row was deleted).
  private var focusNext: (task: UUID?, position: Int?) = (nil, nil)
  // Borrowed.
  private unowned let controller: PlannerController

  init(builder: Builder, controller: PlannerController) {
    listView = builder.widget("planner_list", as: ListView.init)
    listStack = builder.widget("planner_list_stack", as: Stack.init)
    emptyPage = builder.widget("planner_empty_page", as: StatusPage.init)
    searchBar = builder.widget("search_bar", as: SearchBar.init)
    searchEntry = builder.widget("search_entry", as: Editable.init)
    addTaskButton = builder.widget("add_task_button")
    quickEntry = QuickEntryField(
      entry: builder.widget("planner_entry", as: Editable.init), chipsBox: builder.widget("chips_box", as: Box.init))
    menu = PlannerRowMenu(on: listView.asWidget)
    self.controller = controller
    listView.show(factory.model(), rows: factory.factory)
    factory.listView = listView
    factory.onContextClick = { [unowned self] id, row, x, y in self.menu.open(for: id, on: row, at: (x, y)) }
    menu.onCommand = { [unowned self] command, id in self.run(command, id) }
    menu.isDone = { [unowned controller] id in controller.state.item(id)?.status == .completed }
    Signal.connectPosition(listView, "activate") { [unowned self] position in
      guard let id = self.task(at: Int(position)) else { return }
      self.controller.openDetails(id)
    }
    // Before the row sees them: its own binding takes Space (to select, which this list does not do).
    listView.onKeyPressed(first: true) { [unowned self] keyval, modifiers in self.keyPressed(keyval, modifiers) }
    // Tab goes on to the rows. (GTK 4.8's list view, entered from the entry above it, refused the focus.)
    quickEntry.widget.onKeyPressed { [unowned self] keyval, modifiers in
      guard keyval == UInt32(GDK_KEY_Tab), modifiers.rawValue == 0 else { return false }
      return self.focusRow(at: 0)
    }
    // Shift+Tab from the header's first button goes round to the last row. (GTK 4.8's list view, entered
    // backwards, took no focus.)
    addTaskButton.onKeyPressed { [unowned self] keyval, _ in
      guard keyval == UInt32(GDK_KEY_ISO_Left_Tab) else { return false }
      return self.focusRow(at: self.controller.state.rows.count - 1)
    }
    setUpSearch()
  }

  /// Shows `rows` after `edits`, drawing again those of `refill`; the empty page when there are none.
  func show(_ rows: [PlannerRowKey], edits: [KeyedEdit<PlannerRowKey>], refill: Set<PlannerRowKey>) {
    factory.show(rows, edits: edits, refill: refill)
    showEmptyPage(rows.isEmpty)
    guard !edits.isEmpty else { return }
    let next = focusNext
    if let task = next.task, let index = rows.firstIndex(of: .task(task)) {
      focusNext = (nil, nil)
      focusRow(at: index, tries: 5)
    } else if next.task == nil, let position = next.position {
      focusNext = (nil, nil)
      focusRow(at: min(position, rows.count - 1), tries: 5)
    }
  }

  /// The next rows shown give the focus to `task`'s row (Undo of its deletion).
  func focus(whenShown task: UUID) { focusNext = (task, nil) }

  /// A row that had the focus is going: the focus goes to the row that takes its place.
  func keepFocusInPlace(of task: UUID) {
    guard focusedTask() == task, let index = controller.state.rows.firstIndex(of: .task(task)) else { return }
    focusNext = (nil, index)
  }

  /// Shows another entry's rows, from the top.
  func replaceAll(with rows: [PlannerRowKey]) {
    factory.replaceAll(with: rows)
    listView.scrollToTop()
    showEmptyPage(rows.isEmpty)
  }

  private func showEmptyPage(_ empty: Bool) {
    listStack.visibleChildName = empty ? "empty" : "rows"
    guard empty else { return }
    // Given its icon only when it shows: the icon is an SVG, which GTK reads through librsvg (6.5 MB and its parse
    // at every start when the page had it from the start, though the start shows rows).
    if emptyPage.iconName == nil { emptyPage.iconName = AppIdentity.symbolicIcon }
    // What the empty page says depends on why nothing shows.
    let searching = !controller.state.search.isEmpty
    emptyPage.title = searching ? tr("No Matching Tasks") : tr("No Tasks")
    emptyPage.setDescription(
      searching
        ? tr("No task holds every word searched for.")
        : tr("Type a task above; words such as “tomorrow” or “every Monday” give it a date."))
  }

  /// The task whose row has the keyboard focus.
  func focusedTask() -> UUID? {
    guard let focus = listView.focusInWindow, case .task(let id)? = factory.key(around: focus) else { return nil }
    return id
  }

  /// The task of the row at `position`, if it is a task's (not a day's heading).
  private func task(at position: Int) -> UUID? {
    let rows = controller.state.rows
    guard rows.indices.contains(position), case .task(let id) = rows[position] else { return nil }
    return id
  }

  /// Gives the keyboard focus to the row at `position` (scrolled into view; GTK makes the widgets of rows scrolled
  /// to on its next frames, so a row not made yet is tried again up to `tries` times); answers whether there is one.
  @discardableResult
  func focusRow(at position: Int, tries: Int = 3) -> Bool {
    let rows = controller.state.rows
    guard rows.indices.contains(position) else { return false }
    factory.flush()
    listView.activateAction("list.scroll-to-item", UInt32(position))
    if let item = factory.row(showing: rows[position])?.box.parent, item.isMapped {
      _ = item.grabFocus()
    } else if tries > 0 {
      Task { self.focusRow(at: position, tries: tries - 1) }
    }
    return true
  }

  // MARK: Keys and the row's menu

  private func keyPressed(_ keyval: UInt32, _ modifiers: GdkModifierType) -> Bool {
    guard let id = focusedTask() else { return false }
    let shift = modifiers.rawValue & GDK_SHIFT_MASK.rawValue != 0
    let plain = modifiers.rawValue & (GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue) == 0
    guard plain else { return false }
    switch Int32(keyval) {
    case GDK_KEY_Tab, GDK_KEY_ISO_Left_Tab:
      // A Tab stop per row, then out of the list: on to the header, or back to the quick entry.
      let forward = keyval == UInt32(GDK_KEY_Tab) && !shift
      guard let current = controller.state.rows.firstIndex(of: .task(id)) else { return false }
      let next = forward ? current + 1 : current - 1
      if controller.state.rows.indices.contains(next) {
        focusRow(at: next)
      } else if forward {
        _ = addTaskButton.grabFocus()
      } else {
        quickEntry.focus()
      }
    case GDK_KEY_space: run(.toggle, id)
    case GDK_KEY_Delete, GDK_KEY_KP_Delete: run(.delete, id)
    case GDK_KEY_F2: run(.details, id)
    case GDK_KEY_Menu: openMenu(for: id)
    case GDK_KEY_F10 where shift: openMenu(for: id)
    default: return false
    }
    return true
  }

  private func openMenu(for id: UUID) {
    guard let row = factory.row(showing: .task(id)) else { return }
    menu.open(for: id, on: row, at: nil)
  }

  /// Runs a row's command (its menu's item, or its key).
  private func run(_ command: PlannerRowMenu.Command, _ id: UUID) {
    guard let item = controller.state.item(id) else { return }
    switch command {
    case .details: controller.openDetails(id)
    case .toggle, .markDone, .markNotDone:
      factory.following = id  // its row keeps the focus as it moves among the finished (or open) ones
      controller.editor.setDone(id, command == .toggle ? item.status != .completed : command == .markDone)
    case .copy:
      listView.copyToClipboard(item.title)
      controller.showMessage(tr("Text copied"))
    case .delete: controller.deleteTask(id)
    }
  }

  // MARK: Search

  /// Ctrl+F: opens the search bar (again: back to its text).
  func openSearch() {
    let searching = searchBar.isSearching
    searchBar.setAccessibleHidden(false)  // before GTK gives its entry the focus
    searchBar.isSearching = true
    if searching { searchEntry.grabFocus() }
  }

  /// Ctrl+F, the header's search button, or typing on the rows opens the search bar; what it holds filters the
  /// rows (every word, ignoring case and accents); Escape closes it and shows everything again.
  private func setUpSearch() {
    searchBar.connect(searchEntry)
    searchBar.captureKeys(from: listView.asWidget)
    Signal.connect(searchEntry, "search-changed") { [unowned self] in
      self.controller.search(TaskSearch(self.searchEntry.text))
    }
    // A closed bar is not presented to assistive technologies (GTK 4.8 presents its entry, off screen, otherwise).
    searchBar.setAccessibleHidden(true)
    Signal.connect(searchBar, "notify::search-mode-enabled") { [unowned self] (_: UnsafeMutableRawPointer?) in
      guard !self.searchBar.isSearching else { return self.searchBar.setAccessibleHidden(false) }
      // Focus was in the bar, closing: it goes back to the quick entry before the bar is hidden.
      if let focus = self.listView.focusInWindow, !focus.isMapped || self.searchBar.contains(focus) {
        self.quickEntry.focus()
      }
      self.searchBar.setAccessibleHidden(true)
      self.searchEntry.text = ""
      self.controller.search(TaskSearch(""))
    }
  }
}

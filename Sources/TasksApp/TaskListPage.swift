// TaskListPage: the list page's controls around the list: the "New task…" entry, search, the sort and completed
// settings, the task windows (add, details), and the live refresh that brings changes made elsewhere. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksAccount
import TasksCore

/// Wires the list page of `main-window.ui` to the signed-in account's tasks (`TaskListOperations`): the list's own
/// events (tick, edit, delete), the quick entry, the search bar, the settings that sort and filter, Tab in and out of the rows, the add and details windows (one at a
/// time), and the refresh on focus and every minute.
@MainActor
final class TaskListPage {
  // Template widgets (the builder keeps them).
  private let quickEntry: Editable
  private let searchBar: SearchBar
  private let searchEntry: Editable
  private let addTaskButton: Widget
  // Borrowed.
  private let window: Window
  private let tasks: TaskListOperations
  private unowned let list: TaskListController
  // Owned.
  /// The add or details window on screen, if any.
  private(set) var taskWindow: AddTaskWindow?

  init(
    builder: Builder, window: Window, windowState: WindowState?, tasks: TaskListOperations, list: TaskListController
  ) {
    quickEntry = builder.widget("quick_entry", as: Editable.init)
    searchBar = builder.widget("search_bar", as: SearchBar.init)
    searchEntry = builder.widget("search_entry", as: Editable.init)
    addTaskButton = builder.widget("add_task_button")
    self.window = window
    self.tasks = tasks
    self.list = list
    list.onToggle = { task, done in tasks.setCompleted(task, done, undoable: true) }
    list.onEdit = { task, text in tasks.setText(task, text) }
    list.onDelete = { key in tasks.delete([key]) }
    list.onOpenDetails = { [unowned self] task in self.openDetails(task) }
    list.onLeave = { [unowned self] forward in
      // Before the list: the "New task…" entry; after it, round to the start of the window (the header).
      if forward { self.addTaskButton.grabFocus() } else { self.quickEntry.grabFocus() }
    }
    if let windowState {
      windowState.watch(.sortOrder) {
        list.sortOrder = TaskSortOrder(rawValue: windowState.string(.sortOrder)) ?? .newest
      }
      windowState.watch(.showCompleted) { list.showCompleted = windowState.bool(.showCompleted) }
    }
    setUpQuickEntry()
    setUpSearch(typingOn: builder.widget("task_list"))
    setUpLiveRefresh()
  }

  /// Ctrl+N: the focus to the "New task…" entry.
  func focusQuickEntry() {
    quickEntry.grabFocus()
  }

  /// Ctrl+F: opens the search bar (again: back to its text).
  func openSearch() {
    let searching = searchBar.isSearching
    searchBar.isSearching = true
    if searching { searchEntry.grabFocus() }
  }

  /// Ctrl+Shift+N: the add-task window (one at a time: again, it comes back to the front).
  func openAddTask() {
    if let taskWindow, !taskWindow.isDetails {
      taskWindow.present()
      return
    }
    open(AddTaskWindow(parent: window) { [unowned self] text in self.tasks.add(text) })
  }

  /// Opens the task's details: its whole text in the task window's multi-line editor; Save changes it.
  func openDetails(_ task: TaskItem) {
    open(
      AddTaskWindow(parent: window, editing: task.text) { [unowned self] text in
        if text != task.text { self.tasks.setText(task, text) }
      })
  }

  /// Closes the add or details window, if one is open.
  func closeTaskWindow() {
    taskWindow?.close()
  }

  /// Shows `taskWindow` in place of the one open, if any (one at a time).
  private func open(_ newWindow: AddTaskWindow) {
    taskWindow?.close()
    // Released on the next main-loop turn: the window may be closing from inside one of its own handlers.
    newWindow.onClose { [unowned self, weak newWindow] in
      Task { if self.taskWindow === newWindow { self.taskWindow = nil } }
    }
    taskWindow = newWindow
    newWindow.present()
  }

  // MARK: Quick entry

  /// The "New task…" entry above the list: Enter adds and keeps the focus there for the next one.
  private func setUpQuickEntry() {
    Signal.connect(quickEntry, "activate") { [unowned self] in
      let text = self.quickEntry.text.trimmed()
      guard !text.isEmpty else {
        self.quickEntry.errorBell()
        return
      }
      self.quickEntry.text = ""
      self.tasks.add(text)
    }
    // Tab goes on to the rows. (GTK 4.8's list view, entered from the entry above it, refused the focus: Tab left
    // the focus where it was.)
    quickEntry.onKeyPressed { [unowned self] keyval, modifiers in
      guard keyval == UInt32(GDK_KEY_Tab), modifiers.rawValue == 0 else { return false }
      return self.list.focusFirstRow()
    }
    // Shift+Tab from the header's first button goes round to the list's last row. (GTK 4.8's list view, entered
    // backwards, took no focus: it went nowhere.)
    addTaskButton.onKeyPressed { [unowned self] keyval, _ in
      guard keyval == UInt32(GDK_KEY_ISO_Left_Tab) else { return false }
      return self.list.focusLastRow()
    }
  }

  // MARK: Search

  /// Ctrl+F, the header's search button, or typing on the list opens the search bar; what it holds filters the
  /// list (every word, ignoring case and accents); Escape closes it and shows everything again.
  private func setUpSearch(typingOn list: Widget) {
    searchBar.connect(searchEntry)
    searchBar.captureKeys(from: list)
    Signal.connect(searchEntry, "search-changed") { [unowned self] in
      self.list.search = TaskSearch(self.searchEntry.text)
    }
    Signal.connect(searchBar, "notify::search-mode-enabled") { [unowned self] (_: UnsafeMutableRawPointer?) in
      guard !self.searchBar.isSearching else { return }
      self.searchEntry.text = ""
      self.list.search = TaskSearch("")
      // Focus was in the bar, now hidden: it goes back to the list page.
      if let focus = self.window.focus, !focus.isMapped { self.quickEntry.grabFocus() }
    }
  }

  // MARK: Live refresh

  /// Changes made elsewhere (the CLI, another device) appear without F5: when the window gets the focus, and every
  /// minute while it has it. The ages under the tasks move on every minute too.
  private func setUpLiveRefresh() {
    Signal.connect(window, "notify::is-active") { [unowned self] (_: UnsafeMutableRawPointer?) in
      if self.window.isActive { Task { await self.tasks.refreshQuietly(atMostEvery: .seconds(3)) } }
    }
    Task { [weak self] in
      while true {
        try? await Task.sleep(for: .seconds(60))
        guard let self else { return }
        self.list.redrawAges()
        if self.window.isActive { await self.tasks.refreshQuietly(atMostEvery: .seconds(50)) }
      }
    }
  }
}

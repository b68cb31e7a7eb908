// MainWindow+TaskList: the list page's controls: quick entry, search, sort and completed settings, Undo, and the
// live refresh that brings changes made elsewhere. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

extension MainWindow {
  /// Makes the list page's controller, wired to the window's task operations and settings.
  func makeTaskList() -> TaskListController {
    let tasks = TaskListController(builder: builder)
    tasks.onToggle = { [unowned self] task, done in self.setCompleted(task, done, undoable: true) }
    tasks.onEdit = { [unowned self] task, text in self.setText(task, text) }
    tasks.onDelete = { [unowned self] key in self.delete([key]) }
    tasks.onOpenDetails = { [unowned self] task in self.openDetails(task) }
    tasks.onMessage = { [unowned self] message in self.showToast(message) }
    tasks.onLeave = { [unowned self] forward in
      // Before the list: the "New task…" entry; after it, round to the start of the window (the header).
      let entry = self.builder.object("quick_entry", gtk_widget_get_type(), as: GtkWidget.self)
      if forward {
        gtk_widget_grab_focus(self.builder.object("add_task_button", gtk_widget_get_type(), as: GtkWidget.self))
      } else {
        gtk_widget_grab_focus(entry)
      }
    }
    if let windowState {
      windowState.watch("sort-order") {
        tasks.sortOrder = TaskSortOrder(rawValue: windowState.string("sort-order")) ?? .newest
      }
      windowState.watch("show-completed") { tasks.showCompleted = windowState.bool("show-completed") }
    }
    setUpQuickEntry()
    setUpSearch(tasks)
    setUpLiveRefresh()
    sync.retry = { [unowned self] in await self.refreshQuietly(atMostEvery: .zero) }
    return tasks
  }

  /// Ctrl+N: the focus to the "New task…" entry.
  func focusQuickEntry() {
    gtk_widget_grab_focus(builder.object("quick_entry", gtk_widget_get_type(), as: GtkWidget.self))
  }

  /// Ctrl+F: opens the search bar (again: back to its text).
  func openSearch() {
    let bar = builder.opaqueObject("search_bar", gtk_search_bar_get_type())
    let searching = gtk_search_bar_get_search_mode(bar) != 0
    gtk_search_bar_set_search_mode(bar, 1)
    if searching {
      gtk_widget_grab_focus(builder.object("search_entry", gtk_widget_get_type(), as: GtkWidget.self))
    }
  }

  /// Delete Completed: every completed task, with one Undo.
  func deleteCompleted() {
    guard let keys = taskList?.completedKeys, !keys.isEmpty else {
      showToast(tr("No completed tasks to delete"))
      return
    }
    delete(keys)
  }

  /// Ctrl+Z: takes back the deletion whose toast shows, else the last completion.
  func undo() {
    switch undoQueue.takeLast() {
    case .deletion(let deletion):
      undoDeletion(deletion)
    case .completion(let task, let done):
      var current = taskList?.task(.task(task.id)) ?? task
      current.completed = done
      setCompleted(current, !done, undoable: false)
    case nil:
      break
    }
  }

  // MARK: Quick entry

  /// The "New task…" entry above the list: Enter adds and keeps the focus there for the next one.
  private func setUpQuickEntry() {
    let entry = builder.object("quick_entry", gtk_widget_get_type(), as: GtkWidget.self)
    Signal.connect(entry, "activate") { [unowned self] in
      let text = String(cString: gtk_editable_get_text(OpaquePointer(entry))).trimmed()
      guard !text.isEmpty else {
        gtk_widget_error_bell(entry)
        return
      }
      gtk_editable_set_text(OpaquePointer(entry), "")
      self.add(text)
    }
    // Tab goes on to the rows. (GTK 4.8's list view, entered from the entry above it, refused the focus: Tab left
    // the focus where it was.)
    let keys = gtk_event_controller_key_new()!
    Signal.connectKeyPressed(keys) { [unowned self] keyval in
      guard keyval == UInt32(GDK_KEY_Tab), gtk_event_controller_get_current_event_state(keys).rawValue == 0 else {
        return false
      }
      return self.taskList?.focusFirstRow() ?? false
    }
    gtk_widget_add_controller(entry, keys)
    // Shift+Tab from the header's first button goes round to the list's last row. (GTK 4.8's list view, entered
    // backwards, took no focus: it went nowhere.)
    let back = gtk_event_controller_key_new()!
    Signal.connectKeyPressed(back) { [unowned self] keyval in
      guard keyval == UInt32(GDK_KEY_ISO_Left_Tab) else { return false }
      return self.taskList?.focusLastRow() ?? false
    }
    gtk_widget_add_controller(builder.object("add_task_button", gtk_widget_get_type(), as: GtkWidget.self), back)
  }

  // MARK: Search

  /// Ctrl+F, the header's search button, or typing on the list opens the search bar; what it holds filters the
  /// list (every word, ignoring case and accents); Escape closes it and shows everything again.
  private func setUpSearch(_ tasks: TaskListController) {
    let bar = builder.opaqueObject("search_bar", gtk_search_bar_get_type())
    let entry = builder.object("search_entry", gtk_widget_get_type(), as: GtkWidget.self)
    gtk_search_bar_connect_entry(bar, OpaquePointer(entry))
    // Typing on the list (not in an entry) starts a search.
    gtk_search_bar_set_key_capture_widget(bar, builder.object("task_list", gtk_widget_get_type(), as: GtkWidget.self))
    Signal.connect(entry, "search-changed") {
      tasks.search = TaskSearch(String(cString: gtk_editable_get_text(OpaquePointer(entry))))
    }
    Signal.connect(bar, "notify::search-mode-enabled") { [unowned self] (_: UnsafeMutableRawPointer?) in
      guard gtk_search_bar_get_search_mode(bar) == 0 else { return }
      gtk_editable_set_text(OpaquePointer(entry), "")
      tasks.search = TaskSearch("")
      // Focus was in the bar, now hidden: it goes back to the list page.
      if let focus = gtk_window_get_focus(self.window.window), gtk_widget_get_mapped(focus) == 0 {
        gtk_widget_grab_focus(self.builder.object("quick_entry", gtk_widget_get_type(), as: GtkWidget.self))
      }
    }
  }

  // MARK: Live refresh

  /// Changes made elsewhere (the CLI, another device) appear without F5: when the window gets the focus, and every
  /// minute while it has it. The ages under the tasks move on every minute too.
  private func setUpLiveRefresh() {
    Signal.connect(window, "notify::is-active") { [unowned self] (_: UnsafeMutableRawPointer?) in
      if gtk_window_is_active(self.window.window) != 0 { Task { await self.refreshQuietly(atMostEvery: .seconds(3)) } }
    }
    Task { [weak self] in
      while true {
        try? await Task.sleep(for: .seconds(60))
        guard let self else { return }
        self.taskList?.redrawAges()
        if gtk_window_is_active(self.window.window) != 0 { await self.refreshQuietly(atMostEvery: .seconds(50)) }
      }
    }
  }

  /// Fetches the list without the header's spinner, when the list is on screen, no row is being edited, no fetch
  /// is under way and the last one is older than `interval`. Nothing moves when nothing changed.
  func refreshQuietly(atMostEvery interval: Duration) async {
    guard page == .tasks || page == .noTasks, taskList?.isEditing == false, !sync.fetching else { return }
    if let lastFetch = sync.lastFetch, ContinuousClock.now - lastFetch < interval { return }
    await reload(quietly: true)
  }
}

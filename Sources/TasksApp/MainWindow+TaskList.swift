// MainWindow+TaskList: the list page's controls: quick entry, search, sort and completed settings, the task
// windows, and the live refresh that brings changes made elsewhere. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

extension MainWindow {
  /// Makes the list page's controller and the session's tasks on it, wired to the window's settings and controls.
  func makeTasks(session: Session) -> TaskListSession {
    let list = TaskListController(builder: builder)
    let tasks = TaskListSession(session: session, list: list, window: self) { [unowned self] account in
      self.files(for: account)
    }
    list.onToggle = { [unowned tasks] task, done in tasks.setCompleted(task, done, undoable: true) }
    list.onEdit = { [unowned tasks] task, text in tasks.setText(task, text) }
    list.onDelete = { [unowned tasks] key in tasks.delete([key]) }
    list.onOpenDetails = { [unowned self] task in self.openDetails(task) }
    list.onMessage = { [unowned self] message in self.showToast(message) }
    list.onLeave = { [unowned self] forward in
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
        list.sortOrder = TaskSortOrder(rawValue: windowState.string("sort-order")) ?? .newest
      }
      windowState.watch("show-completed") { list.showCompleted = windowState.bool("show-completed") }
    }
    setUpQuickEntry()
    setUpSearch(list)
    setUpLiveRefresh()
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

  func openAddTask() {
    // One add window at a time: Ctrl+Shift+N again brings it back to the front.
    if let addTaskWindow, !addTaskWindow.isDetails {
      addTaskWindow.present()
      return
    }
    open(AddTaskWindow(parent: window.window) { [unowned self] text in self.tasks?.add(text) })
  }

  /// Opens the task's details: its whole text in the task window's multi-line editor; Save changes it.
  func openDetails(_ task: TaskItem) {
    open(
      AddTaskWindow(parent: window.window, editing: task.text) { [unowned self] text in
        if text != task.text { self.tasks?.setText(task, text) }
      })
  }

  /// Shows `taskWindow` in place of the one open, if any (one at a time).
  private func open(_ taskWindow: AddTaskWindow) {
    addTaskWindow?.close()
    // Released on the next main-loop turn: the window may be closing from inside one of its own handlers.
    taskWindow.onClose { [unowned self, weak taskWindow] in
      Task { if self.addTaskWindow === taskWindow { self.addTaskWindow = nil } }
    }
    addTaskWindow = taskWindow
    taskWindow.present()
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
      self.tasks?.add(text)
    }
    // Tab goes on to the rows. (GTK 4.8's list view, entered from the entry above it, refused the focus: Tab left
    // the focus where it was.)
    let keys = gtk_event_controller_key_new()!
    Signal.connectKeyPressed(keys) { [unowned self] keyval in
      guard keyval == UInt32(GDK_KEY_Tab), gtk_event_controller_get_current_event_state(keys).rawValue == 0 else {
        return false
      }
      return self.tasks?.list.focusFirstRow() ?? false
    }
    gtk_widget_add_controller(entry, keys)
    // Shift+Tab from the header's first button goes round to the list's last row. (GTK 4.8's list view, entered
    // backwards, took no focus: it went nowhere.)
    let back = gtk_event_controller_key_new()!
    Signal.connectKeyPressed(back) { [unowned self] keyval in
      guard keyval == UInt32(GDK_KEY_ISO_Left_Tab) else { return false }
      return self.tasks?.list.focusLastRow() ?? false
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
      if gtk_window_is_active(self.window.window) != 0 {
        Task { await self.tasks?.refreshQuietly(atMostEvery: .seconds(3)) }
      }
    }
    Task { [weak self] in
      while true {
        try? await Task.sleep(for: .seconds(60))
        guard let self else { return }
        self.tasks?.list.redrawAges()
        if gtk_window_is_active(self.window.window) != 0 {
          await self.tasks?.refreshQuietly(atMostEvery: .seconds(50))
        }
      }
    }
  }
}

// MainWindow+Tasks: what the window does with tasks: load, add, complete, edit, delete with Undo. Main actor.

import CGtk
import Foundation
import GtkSupport
import TasksCore

/// A row deleted in the list whose deletion waits for its Undo toast to go away.
struct PendingDeletion {
  var key: RowKey
  var index: Int
  var toast: OpaquePointer
}

extension MainWindow {
  // MARK: Loading

  /// Sends what waits in the outbox, then shows the server's list followed by what still waits. When the server
  /// cannot be reached, the last list stays (or the offline copy is shown) under a banner saying so. With
  /// `announcingSent`, a toast says how many waiting tasks went out (not after an add, where that is expected).
  func reload(announcingSent: Bool = true) async {
    guard let session else { return }
    guard let account = await session.account else {
      show(.welcome)
      return
    }
    let files = files(for: account)
    await withSpinner {
      await show(await ListFetch.run(session, files), of: files, announcingSent: announcingSent)
    }
  }

  /// Shows what a load of the list brought.
  func show(_ fetch: ListFetch, of files: AccountFiles, announcingSent: Bool = true) async {
    guard let taskList else { return }
    switch fetch.tasks {
    case .success(let tasks):
      // The row whose Undo toast is showing stays out of the list until the toast goes.
      let hidden = pendingDeletion?.key
      taskList.show(
        tasks.filter { .task($0.id) != hidden },
        waiting: await files.outbox.pending.filter { .pending($0.id) != hidden })
      b2c_debug("tasks: the server's list is shown (\(tasks.count) tasks)")
      finishReload(files, tasks, fetch.flushed, announcingSent)
    case .failure(let error):
      await listFailed(error, files)
    }
  }

  private func finishReload(
    _ files: AccountFiles, _ tasks: [TaskItem], _ flushed: Outbox.FlushResult, _ announcingSent: Bool
  ) {
    showOfflineBanner(false)
    showTasksPage()
    Task { try? await files.cache.save(tasks) }
    if announcingSent && flushed.sent > 0 {
      showToast(
        String(format: trn("%d waiting task was sent", "%d waiting tasks were sent", flushed.sent), flushed.sent),
        aboutList: true)
    }
    if let stopped = flushed.stoppedBy {
      showToast(stopped.message, aboutList: true) { Task { await self.reload() } }
    }
  }

  private func listFailed(_ error: TaskAPIError, _ files: AccountFiles) async {
    guard let taskList else { return }
    if case .unauthorized = error, await session?.account == nil { return }  // the sign-in page is on its way
    let copy = try? await files.cache.load()
    if page != .tasks && page != .noTasks {
      // Nothing shown yet: the offline copy if there is one, and the tasks that wait.
      taskList.show(copy?.tasks ?? [], waiting: await files.outbox.pending)
    }
    showTasksPage()
    if case .network(let network) = error {
      let label = builder.opaqueObject("offline_label", gtk_label_get_type())
      let when = copy.map { $0.savedAt.formatted(date: .abbreviated, time: .shortened) }
      if case .untrusted = network {
        // Not "offline": the service answered with a certificate that cannot be trusted. Tasks still wait.
        gtk_label_set_text(label, network.message)
      } else {
        gtk_label_set_text(
          label,
          when.map { String(format: tr("You are offline. These are your tasks as of %@."), $0) }
            ?? tr("You are offline. Tasks you add are sent when the task service can be reached."))
      }
      showOfflineBanner(true)
    } else {
      showToast(error.message, aboutList: true) { Task { await self.reload() } }
    }
  }

  // MARK: Adding

  func openAddTask() {
    // One add window at a time: Ctrl+N again brings it back to the front.
    if let addTaskWindow {
      addTaskWindow.present()
      return
    }
    let addWindow = AddTaskWindow(parent: window.window) { [unowned self] text in self.add(text) }
    // Released on the next main-loop turn: the window may be closing from inside one of its own handlers.
    addWindow.onClose { [unowned self] in Task { self.addTaskWindow = nil } }
    addTaskWindow = addWindow
    addWindow.present()
  }

  /// Keeps the task in the outbox (on disk) first, shows it at once, then sends it.
  private func add(_ text: String) {
    guard let session else { return }
    Task {
      guard let account = await session.account else {
        showToast(tr("Sign in to add tasks."))
        return
      }
      do {
        let waiting = try await files(for: account).outbox.add(text)
        taskList?.append(waiting)
        showTasksPage()
      } catch {
        showToast(tr("The task could not be saved. Check that your disk is not full."))
        return
      }
      await reload(announcingSent: false)
    }
  }

  // MARK: Changing

  func setCompleted(_ task: TaskItem, _ done: Bool) {
    var changed = task
    changed.completed = done
    change(from: task, to: changed) { client throws(TaskAPIError) in
      try await client.update(id: task.id, completed: done)
    }
  }

  func setText(_ task: TaskItem, _ text: String) {
    var changed = task
    changed.text = text
    change(from: task, to: changed) { client throws(TaskAPIError) in try await client.update(id: task.id, text: text) }
  }

  /// Shows `changed` at once and sends it; on failure the row goes back to `task` and a toast offers Retry.
  private func change(
    from task: TaskItem, to changed: TaskItem,
    _ send: @escaping (TaskAPIClient) async throws(TaskAPIError) -> Void
  ) {
    guard let session else { return }
    taskList?.update(changed)
    Task {
      do throws(TaskAPIError) {
        try await withSpinner { () async throws(TaskAPIError) in try await send(TaskAPIClient(session: session)) }
        saveOfflineCopy()
      } catch {
        taskList?.update(task)
        showToast(error.message, aboutList: true) { [unowned self] in self.change(from: task, to: changed, send) }
      }
    }
  }

  // MARK: Deleting

  /// Takes the row out at once and shows an Undo toast; the server hears of it when the toast goes away.
  func delete(_ key: RowKey) {
    guard let taskList else { return }
    finishPendingWork()  // one Undo at a time: an earlier deletion happens now
    guard let index = taskList.remove(key) else { return }
    showTasksPage()
    // Short, as GNOME's toasts are: the task's text may be long, and the row is gone from view anyway.
    let toast = adw_toast_new(tr("Task deleted"))!
    adw_toast_set_button_label(toast, tr("Undo"))
    adw_toast_set_priority(toast, ADW_TOAST_PRIORITY_HIGH)
    pendingDeletion = PendingDeletion(key: key, index: index, toast: toast)
    Signal.connect(toast, "button-clicked") { [unowned self] in
      guard let deletion = self.pendingDeletion, deletion.toast == toast else { return }
      self.pendingDeletion = nil
      self.taskList?.insert(deletion.key, at: deletion.index)
      self.showTasksPage()
    }
    Signal.connect(toast, "dismissed") { [unowned self] in
      guard let deletion = self.pendingDeletion, deletion.toast == toast else { return }
      self.pendingDeletion = nil
      self.commit(deletion)
    }
    present(toast)
  }

  /// Carries out a deletion whose toast is still showing (quitting, signing out, deleting another); answers the
  /// request, for a caller that must wait for it. The app is held until the server has answered, so that quitting
  /// does not cut the request short.
  @discardableResult
  func finishPendingWork() -> Task<Void, Never>? {
    guard let deletion = pendingDeletion else { return nil }
    pendingDeletion = nil
    adw_toast_dismiss(deletion.toast)
    return commit(deletion)
  }

  @discardableResult
  private func commit(_ deletion: PendingDeletion) -> Task<Void, Never>? {
    guard let session, let taskList else { return nil }
    let application = gtk_window_get_application(window.window).map { OpaquePointer($0.gpointer) }
    application.map { g_application_hold(UnsafeMutablePointer($0)) }
    return Task {
      defer { application.map { g_application_release(UnsafeMutablePointer($0)) } }
      do throws(TaskAPIError) {
        switch deletion.key {
        case .task(let id):
          try await withSpinner { () async throws(TaskAPIError) in
            try await TaskAPIClient(session: session).delete(id: id)
          }
          saveOfflineCopy()
        case .pending(let id):
          guard let account = await session.account else { return }
          try? await files(for: account).outbox.remove(id)
        }
      } catch {
        taskList.insert(deletion.key, at: deletion.index)
        showTasksPage()
        showToast(String(format: tr("The task could not be deleted: %@"), error.message), aboutList: true) {
          [unowned self] in
          _ = self.taskList?.remove(deletion.key)
          self.showTasksPage()
          self.commit(deletion)
        }
      }
    }
  }

  /// Writes the list as shown to the offline copy (after a change the server confirmed).
  private func saveOfflineCopy() {
    guard let session, let tasks = taskList?.confirmedTasks else { return }
    Task {
      guard let account = await session.account else { return }
      try? await files(for: account).cache.save(tasks)
    }
  }
}

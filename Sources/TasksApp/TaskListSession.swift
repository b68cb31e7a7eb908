// TaskListSession: what the list does with one session's tasks: load, add, complete, edit, delete with Undo, the
// sync and the offline banner; it drives the list view and talks to the window through `TaskListWindow`. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// The tasks of the signed-in account as the list shows them: the list view's data, the undo queue, the fetches with
/// their automatic retry, and every task operation. Each operation keeps its change in the account's outbox (on
/// disk) first, shows it at once, then sends it; offline, it waits there.
@MainActor
final class TaskListSession {
  /// The list view.
  let list: TaskListController
  /// What Ctrl+Z and the toasts' Undo take back.
  let undoQueue = UndoQueue()
  /// The list's fetches, its offline copy and the automatic retry.
  let sync = ListSync()
  /// Deletions with their Undo toasts.
  private lazy var deletions = TaskDeletions(
    list: list, undoQueue: undoQueue, window: window,
    files: { [unowned self] in
      guard let account = await self.session.account else { return nil }
      return self.files(account)
    },
    send: { [unowned self] files in await self.sendChanges(files) })
  private let session: Session
  private let files: (Account) -> AccountFiles
  private unowned let window: any TaskListWindow

  init(
    session: Session, list: TaskListController, window: any TaskListWindow,
    files: @escaping (Account) -> AccountFiles
  ) {
    self.session = session
    self.list = list
    self.window = window
    self.files = files
    sync.retry = { [unowned self] in await self.refreshQuietly(atMostEvery: .zero) }
    list.onToggle = { [unowned self] task, done in self.setCompleted(task, done, undoable: true) }
    list.onEdit = { [unowned self] task, text in self.setText(task, text) }
    list.onDelete = { [unowned self] key in self.delete([key]) }
    list.onMessage = { [unowned self] message in self.window.showToast(message) }
  }

  // MARK: Loading

  /// Sends what waits in the outbox, then shows the server's list followed by what still waits. When the server
  /// cannot be reached, the last list stays (or the offline copy is shown) under a banner saying so. With
  /// `announcingSent`, a toast says how many waiting tasks went out (not after an add, where that is expected);
  /// `quietly` (a live refresh, an automatic retry), without the header's spinner.
  func reload(announcingSent: Bool = true, quietly: Bool = false) async {
    guard let account = await session.account else {
      window.showWelcome()
      return
    }
    let files = files(account)
    sync.fetching = true
    defer {
      sync.fetching = false
      sync.lastFetch = .now
    }
    let known = sync.knownList
    if quietly {
      await show(await ListFetch.run(session, files, known: known), of: files, announcingSent: announcingSent)
    } else {
      await window.withSpinner {
        await show(await ListFetch.run(session, files, known: known), of: files, announcingSent: announcingSent)
      }
    }
  }

  /// Shows what the start-up load brought for `restored`: its offline copy at once (unless the server's `list` is
  /// already there), then the server's list. The first fetch counts as one for the live refresh: the window's
  /// focus-in right after must not fetch again.
  func showAtStart(_ restored: StartupLoad.Restored, list: Task<ListFetch?, Never>, listIsReady: Bool) async {
    if let copy = restored.offlineCopy, !listIsReady {
      await show(copy.tasks, of: restored.files)
      window.showTasksPage()
    }
    sync.fetching = true
    await window.withSpinner {
      if let fetch = await list.value { await show(fetch, of: restored.files) }
    }
    sync.fetching = false
    sync.lastFetch = .now
  }

  /// Empties the list (signed out, or another account signed in).
  func clear() {
    list.show([])
  }

  /// Shows what a load of the list brought.
  func show(_ fetch: ListFetch, of files: AccountFiles, announcingSent: Bool = true) async {
    switch fetch.tasks {
    case .success(let tasks):
      sync.knownList = fetch.version.map {
        KnownList(objectID: files.objectID, list: TaskList(tasks: tasks, version: $0))
      }
      // (Rows whose Undo toast is showing stay out of the list until the toast goes.)
      await show(tasks, of: files, sent: fetch.flushed.created)
      b2c_debug("tasks: the server's list is shown (\(tasks.count) tasks)")
      finishReload(files, tasks, fetch.flushed, announcingSent)
    case .failure(let error):
      await listFailed(error, files)
    }
  }

  /// Shows `tasks` (the server's, or the offline copy) with the changes waiting in `files`' outbox made, and the
  /// tasks waiting there; `sent` are the server's ids of tasks just sent from it.
  func show(_ tasks: [TaskItem], of files: AccountFiles, sent: [String: Int64] = [:]) async {
    let outbox = files.outbox
    list.show(
      await outbox.applied(to: tasks), waiting: await outbox.pending, changed: await outbox.changedTaskIDs, sent: sent)
  }

  private func finishReload(
    _ files: AccountFiles, _ tasks: [TaskItem], _ flushed: Outbox.FlushResult, _ announcingSent: Bool
  ) {
    window.showOfflineBanner(nil)
    sync.stopRetrying()
    window.showTasksPage()
    if sync.savedList != tasks {
      sync.savedList = tasks
      // Once the list is drawn: encoding 100 000 tasks takes a core for half a second, which the first frame
      // should not share.
      Idle.run { Task { try? await files.cache.save(tasks) } }
    }
    if announcingSent && flushed.sent > 0 {
      window.showToast(
        String(template: trn("%d waiting task was sent", "%d waiting tasks were sent", flushed.sent), flushed.sent),
        aboutList: true)
    }
    if let stopped = flushed.stoppedBy {
      window.showToast(stopped.message, aboutList: true) { Task { await self.reload() } }
    }
    // The list shown is the server's: a change it refused is undone there.
    if let refused = flushed.refusedChanges.first {
      let reason = refused == .notFound ? tr("the task was deleted elsewhere") : refused.message
      window.showToast(String(template: tr("A change could not be made: %@"), reason), aboutList: true)
    }
  }

  private func listFailed(_ error: TaskAPIError, _ files: AccountFiles) async {
    if case .unauthorized(.signedOutElsewhere) = error {
      window.signedOutElsewhere()
      return
    }
    if case .unauthorized(.accountChanged(let now)) = error {
      // Another app of the group signed in as someone else: the window now shows that account's list, from its own
      // files; what waits in this account's outbox stays there, unsent.
      window.showToast(SessionError.accountChanged(now).message)
      return await reload(announcingSent: false)
    }
    if case .unauthorized = error, await session.account == nil { return }  // the sign-in page is on its way
    let copy = try? await files.cache.load()
    if !window.isShowingList {
      // Nothing shown yet: the offline copy if there is one, and the tasks and changes that wait.
      await show(copy?.tasks ?? [], of: files)
    }
    window.showTasksPage()
    if case .network(let network) = error {
      window.showOfflineBanner(
        OfflineBanner.message(for: network, savedAt: copy?.savedAt, networkAvailable: ListSync.networkAvailable))
      if case .untrusted = network {} else { sync.scheduleRetry() }
    } else {
      window.showToast(error.message, aboutList: true) { Task { await self.reload() } }
    }
  }

  // MARK: Adding

  /// Keeps the task in the outbox (on disk) first, shows it at once (scrolled into view, highlighted), then
  /// sends it.
  func add(_ text: String) {
    Task {
      guard let account = await session.account else {
        window.showToast(tr("Sign in to add tasks."))
        return
      }
      do {
        let waiting = try await files(account).outbox.add(text)
        list.append(waiting)
        window.showTasksPage()
      } catch {
        window.showToast(tr("The task could not be saved. Check that your disk is not full."))
        return
      }
      await reload(announcingSent: false)
    }
  }

  // MARK: Changing

  /// Ticks or unticks a task; `undoable`, Ctrl+Z takes it back.
  func setCompleted(_ task: TaskItem, _ done: Bool, undoable: Bool) {
    if undoable { undoQueue.recordCompletion(task, done: done) }
    var changed = task
    changed.completed = done
    change(from: task, to: changed) { outbox in try await outbox.change(task.id, completed: done) }
  }

  func setText(_ task: TaskItem, _ text: String) {
    var changed = task
    changed.text = text
    change(from: task, to: changed) { outbox in try await outbox.change(task.id, text: text) }
  }

  /// Shows `changed` at once, keeps the change in the outbox (on disk), then sends it: offline, it waits there (the
  /// row says so) and goes when the service can be reached.
  private func change(
    from task: TaskItem, to changed: TaskItem, _ record: @escaping (Outbox) async throws -> Void
  ) {
    // Modified now, as the server will record it: the row takes its place in the order at once.
    var changed = changed
    changed.dateModified = Date()
    list.update(changed, waiting: true)
    Task {
      guard let account = await session.account else { return }
      do {
        try await record(files(account).outbox)
      } catch {
        list.update(task)
        window.showToast(tr("The change could not be saved. Check that your disk is not full."), aboutList: true)
        return
      }
      await sendChanges(files(account))
    }
  }

  /// Sends what waits in the outbox after a change or a deletion, without fetching the list again: the rows show
  /// the change already. When the service cannot be reached, or refused a change, or something added was sent, a
  /// reload shows the banner, the server's truth or the new rows.
  private func sendChanges(_ files: AccountFiles) async {
    let flushed = await window.withSpinner {
      await files.outbox.flush(TaskAPIClient(session: session, account: files.objectID))
    }
    guard flushed.stoppedBy == nil, flushed.refusedChanges.isEmpty, flushed.sent == 0 else {
      return await reload(announcingSent: false, quietly: true)
    }
    list.markWaiting(await files.outbox.changedTaskIDs)
    // The offline copy is the list as shown; the next fetch writes the server's again.
    sync.savedList = nil
    try? await files.cache.save(list.confirmedTasks)
  }

  // MARK: Deleting

  /// Takes the rows out at once and shows an Undo toast; the server hears of it when the toast goes away.
  func delete(_ keys: [RowKey]) { deletions.delete(keys) }

  /// Carries out a deletion whose toast is still showing (quitting, signing out); answers the request, for a caller
  /// that must wait for it.
  @discardableResult
  func finishPendingWork() -> Task<Void, Never>? { deletions.finishPending() }

  // MARK: Undo and refresh

  /// Delete Completed: every completed task, with one Undo.
  func deleteCompleted() {
    let keys = list.completedKeys
    guard !keys.isEmpty else {
      window.showToast(tr("No completed tasks to delete"))
      return
    }
    delete(keys)
  }

  /// Ctrl+Z: takes back the deletion whose toast shows, else the last completion.
  func undo() {
    switch undoQueue.takeLast() {
    case .deletion(let deletion):
      deletions.undo(deletion)
    case .completion(let task, let done):
      var current = list.task(.task(task.id)) ?? task
      current.completed = done
      setCompleted(current, !done, undoable: false)
    case nil:
      break
    }
  }

  /// Fetches the list without the header's spinner, when the list is on screen, no row is being edited, no fetch
  /// is under way and the last one is older than `interval`. Nothing moves when nothing changed.
  func refreshQuietly(atMostEvery interval: Duration) async {
    guard window.isShowingList, !list.isEditing, !sync.fetching else { return }
    if let lastFetch = sync.lastFetch, ContinuousClock.now - lastFetch < interval { return }
    await reload(quietly: true)
  }
}

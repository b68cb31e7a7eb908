// TaskListOperations: what the list does with the signed-in account's tasks: load, add, complete, edit, delete with
// Undo, the sync and the offline state. GTK-free: it drives a `TaskListView` and a `TaskListPresenter` when a window
// shows the list, and goes on without one. Main actor.

import FoundationEssentials
import TasksCore

/// The tasks of the signed-in account as the list shows them: the undo queue, the fetches with their automatic
/// retry, and every task operation. Each operation keeps its change in the account's outbox (on disk) first, shows
/// it at once, then sends it; offline, it waits there.
@MainActor
public final class TaskListOperations {
  /// The list on screen, when a window shows it.
  public private(set) weak var view: (any TaskListView)?
  /// The window around the list, when there is one.
  public private(set) weak var presenter: (any TaskListPresenter)?
  /// The outbox copies kept aside that the user was told of.
  private var toldKeptAside: Set<URL> = []
  /// What Ctrl+Z and the notices' Undo take back.
  public let undoQueue = UndoQueue()
  /// The list's fetches, its offline copy and the automatic retry.
  let sync: ListSync
  /// Deletions with their Undo notices.
  private lazy var deletions = TaskDeletions(list: self, undoQueue: undoQueue, host: host)
  private let session: Session
  private unowned let account: AccountSession
  /// Counts the lists cleared (signed out, another account): an offline copy made of an earlier one is not written.
  private var generation = 0
  private unowned let host: any AccountHost

  init(session: Session, account: AccountSession, host: any AccountHost) {
    self.session = session
    self.account = account
    self.host = host
    sync = ListSync(host: host)
    sync.retry = { [unowned self] in await self.refreshQuietly(atMostEvery: .zero) }
  }

  /// Shows the list in `view`, inside `presenter` (a window opened).
  public func attach(view: any TaskListView, presenter: any TaskListPresenter) {
    self.view = view
    self.presenter = presenter
    // A new view starts empty: the next fetch brings the whole list, not "unchanged".
    sync.knownList = nil
    sync.lastFetch = nil
  }

  /// The window closed: what waits goes on (a deletion whose notice showed is carried out now).
  public func detach() {
    finishPendingWork()
    view = nil
    presenter = nil
    sync.stopRetrying()
  }

  /// The signed-in account's files (nil: nobody is signed in).
  func currentFiles() async -> AccountFiles? {
    guard let signedIn = await session.account else { return nil }
    return account.files(for: signedIn)
  }

  /// Says that the list is to be shown (the window then shows the list, or its empty page).
  public func showList() { listChanged() }

  /// The list's rows changed in number: the window shows the list or its empty page.
  func listChanged() {
    account.publish(.listChanged(isEmpty: (view?.count ?? 0) == 0))
  }

  // MARK: Loading

  /// Sends what waits in the outbox, then shows the server's list followed by what still waits. When the server
  /// cannot be reached, the last list stays (or the offline copy is shown) and the presenter says so. With
  /// `announcingSent`, a message says how many waiting tasks went out (not after an add, where that is expected);
  /// `quietly` (a live refresh, an automatic retry), without the spinner. `readingPlanner` false: the planner read
  /// the feed itself just now (the reload follows its edit), so the list's reload does not have it read again.
  public func reload(announcingSent: Bool = true, quietly: Bool = false, readingPlanner: Bool = true) async {
    guard let files = await currentFiles() else {
      account.publish(.signedOut(elsewhere: false))
      return
    }
    sync.fetching = true
    defer {
      sync.fetching = false
      sync.lastFetch = .now
    }
    let known = sync.knownList
    if let presenter, !quietly {
      await presenter.withSpinner {
        await show(
          await ListFetch.run(session, files, known: known), of: files, announcingSent: announcingSent,
          readingPlanner: readingPlanner)
      }
    } else {
      await show(
        await ListFetch.run(session, files, known: known), of: files, announcingSent: announcingSent,
        readingPlanner: readingPlanner)
    }
  }

  /// Shows what the start-up load brought for `files`: the `offlineCopy` at once (unless the server's `list` is
  /// already there), then the server's list. The first fetch counts as one for the live refresh: the window's
  /// focus-in right after must not fetch again.
  public func showAtStart(
    _ files: AccountFiles, offlineCopy: CachedTaskList?, list: Task<ListFetch?, Never>, listIsReady: Bool
  ) async {
    if let copy = offlineCopy, !listIsReady {
      await show(copy.tasks, of: files)
      listChanged()
    }
    sync.fetching = true
    let fetch: ListFetch?
    if let presenter { fetch = await presenter.withSpinner { await list.value } } else { fetch = await list.value }
    if let fetch { await show(fetch, of: files) }
    sync.fetching = false
    sync.lastFetch = .now
  }

  /// Empties the list and forgets what can be undone and retried (signed out, or another account signed in).
  func clear() {
    generation += 1
    view?.show([], waiting: [], changed: [], sent: [:])
    undoQueue.clear()
    sync.reset()
  }

  /// Shows what a load of the list brought.
  func show(_ fetch: ListFetch, of files: AccountFiles, announcingSent: Bool = true, readingPlanner: Bool = true) async
  {
    switch fetch.tasks {
    case .success(let tasks):
      sync.knownList = fetch.version.map {
        KnownList(objectID: files.objectID, list: TaskList(tasks: tasks, version: $0))
      }
      // (Rows whose Undo notice is showing stay out of the list until it goes.)
      await show(tasks, of: files, sent: fetch.flushed.created)
      host.debug("tasks: the server's list is shown (\(tasks.count) tasks)")
      finishReload(files, tasks, fetch.flushed, announcingSent, readingPlanner: readingPlanner)
    case .failure(let error):
      await listFailed(error, files)
    }
  }

  /// Shows `tasks` (the server's, or the offline copy) with the changes waiting in `files`' outbox made, and the
  /// tasks waiting there; `sent` are the server's ids of tasks just sent from it.
  func show(_ tasks: [TaskItem], of files: AccountFiles, sent: [String: Int64] = [:]) async {
    let outbox = files.outbox
    let applied = await outbox.applied(to: tasks)
    let (waiting, changed) = (await outbox.pending, await outbox.changedTaskIDs)
    view?.show(applied, waiting: waiting, changed: changed, sent: sent)
  }

  private func finishReload(
    _ files: AccountFiles, _ tasks: [TaskItem], _ flushed: Outbox.FlushResult, _ announcingSent: Bool,
    readingPlanner: Bool
  ) {
    sync.stopRetrying()
    presenter?.showOffline(nil, savedAt: nil)
    listChanged()
    // The planner's lists and counts follow, once the list is drawn (when a window shows them).
    if readingPlanner, account.planner.view != nil {
      // (The planner alone: holding the account across a request would keep it past its application's end.)
      host.whenIdle { [weak planner = account.planner] in await planner?.refresh() }
    }
    if sync.savedList != tasks {
      sync.savedList = tasks
      // Once the list is drawn: encoding 100 000 tasks takes a core for half a second, which the first frame
      // should not share.
      let generation = self.generation
      host.whenIdle { await self.saveOfflineCopy(tasks, to: files, made: generation) }
    }
    if let aside = files.outbox.keptAside, let presenter, toldKeptAside.insert(aside).inserted {
      presenter.showMessage(KeptAside.message(aside), aboutList: false)
    }
    if announcingSent && flushed.sent > 0 {
      presenter?.showMessage(
        String(template: trn("%d waiting task was sent", "%d waiting tasks were sent", flushed.sent), flushed.sent),
        aboutList: true)
    }
    if let stopped = flushed.stoppedBy {
      presenter?.showMessage(stopped.message, aboutList: true) { Task { await self.reload() } }
    }
    sayRefused(flushed)
  }

  /// Says that the server refused a change (the list shown next is the server's: the change is undone there).
  private func sayRefused(_ flushed: Outbox.FlushResult) {
    guard let refused = flushed.refusedChanges.first else { return }
    let reason = refused == .notFound ? tr("the task was deleted elsewhere") : refused.message
    presenter?.showMessage(String(template: tr("A change could not be made: %@"), reason), aboutList: true)
  }

  private func listFailed(_ error: TaskAPIError, _ files: AccountFiles) async {
    if case .unauthorized(.signedOutElsewhere) = error {
      await account.signedOutElsewhere()
      return
    }
    if case .unauthorized(.accountChanged(let now)) = error {
      // Another app of the group signed in as someone else: the list now shows that account's, from its own files;
      // what waits in this account's outbox stays there, unsent.
      presenter?.showMessage(SessionError.accountChanged(now).message)
      return await reload(announcingSent: false)
    }
    if case .unauthorized = error, await session.account == nil { return }  // the sign-in page is on its way
    let copy = try? await files.cache.load()
    if presenter?.isShowingList != true {
      // Nothing shown yet: the offline copy if there is one, and the tasks and changes that wait.
      await show(copy?.tasks ?? [], of: files)
    }
    listChanged()
    if case .network(let network) = error {
      presenter?.showOffline(network, savedAt: copy?.savedAt)
      if case .untrusted = network {} else if presenter != nil { sync.scheduleRetry() }
    } else {
      presenter?.showMessage(error.message, aboutList: true) { Task { await self.reload() } }
    }
  }

  // MARK: Adding

  /// Keeps the task in the outbox (on disk) first, shows it at once (scrolled into view, highlighted), then sends
  /// it. Answers when it was sent, or could not be.
  @discardableResult
  public func add(_ text: String) -> Task<Void, Never> {
    Task {
      guard let files = await currentFiles() else {
        presenter?.showMessage(tr("Sign in to add tasks."))
        return
      }
      do {
        let waiting = try await files.outbox.add(text)
        view?.append(waiting)
        listChanged()
      } catch {
        presenter?.showMessage(tr("The task could not be saved. Check that your disk is not full."))
        return
      }
      await reload(announcingSent: false)
    }
  }

  // MARK: Changing

  /// Ticks or unticks a task; `undoable`, Ctrl+Z takes it back. Answers when it was sent, or could not be.
  @discardableResult
  public func setCompleted(_ task: TaskItem, _ done: Bool, undoable: Bool) -> Task<Void, Never> {
    if undoable { undoQueue.recordCompletion(task, done: done) }
    var changed = task
    changed.completed = done
    return change(from: task, to: changed) { outbox in try await outbox.change(task.id, completed: done) }
  }

  /// Changes a task's text. Answers when it was sent, or could not be.
  @discardableResult
  public func setText(_ task: TaskItem, _ text: String) -> Task<Void, Never> {
    var changed = task
    changed.text = text
    return change(from: task, to: changed) { outbox in try await outbox.change(task.id, text: text) }
  }

  /// Shows `changed` at once, keeps the change in the outbox (on disk), then sends it: offline, it waits there (the
  /// row says so) and goes when the service can be reached.
  private func change(
    from task: TaskItem, to changed: TaskItem, _ record: @escaping (Outbox) async throws -> Void
  ) -> Task<Void, Never> {
    // Modified now, as the server will record it: the row takes its place in the order at once.
    var changed = changed
    changed.dateModified = Date()
    view?.update(changed, waiting: true)
    return Task {
      guard let files = await currentFiles() else { return }
      do {
        try await record(files.outbox)
      } catch {
        view?.update(task, waiting: false)
        presenter?.showMessage(
          tr("The change could not be saved. Check that your disk is not full."), aboutList: true)
        return
      }
      await sendChanges(files)
    }
  }

  /// Sends what waits in the outbox after a change or a deletion, without fetching the list again: the rows show
  /// the change already. When the service cannot be reached, or refused a change, or something added was sent, a
  /// reload shows the offline state, the server's truth or the new rows.
  func sendChanges(_ files: AccountFiles) async {
    let generation = self.generation
    let client = TaskAPIClient(session: session, account: files.objectID)
    let flushed: Outbox.FlushResult
    if let presenter {
      flushed = await presenter.withSpinner { await files.outbox.flush(client) }
    } else {
      flushed = await files.outbox.flush(client)
    }
    guard flushed.stoppedBy == nil, flushed.refusedChanges.isEmpty, flushed.sent == 0 else {
      // (The reload's own sending finds the refused changes gone: they are said from this one.)
      sayRefused(flushed)
      return await reload(announcingSent: false, quietly: true)
    }
    guard let view else { return }
    view.markWaiting(await files.outbox.changedTaskIDs)
    // The offline copy is the list as shown; the next fetch writes the server's again.
    sync.savedList = nil
    await saveOfflineCopy(view.confirmedTasks, to: files, made: generation)
  }

  /// Writes `tasks` as `files`' offline copy, unless the list was cleared since they were had (`made`): a copy
  /// written after a sign-out would leave the account's tasks on disk.
  private func saveOfflineCopy(_ tasks: [TaskItem], to files: AccountFiles, made: Int) async {
    guard made == generation else { return }
    try? await files.cache.save(tasks)
  }

  // MARK: Deleting

  /// Takes the rows out at once and shows an Undo notice; the server hears of it when the notice goes away.
  public func delete(_ keys: [RowKey]) { deletions.delete(keys) }

  /// Carries out a deletion whose notice is still showing (quitting, signing out); answers the request, for a caller
  /// that must wait for it.
  @discardableResult
  public func finishPendingWork() -> Task<Void, Never>? { deletions.finishPending() }

  // MARK: Undo and refresh

  /// Delete Completed: every completed task, with one Undo.
  public func deleteCompleted() {
    let keys = view?.completedKeys ?? []
    guard !keys.isEmpty else {
      presenter?.showMessage(tr("No completed tasks to delete"))
      return
    }
    delete(keys)
  }

  /// Ctrl+Z: takes back the deletion whose notice shows, else the last completion.
  public func undo() {
    switch undoQueue.takeLast() {
    case .deletion(let deletion):
      deletions.undo(deletion)
    case .completion(let task, let done):
      var current = view?.task(.task(task.id)) ?? task
      current.completed = done
      setCompleted(current, !done, undoable: false)
    case nil:
      break
    }
  }

  /// Fetches the list without the spinner, when the list is on screen, no row is being edited, no fetch is under
  /// way and the last one is older than `interval`. Nothing moves when nothing changed.
  /// `readingPlanner` false: the planner has just read the feed (see `reload`).
  public func refreshQuietly(atMostEvery interval: Duration, readingPlanner: Bool = true) async {
    guard presenter?.isShowingList == true, view?.isEditing != true, !sync.fetching else { return }
    if let lastFetch = sync.lastFetch, ContinuousClock.now - lastFetch < interval { return }
    await reload(quietly: true, readingPlanner: readingPlanner)
  }
}

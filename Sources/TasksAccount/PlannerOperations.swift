// PlannerOperations, PlannerView: the signed-in account's lists and tasks as the window shows them — the replica of
// the change feed (the offline copy), the outbox of every edit, what is shown with the waiting edits made — and every
// edit: kept on disk first, shown at once, then sent; Undo; the automatic retry while offline. GTK-free; main actor.

import FoundationEssentials
import Synchronization
import TasksCore

/// What the planner's operations ask of the window.
@MainActor
public protocol PlannerView: AnyObject {
  /// The lists and tasks as they are now (the waiting edits made).
  func show(_ shown: PlannerShown)
  /// A change whose fields lost to a change made elsewhere; `useMine` offers this device's values again (to the
  /// account the conflict is of, whoever is signed in when it is pressed).
  func showConflict(_ conflict: PlannerConflict, useMine: @escaping @MainActor () async -> Void)
  /// A message for the user (a refused edit, a service that cannot be reached).
  func showMessage(_ message: String)
  /// Says that the task service cannot be reached (`problem`), with the time the tasks shown were last read from
  /// it; nil takes it away.
  func showOffline(_ problem: NetworkError?, savedAt: Date?)
  /// Shows `title` with an Undo button: `undo` runs when it is pressed, `dismissed` when the notice goes otherwise.
  func showUndo(_ title: String, undo: @escaping @MainActor () -> Void, dismissed: @escaping @MainActor () -> Void)
    -> any UndoNotice
}

/// A notice with Undo on screen (a toast); it can be taken away before it goes by itself.
@MainActor
public protocol UndoNotice {
  func dismiss()
}

/// The planner of the signed-in account: follows the change feed into a replica on disk (what the window shows
/// offline), keeps every edit in the account's planner outbox before showing it, and sends the outbox before each read
/// of the feed. Edits an earlier version kept in the sample's list outbox go out through the sample's API first, once.
/// While the service cannot be reached, the view says so and a read is tried again (`SyncRetry`). Deletions wait
/// for their Undo notice to go; Ctrl+Z takes back the last deletion, completion or move (`PlannerUndo`).
///
/// Refreshes never overlap: those asked for while one runs share one run after it.
@MainActor
public final class PlannerOperations {
  /// The window's planner, when one shows it.
  public weak var view: (any PlannerView)?
  /// What is shown now (nil before the first load).
  public private(set) var shown: PlannerShown?
  /// Whether the service has the task API v2 (nil: not known yet).
  public private(set) var isAvailable: Bool?
  /// Called after each read of the feed with what is shown (`edited`: the read that followed an edit of this
  /// window's): the reminder service is told of reminders.
  public var onSynced: (@MainActor (_ shown: PlannerShown, _ edited: Bool) -> Void)?
  /// Called when a first read's pages so far were shown (the window leaves its loading page for them).
  public var onPreview: (@MainActor () -> Void)?
  /// The client for the signed-in account (the headless tests give one that cannot reach the service).
  public var makeClient: @MainActor (_ session: Session, _ objectID: String) -> TaskAPIClient = { session, id in
    TaskAPIClient(session: session, account: id)
  }

  /// How many tasks a page of the change feed asks for (nil: the service's page size).
  public var pageSize: Int?

  private let session: Session
  /// Weak: an edit's request may outlive the application's account (a test's, at its end).
  private weak var host: (any AccountHost)?
  private let environment: [String: String]
  private var store: Store?
  /// The account whose lists are shown: what the user does over them is that account's (an edit made as another app
  /// of the group signs in as someone else waits in this one's outbox).
  private var shownStore: Store?

  /// The account whose lists were shown when the user started what runs now (`soon`), if it is bound to one.
  @TaskLocal private static var startedOver: ShownAccount?

  /// The account an edit asked for now is made over: the one shown when the user started it.
  private var actingOver: Store? { Self.startedOver.map(\.store) ?? shownStore }

  /// The account whose lists are shown now, for an edit the user starts now and confirms later (a dialog's answer, a
  /// toast that goes): `soon(over:)` makes it over that account, whoever is shown by then.
  public struct ShownAccount: Sendable {
    fileprivate let store: Store?
    /// Its account's object id (nil: nothing was shown).
    public var objectID: String? { store?.objectID }
  }

  public var shownAccount: ShownAccount { ShownAccount(store: actingOver) }
  /// The refresh running or last run, and the one waiting for it to end.
  private var lastRefresh: Task<Void, Never>?
  private var nextRefresh: Task<Void, Never>?
  /// When the last refresh ended (a live refresh asks at most so often).
  private var lastRefreshEnded: ContinuousClock.Instant?
  /// When what is shown was last read from the service (the offline banner says it), and whether the service could
  /// not be reached at the last read (the next that sends what waited says so).
  private var lastRead: Date?
  private var wasOffline = false
  private let retry: SyncRetry
  /// What Ctrl+Z and the notices' Undo take back, and the notices on screen.
  public private(set) var undoHistory = PlannerUndo()
  private var notices: [Int: any UndoNotice] = [:]

  /// One account's replica and outbox, and the file of the sample's list outbox (an earlier version's, or tasks
  /// added before any list was known).
  fileprivate struct Store: Sendable {
    /// The account's files (what a sign-out forgets; a switch to another account forgets their copies).
    let files: AccountFiles
    let replica: PlannerReplica
    let outbox: PlannerOutbox
    /// The sample's list outbox (one per account, read once: every add and send goes through it).
    let legacy: Outbox
    let lastRead: Date?

    var objectID: String { files.objectID }
  }

  init(session: Session, host: any AccountHost, environment: [String: String]) {
    self.session = session
    self.host = host
    self.environment = environment
    retry = SyncRetry(host: host)
    retry.retry = { [weak self] in await self?.refresh() }
  }

  /// The signed-in account's replica and outbox (read from disk off the main thread the first time).
  private func currentStore() async -> Store? {
    guard let account = await session.account else { return nil }
    if let store, store.objectID == account.objectID { return store }
    if loading?.files.objectID != account.objectID {
      let files = AccountFiles(account: account, in: session.key, environment: environment)
      let (pageSize, kept) = (pageSize, leftOutboxes[account.objectID])
      loading = (files, Task.detached { Self.readSaved(files, pageSize: pageSize, outboxes: kept).store })
    }
    guard let loading else { return nil }
    let made = await loading.task.value
    // Signed out (or another account signed in) while it was read: not this account's any more.
    guard self.loading?.files.objectID == made.objectID, await session.account?.objectID == made.objectID else {
      return nil
    }
    guard store?.objectID != made.objectID else { return store }
    let previous = store
    store = made
    leftOutboxes[made.objectID] = nil  // its own now
    if let previous {
      // Another app of the group signed in as someone else, whichever path noticed first (a request, the long poll,
      // the broker's restore), or this app's own sign-in did before `signedIn(as:)` was told: the previous account
      // is left as such a sign-in leaves it, and this one's copy shows (the long poll's read of an unchanged copy
      // would show nothing, and leave the other account's lists on screen). Only another app's is said.
      await leave(previous)
      if let now = await session.accountSignedInElsewhere, now.objectID == made.objectID {
        host?.debug("planner: another app of the group signed in as someone else")
        view?.showMessage(SessionError.accountChanged(now).message)
      }
      if shown != nil { await showCurrent(made) }
      Task { await self.refresh() }  // this account's lists, read
    }
    return store  // (nil, or another, when a sign-out or switch came while it was left)
  }

  /// The read of the signed-in account's copy from disk, under way or done (one per account).
  private var loading: (files: AccountFiles, task: Task<Store, Never>)?

  /// The files of the account the planner works for (shown, or being read); nil when none.
  var accountFiles: AccountFiles? { store?.files ?? loading?.files }

  /// Follows the session to the account it names now, when the planner works for another (another app of the group
  /// signed in as someone else, and the session noticed first: the broker restored it for an app).
  func followSession() async {
    guard accountFiles != nil else { return }
    _ = await currentStore()
  }

  /// The outboxes of the accounts left for another (`leave`), for their next sign-in here: one object per file, so
  /// that an edit kept for one of them later (its conflict's Use Mine) and its outbox once it is back never write
  /// over each other.
  private var leftOutboxes: [String: (outbox: PlannerOutbox, legacy: Outbox)] = [:]

  /// An account's copy of the feed and its outbox, read from disk.
  public struct SavedCopy: Sendable {
    fileprivate let store: Store
  }

  /// Reads `files`' copy of the feed and outbox (blocking: the start calls it on another thread right after the
  /// keyring's answer, while GTK makes the window, so that the first frame can show the lists).
  public nonisolated static func readSaved(_ files: AccountFiles, pageSize: Int? = nil) -> SavedCopy {
    readSaved(files, pageSize: pageSize, outboxes: nil)
  }

  /// `outboxes`: the account's, kept since it was left (`leftOutboxes`), or nil to read them.
  private nonisolated static func readSaved(
    _ files: AccountFiles, pageSize: Int?, outboxes: (outbox: PlannerOutbox, legacy: Outbox)?
  ) -> SavedCopy {
    // The offline copy of the versions before the planner: the replica is the copy now.
    try? FileManager.default.removeItem(at: files.legacyOfflineCopy)
    let lastRead = try? FileManager.default.attributesOfItem(atPath: files.replica.path)[.modificationDate]
    return SavedCopy(
      store: Store(
        files: files, replica: PlannerReplica(file: files.replica, pageSize: pageSize),
        outbox: outboxes?.outbox ?? PlannerOutbox(file: files.plannerOutbox),
        legacy: outboxes?.legacy ?? Outbox(file: files.legacyOutbox),
        lastRead: lastRead as? Date))
  }

  /// Takes the copy the start read (`readSaved`) as the signed-in account's, unless one is read or being read.
  public func adopt(_ copy: SavedCopy) {
    guard loading == nil, store == nil else { return }
    loading = (copy.store.files, Task { copy.store })
  }

  // MARK: Loading

  /// Shows the copy on disk, then sends what waits, reads what changed and shows that; returns once a refresh that
  /// started after the call has finished.
  public func refresh() async {
    if let waiting = nextRefresh { return await waiting.value }  // one not yet started covers this call too
    let previous = lastRefresh
    let run = Task { @MainActor in
      await previous?.value
      self.nextRefresh = nil
      await self.refreshOnce()
    }
    nextRefresh = run
    lastRefresh = run
    await run.value
  }

  /// Shows the account's copy on disk (read off the main thread) if nothing is shown yet; answers whether it holds
  /// any list (a first start on this computer has none: the window then waits for the service's).
  public func showSaved() async -> Bool {
    guard let store = await currentStore() else { return false }
    if shown == nil {
      lastRead = store.lastRead
      await showCurrent(store)
    }
    return shown?.lists.isEmpty == false
  }

  /// Reads the feed again unless a refresh ended less than `interval` ago, or one under way started less than that
  /// ago, or one waits to start (the window's focus and its minute: changes made elsewhere show without F5). (The
  /// focus a window gets at its start asked for a second read of everything after the first.)
  public func refreshQuietly(atMostEvery interval: Duration) async {
    if nextRefresh != nil || retry.isWaiting { return }
    if let lastRefreshEnded, ContinuousClock.now - lastRefreshEnded < interval { return }
    if let refreshStarted, ContinuousClock.now - refreshStarted < interval { return }
    await refresh()
  }

  /// When the refresh under way started (nil: none is).
  private var refreshStarted: ContinuousClock.Instant?

  /// The window's long poll (`LiveRefresh`): one request that the service answers when something changed for the
  /// account (through any device or instance), shown as a refresh shows it. Answers false when it could not wait
  /// (nothing shown yet, no task API v2, signed out, offline, the service failed): the caller then waits for a
  /// refresh before asking again.
  public func waitForChanges() async -> Bool {
    // (`hasRead` after `currentStore()`: another account's, noticed just now, has its own read first.)
    guard shown != nil, isAvailable != false, let store = await currentStore(), hasRead else { return false }
    let client = makeClient(session, store.objectID)
    let result: PlannerReplica.FollowResult
    do {
      result = try await store.replica.follow(client, wait: PlannerReplica.waitSeconds, deferringSave: true)
    } catch {
      // Another app of the group signed out, or signed in as someone else: the account follows the session, which
      // noticed (`AccountSession`); the next long poll waits the back-off (while the session's tokens catch up with
      // the account it names, a poll fails at once).
      return false
    }
    guard self.store?.objectID == store.objectID else { return false }  // signed out or switched meanwhile
    lastRead = Date()
    // Shown again when something changed, and when the day changed (the rows' dates move on).
    let today = DueLabel.now().today
    defer { shownDay = today }
    if result.changed > 0 || result.startedOver || today != shownDay {
      await showCurrent(store)
      if let shown { onSynced?(shown, false) }
      await store.replica.saveIfUnsaved()
    }
    return true
  }

  /// Returns once the service's lists, or a copy of them kept from an earlier read, are shown (at once when they
  /// are): the long poll starts from what was read. (Before the first read, a long poll would ask for everything a
  /// second time, beside the read under way.)
  /// A first read that fails (offline, the service failing) lets it return too, once it has ended: the long poll's
  /// own retries take over. A waiting task that is cancelled returns at once.
  public func untilShown() async {
    if shown != nil && (hasRead || lastRefreshEnded != nil) { return }
    let id = UUID()
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        if Task.isCancelled { return continuation.resume() }
        shownWaiters[id] = continuation
      }
    } onCancel: {
      Task { @MainActor in self.shownWaiters.removeValue(forKey: id)?.resume() }
    }
  }

  /// Whether the service's lists were read (now or in a kept copy), not only this window's edits shown. Stays true
  /// until the account is forgotten (a read that starts over empties the copy's token a moment, not what was read).
  private var hasRead = false

  private func resumeShownWaiters() {
    let waiting = shownWaiters
    shownWaiters = [:]
    for waiter in waiting.values { waiter.resume() }
  }

  /// The first read's pages so far, shown in place of the copy while the read goes on (`follow`'s `showing`), and
  /// how many were shown; nil when no first read is under way.
  private var preview: (lists: [PlannerListItem], tasks: [UUID: PlannerItem], number: Int)?

  private var shownWaiters: [UUID: CheckedContinuation<Void, Never>] = [:]

  /// The day what is shown was last shown on (the long poll shows it again when it changes).
  private var shownDay: CalendarDate?

  private func refreshOnce() async {
    refreshStarted = .now
    defer {
      refreshStarted = nil
      lastRefreshEnded = .now
      if shown != nil { resumeShownWaiters() }
    }
    guard let store = await currentStore() else { return }
    _ = await showSaved()
    let client = makeClient(session, store.objectID)
    if await sendLegacy(store.legacy, client) == false { return }
    let flushed = await store.outbox.flush(client)
    // A request found that the account is not the session's any more: it follows the session (`AccountSession`).
    if Self.accountGone(flushed.stoppedBy) { return }
    report(flushed, of: store)
    if wasOffline && flushed.sent > 0 {
      view?.showMessage(
        String(
          template: trn("%d waiting change was sent", "%d waiting changes were sent", flushed.sent), flushed.sent))
    }
    var offline: NetworkError?
    // A first read (nothing kept on this computer) is shown page by page as it comes.
    var showing: (@Sendable ([PlannerListItem], [UUID: PlannerItem]) -> Void)?
    if await store.replica.isEmpty {
      preview = (lists: [], tasks: [:], number: 0)
      let counter = PreviewCounter()
      showing = { [weak self] lists, tasks in
        let number = counter.next()
        Task { @MainActor in await self?.showPreview(lists: lists, tasks: tasks, number: number, store) }
      }
    }
    do {
      try await store.replica.follow(client, deferringSave: true, showing: showing)
      isAvailable = true
      lastRead = Date()
    } catch .notFound {
      isAvailable = false
      host?.debug("planner: the service has no task API v2")
    } catch .unauthorized {
      // The sign-in page is on its way, or the account follows the session (another app signed out, or signed in as
      // someone else: `AccountSession`): what waits in this account's outbox stays there, unsent.
      await endPreview(store)
      return
    } catch .network(let network) {
      offline = network
    } catch {
      view?.showMessage(error.message)
    }
    preview = nil
    await showCurrent(store)
    view?.showOffline(offline, savedAt: lastRead)
    wasOffline = offline != nil
    if let offline, case .untrusted = offline {
      retry.stop()  // a certificate is not fixed by trying again: the banner's Retry asks
    } else if offline != nil || flushed.stalled {
      retry.schedule()
    } else {
      retry.stop()
    }
    if let shown { onSynced?(shown, false) }
    await store.replica.saveIfUnsaved()
    if offline == nil { host?.debug("planner: the service's lists are shown (\(shown?.tasks.count ?? 0) tasks)") }
  }

  /// Sends what an earlier version kept in the sample's list outbox (its tasks go to the default list through the
  /// sample's API, as that version would have sent them), then removes the file; what cannot be sent yet stays.
  /// Answers false when a request found the account is not the session's any more (the refresh ends there).
  private func sendLegacy(_ legacy: Outbox, _ client: TaskAPIClient) async -> Bool {
    let (pending, changes) = (await legacy.pending, await legacy.pendingChanges)
    guard !pending.isEmpty || !changes.isEmpty else { return true }
    let flushed = await legacy.flush(client)
    if Self.accountGone(flushed.stoppedBy) { return false }
    host?.debug("planner: \(flushed.sent) tasks an earlier version kept offline were sent")
    if let refused = flushed.refusedChanges.first, refused != .notFound {
      view?.showMessage(String(template: tr("A change could not be made: %@"), refused.message))
    }
    await legacy.removeFileIfEmpty()
    return true
  }

  /// Whether a request stopped because its account is not the session's any more: another app of the group signed
  /// out, or signed in as someone else. (The account follows the session: `AccountSession`.)
  private static func accountGone(_ stopped: TaskAPIError?) -> Bool {
    switch stopped {
    case .unauthorized(.signedOutElsewhere)?, .unauthorized(.accountChanged)?: true
    default: false
    }
  }

  private func report(_ flushed: PlannerOutbox.FlushResult, of store: Store) {
    for conflict in flushed.conflicts {
      view?.showConflict(conflict) { [weak self] in await self?.useMine(conflict, over: store) }
    }
    if let refused = flushed.refused.first {
      view?.showMessage(String(template: tr("A change could not be made: %@"), refused))
    }
    switch flushed.stoppedBy {
    case nil, .network, .unauthorized: break  // the banner, or the sign-in page, says it
    case let stopped?: view?.showMessage(stopped.message)
    }
  }

  private func showCurrent(_ store: Store) async {
    // While a first read is under way, its pages so far stand for the copy (still empty).
    let preview = self.preview
    let (lists, tasks, read) =
      if let preview, preview.number > 0 { (preview.lists, preview.tasks, false) } else {
        (await store.replica.lists, await store.replica.tasks, await store.replica.token != nil)
      }
    var shown = await store.outbox.shown(lists: lists, tasks: tasks, indexing: view != nil)
    Self.show(await store.legacy.pending, in: &shown)
    guard self.store?.objectID == store.objectID else { return }  // another account signed in meanwhile
    // Pages that came meanwhile, or the read's end, show instead.
    if let preview, self.preview?.number != preview.number { return }
    self.shown = shown
    shownStore = store
    if read {
      hasRead = true
      resumeShownWaiters()
    }
    view?.show(undoHistory.hiding(in: shown))
    if let aside = store.outbox.keptAside, let view, toldKeptAside.insert(aside).inserted {
      view.showMessage(KeptAside.message(aside))
    }
  }

  /// Shows the first read's pages so far (`number` counts them; an earlier one that comes late is not shown).
  private func showPreview(lists: [PlannerListItem], tasks: [UUID: PlannerItem], number: Int, _ store: Store) async {
    guard let preview, number > preview.number, self.store?.objectID == store.objectID else { return }
    self.preview = (lists, tasks, number)
    await showCurrent(store)
    guard self.preview?.number == number else { return }
    onPreview?()
    host?.debug("planner: \(tasks.count) tasks are shown while the rest come")
  }

  /// Numbers the showings of one read's pages, in the order the read made them.
  private final class PreviewCounter: Sendable {
    private let count = Mutex(0)

    func next() -> Int {
      count.withLock { count in
        count += 1
        return count
      }
    }
  }

  /// A first read ended without its lists (the sign-in is needed again, another account signed in): the pages it
  /// showed go, and the copy (empty) shows instead.
  private func endPreview(_ store: Store) async {
    let shownAny = (preview?.number ?? 0) > 0
    preview = nil
    if shownAny { await showCurrent(store) }
  }

  /// The outbox copies kept aside that the user was told of.
  private var toldKeptAside: Set<URL> = []

  /// Shows the tasks waiting in the sample's list outbox in the default list (a list of that name while none is known
  /// yet: the first sign-in, offline), waiting to be sent.
  private static func show(_ pending: [PendingTask], in shown: inout PlannerShown) {
    guard !pending.isEmpty else { return }
    let home: UUID
    if let known = shown.lists.first(where: \.isDefault) ?? shown.lists.first {
      home = known.id
    } else {
      var list = PlannerListItem(id: Self.provisionalDefaultList, name: tr("Tasks"))
      list.isDefault = true
      shown.lists.append(list)
      home = list.id
    }
    for task in pending {
      let id = UUID(uuidString: task.id) ?? UUID()
      shown.tasks.append(PlannerItem(id: id, listID: home, title: task.text, createdAt: task.createdAt))
      shown.waiting.insert(id)
    }
  }

  /// The default list shown before the service named its own (its tasks wait in the sample's list outbox).
  public static let provisionalDefaultList = UUID(uuidString: "00000000-0000-4000-8000-00000000da7a")!

  /// Adds `text` to the default list when no list is known yet (signed in while the service could not be reached):
  /// it waits in the sample's list outbox, which the sample's API takes into the default list at the next read, and
  /// shows at once. Answers false when it could not be kept on disk.
  /// (Made over another account's lists, as `record`'s edits are, it waits in that account's outbox and answers false.)
  public func addToDefaultList(_ text: String) async -> Bool {
    let madeOver = actingOver
    let current = await currentStore()
    guard let owner = madeOver ?? current else { return false }
    do {
      _ = try await owner.legacy.add(text)
    } catch is OutboxDiscarded {
      return false  // the account signed out: what it kept is forgotten
    } catch {
      view?.showMessage(tr("The change could not be saved on this computer"))
      return false
    }
    guard let current, current.objectID == owner.objectID else { return false }
    await showCurrent(current)
    Task { await refresh() }
    return true
  }

  // MARK: Editing

  /// Keeps `edit` in the outbox (on disk before it shows), shows it, then sends it and reads what changed. Answers
  /// false when it could not be kept (the disk refused it: nothing changed, and the message says so), or was kept
  /// for the account whose lists were shown when another app of the group signed in as someone else (the message
  /// says another app signed in).
  @discardableResult
  public func record(_ edit: PlannerEdit) async -> Bool {
    await record(edit, over: actingOver)
  }

  /// Keeps `edit`, made over `madeOver`'s lists (nil: nothing was shown yet), in that account's outbox: when the
  /// session names another account by now, or nobody (the sign-in ended), it waits there for that account's next
  /// sign-in, never sent as another nor kept in another's files.
  private func record(_ edit: PlannerEdit, over madeOver: Store?) async -> Bool {
    let current = await currentStore()
    guard let owner = madeOver ?? current else { return false }
    do {
      try await owner.outbox.record(edit)
    } catch is OutboxDiscarded {
      return false  // the account signed out: what it kept is forgotten
    } catch {
      view?.showMessage(tr("The change could not be saved on this computer"))
      return false
    }
    guard let store = current, store.objectID == owner.objectID else { return false }
    await showCurrent(store)
    let release = host?.holdApplication() ?? {}  // quitting now must not cut the request short
    Task {
      await refresh()
      if let shown { onSynced?(shown, true) }
      release()
    }
    return true
  }

  /// Records `edit` so that Ctrl+Z can take it back (a tick, a move to another list or place): the task as it is
  /// shown now is kept. Answers the undo step (for a toast's own Undo), nil when the edit could not be kept.
  @discardableResult
  public func recordUndoable(_ edit: PlannerEdit) async -> Int? {
    let before = shown?.tasks.first { $0.id == edit.taskID }
    let madeOver = actingOver
    guard await record(edit, over: madeOver), let before else { return nil }
    // The fields the edit itself changes (not whatever else the window shows changed meanwhile).
    var after = before
    switch edit {
    case .changeTask(let base, let mine): after = before.editing(from: base, to: mine)
    case .complete(_, _, let occurrence, let today): after.finish(occurrence: occurrence, today: today)
    default: break
    }
    let (step, carried) = undoHistory.changed(before: [before], after: [after])
    carryOut(carried, over: madeOver)
    return step.id
  }

  // MARK: Deleting and Undo

  /// Takes `tasks` (with their subtasks) out of view at once and shows an Undo notice titled `title`; the service
  /// hears of it when the notice goes away (or at sign-out, or when the window closes).
  public func delete(_ ids: [UUID], title: String) {
    let items = ids.compactMap { id in shown?.tasks.first { $0.id == id } }
    guard !items.isEmpty else { return }
    let madeOver = actingOver
    let (step, carried) = undoHistory.delete(items)
    carryOut(carried, over: madeOver)
    showHidden()
    notices[step.id] = view?.showUndo(
      title, undo: { [weak self] in self?.undo(step.id) },
      dismissed: { [weak self] in
        guard let self, self.notices.removeValue(forKey: step.id) != nil else { return }
        self.carryOut(self.undoHistory.finish(step.id), over: madeOver)
      })
  }

  /// Delete Completed: the finished tasks given (the entry shown), with one Undo.
  public func deleteCompleted(_ items: [PlannerItem]) {
    guard !items.isEmpty else { return (view?.showMessage(tr("No completed tasks to delete"))) ?? () }
    let title =
      items.count == 1
      ? String(template: tr("“%@” deleted"), items[0].title)
      : String(template: trn("%d task deleted", "%d tasks deleted", items.count), items.count)
    delete(items.map(\.id), title: title)
  }

  /// Ctrl+Z (the last step) or a notice's Undo (its own step): a deletion shows its tasks again; a change is
  /// changed back, field by field, over what the tasks are now.
  public func undo(_ step: Int? = nil) {
    let id = step ?? undoHistory.steps.last?.id
    guard let id else { return }
    let current = shown.map { Dictionary($0.tasks.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last }) } ?? [:]
    guard let edits = undoHistory.undo(id, current: { current[$0] }) else { return }
    notices.removeValue(forKey: id)?.dismiss()
    if edits.isEmpty { return showHidden() }
    carryOut(edits, over: actingOver)
  }

  /// Carries out the deletions whose notices still show (quitting, signing out, the window closing); answers once
  /// they are in the outbox.
  public func finishPendingWork() async {
    let madeOver = actingOver
    for edit in takeUndoHistory(clearing: false) { await record(edit, over: madeOver) }
  }

  /// Dismisses the Undo notices (carrying nothing out as they go) and answers the deletions they waited for;
  /// `clearing`: Ctrl+Z's steps go too.
  private func takeUndoHistory(clearing: Bool) -> [PlannerEdit] {
    let notices = self.notices
    self.notices = [:]
    for notice in notices.values { notice.dismiss() }
    let pending = undoHistory.finishAll()
    if clearing { undoHistory.clear() }
    return pending
  }

  /// The window closed: the lists go on without it, and the deletions whose notices still showed are carried out.
  public func windowClosed() {
    view = nil
    soon { await $0.finishPendingWork() }
  }

  /// Runs `work` (an edit a click, a key or a closing window asked for, from a handler that cannot wait) with the
  /// application held from this moment, not from when the work's turn comes: a quit meanwhile closes the last
  /// window, and a program without a hold ends before the edit is even kept in the outbox (seen: a deletion whose
  /// Undo showed at Ctrl+Q came back at the next start).
  /// Its edits are made over the lists shown at the call (or over `account`'s): a switch of accounts meanwhile does
  /// not send them as another account.
  @discardableResult
  public func soon(
    over account: ShownAccount? = nil, _ work: @escaping @MainActor (PlannerOperations) async -> Void
  ) -> Task<Void, Never> {
    let release = host?.holdApplication() ?? {}
    let over = account ?? shownAccount
    return Task {
      await Self.$startedOver.withValue(over) { await work(self) }
      release()
    }
  }

  /// Records `edits` in turn (an Undo's, a deletion's whose notice went), made over `madeOver`'s lists, held as
  /// `soon` holds.
  private func carryOut(_ edits: [PlannerEdit], over madeOver: Store?) {
    guard !edits.isEmpty else { return }
    soon(over: ShownAccount(store: madeOver)) { planner in for edit in edits { await planner.record(edit) } }
  }

  /// Shows what is shown again, with the tasks hidden now left out.
  private func showHidden() {
    guard let store else { return }
    Task { await showCurrent(store) }
  }

  /// Sends this device's values of the fields that lost in `conflict` (of `store`'s account) again, over the
  /// service's version.
  private func useMine(_ conflict: PlannerConflict, over store: Store) async {
    var mine = conflict.current
    for field in conflict.fields { mine.take(field, from: conflict.mine) }
    await record(.changeTask(base: conflict.current, mine: mine), over: store)
  }

  /// The signed-in account's client, for what is neither the feed nor an edit (the app passwords of other devices).
  public func accountClient() async throws(TaskAPIError) -> TaskAPIClient {
    guard let store = await currentStore() else { throw .unauthorized(.notSignedIn) }
    return makeClient(session, store.objectID)
  }

  /// The client of `account` (the one shown when the page was read: `shownAccount`), for the app passwords page: a
  /// password made or revoked is that account's; once another app of the group signed in as someone else, its
  /// requests are refused with `.accountChanged` (a revoke sent as them would be answered 404, which the client takes
  /// for "gone already").
  public func client(over account: ShownAccount) async throws(TaskAPIError) -> TaskAPIClient {
    try await clientOverShown(account)
  }

  /// The client of the account whose lists are shown, for what the user does over them (sharing): once the session
  /// names someone else (another app of the group signed in as them), its requests are refused with
  /// `.accountChanged`, never sent as that account.
  private func clientOverShown(_ account: ShownAccount? = nil) async throws(TaskAPIError) -> TaskAPIClient {
    guard let store = account?.store ?? actingOver else { return try await accountClient() }
    return makeClient(session, store.objectID)
  }

  /// A code that lets another person join `list` (owner only).
  public func invite(list: UUID) async throws(TaskAPIError) -> (code: String, expiresAt: Date) {
    try await clientOverShown().invite(list: list)
  }

  /// Joins the list `code` was made for; the list shows at once.
  /// (`account`: the lists shown when the user asked, if not those shown now.)
  public func join(code: String, over account: ShownAccount? = nil) async throws(TaskAPIError) -> PlannerListItem {
    let list = try await clientOverShown(account).join(code: code)
    await refresh()
    return list
  }

  /// The members of a shared list.
  public func members(of list: UUID) async throws(TaskAPIError) -> [PlannerMemberItem] {
    try await clientOverShown().members(list: list)
  }

  /// Leaves a list someone shares with the user.
  public func leave(list: UUID, over account: ShownAccount? = nil) async throws(TaskAPIError) {
    try await clientOverShown(account).removeMember(list: list, member: nil)
    await refresh()
  }

  // MARK: Signing out

  /// Sends what waits (before a sign-out); what cannot be sent stays for the account's next sign-in.
  func sendWaiting() async {
    guard let store = await currentStore() else { return }
    _ = await store.outbox.flush(makeClient(session, store.objectID))
  }

  /// A sign-out: forgets the shown lists, the account's copy and outbox in memory, and the deletions whose Undo still
  /// shows (nothing of the account is sent any more); a refresh or send under way writes nothing any more. (The
  /// files go with `AccountFiles.forget`.)
  func forget() async {
    let store = self.store
    self.store = nil
    loading = nil
    _ = takeUndoHistory(clearing: true)
    endAccount()
    await store?.outbox.discard()
    await store?.legacy.discard()
    await store?.replica.discard()
  }

  /// A sign-in here as someone else than the account the planner works for: that account is left (`leave`), and
  /// nothing of it is shown any more.
  func signedIn(as account: Account) async {
    let previous = store
    guard let previous, previous.objectID != account.objectID else { return }
    store = nil
    loading = nil
    await leave(previous)
    endAccount()
  }

  /// Leaves `previous`, the account the planner worked for, for another: what was made over its lists waits in its
  /// outbox for its next sign-in, the deletions whose Undo still shows included; Ctrl+Z's steps and the notices go;
  /// its copies are forgotten (`AccountFiles.forgetCopies`). Its lists stay shown until the next account's show.
  private func leave(_ previous: Store) async {
    let pending = takeUndoHistory(clearing: true)
    forgetReads()
    leftOutboxes[previous.objectID] = (previous.outbox, previous.legacy)
    for edit in pending { try? await previous.outbox.record(edit) }
    await previous.replica.discard()
    await previous.files.forgetCopies(outbox: previous.outbox)
  }

  /// Nothing of an account shown any more.
  private func endAccount() {
    shown = nil
    shownStore = nil
    forgetReads()
    view?.show(PlannerShown(lists: [], tasks: [:], edits: []))
  }

  /// Forgets what was read of the account the planner worked for, and what it was waiting for.
  private func forgetReads() {
    hasRead = false
    preview = nil  // the pages of its first read
    lastRefreshEnded = nil  // the next account's long poll waits for its own first read
    retry.stop()
    lastRead = nil
    wasOffline = false
    view?.showOffline(nil, savedAt: nil)
  }
}

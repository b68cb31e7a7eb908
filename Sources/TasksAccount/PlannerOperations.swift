// PlannerOperations, PlannerView: the signed-in account's lists and tasks as the planner window shows them — the
// replica of the change feed, the outbox of every edit, what is shown with the waiting edits made — and every edit:
// kept on disk first, shown at once, then sent. GTK-free; main actor.

import FoundationEssentials
import TasksCore

/// What the planner's operations ask of the window.
@MainActor
public protocol PlannerView: AnyObject {
  /// The lists and tasks as they are now (the waiting edits made).
  func show(_ shown: PlannerShown)
  /// A change whose fields lost to a change made elsewhere ("Use Mine" offers this device's values again).
  func showConflict(_ conflict: PlannerConflict)
  /// A message for the user (a refused edit, a service that cannot be reached).
  func showMessage(_ message: String)
}

/// The planner of the signed-in account: follows the change feed into a replica on disk, keeps every edit in the
/// account's planner outbox before showing it, and sends the outbox before each read of the feed. A service with
/// only the sample's API (no `/api/v2`) leaves `isAvailable` false, and the window keeps its single list.
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
  /// Called after an edit reached the service (or could not), while a window shows the planner: the sample's list
  /// reads the default list again.
  public var onEdited: (@MainActor () -> Void)?
  /// Called after each read of the feed with what is shown (`edited`: the read that followed an edit of this
  /// window's): the reminder service is told of reminders.
  public var onSynced: (@MainActor (_ shown: PlannerShown, _ edited: Bool) -> Void)?
  /// Called when a request found that another app of the keychain group signed out (the account forgets, as the
  /// list's own discovery of it does).
  public var onSignedOutElsewhere: (@MainActor () async -> Void)?
  /// The client for the signed-in account (the headless tests give one that cannot reach the service).
  public var makeClient: @MainActor (_ session: Session, _ objectID: String) -> TaskAPIClient = { session, id in
    TaskAPIClient(session: session, account: id)
  }

  private let session: Session
  /// Weak: an edit's request may outlive the application's account (a test's, at its end).
  private weak var host: (any AccountHost)?
  private let environment: [String: String]
  private var store: Store?
  /// The refresh running or last run, and the one waiting for it to end.
  private var lastRefresh: Task<Void, Never>?
  private var nextRefresh: Task<Void, Never>?

  /// One account's replica and outbox.
  private struct Store: Sendable {
    let objectID: String
    let replica: PlannerReplica
    let outbox: PlannerOutbox
  }

  init(session: Session, host: any AccountHost, environment: [String: String]) {
    self.session = session
    self.host = host
    self.environment = environment
  }

  /// The signed-in account's replica and outbox (read from disk off the main thread the first time).
  private func currentStore() async -> Store? {
    guard let account = await session.account else { return nil }
    if let store, store.objectID == account.objectID { return store }
    if loading?.objectID != account.objectID {
      let (key, environment) = (session.key, environment)
      loading = (
        account.objectID,
        Task.detached {
          let files = AccountFiles(account: account, in: key, environment: environment)
          return Store(
            objectID: account.objectID, replica: PlannerReplica(file: files.replica),
            outbox: PlannerOutbox(file: files.plannerOutbox))
        }
      )
    }
    guard let loading else { return nil }
    let made = await loading.task.value
    // Signed out (or another account signed in) while it was read: not this account's any more.
    guard self.loading?.objectID == made.objectID else { return nil }
    if store?.objectID != made.objectID { store = made }
    return store
  }

  /// The read of the signed-in account's copy from disk, under way or done (one per account).
  private var loading: (objectID: String, task: Task<Store, Never>)?

  /// Starts reading the signed-in account's copy from disk, on another thread, while the window is made: the
  /// first refresh then finds it read (a start with 2 000 tasks read it after the list had been drawn).
  public func preload() {
    Task { _ = await currentStore() }
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

  private func refreshOnce() async {
    guard let store = await currentStore() else { return }
    if shown == nil { await showCurrent(store) }
    let client = makeClient(session, store.objectID)
    let flushed = await store.outbox.flush(client)
    report(flushed)
    do {
      try await store.replica.follow(client, deferringSave: true)
      isAvailable = true
    } catch .notFound {
      isAvailable = false
      host?.debug("planner: the service has no task API v2")
    } catch .unauthorized(.signedOutElsewhere) {
      await onSignedOutElsewhere?()
      return
    } catch .unauthorized {
      return  // the sign-in page is on its way
    } catch .network where flushed.stoppedBy != nil {
      // Offline: the flush found it already, and the window's banner says so.
    } catch {
      view?.showMessage(error.message)
    }
    await showCurrent(store)
    if let shown { onSynced?(shown, false) }
    await store.replica.saveIfUnsaved()
  }

  private func report(_ flushed: PlannerOutbox.FlushResult) {
    for conflict in flushed.conflicts { view?.showConflict(conflict) }
    if let refused = flushed.refused.first {
      view?.showMessage(String(template: tr("A change could not be made: %@"), refused))
    }
    switch flushed.stoppedBy {
    case nil, .network, .unauthorized: break  // the banner, or the sign-in page, says it
    case let stopped?: view?.showMessage(stopped.message)
    }
  }

  private func showCurrent(_ store: Store) async {
    let (lists, tasks) = (await store.replica.lists, await store.replica.tasks)
    let shown = await store.outbox.shown(lists: lists, tasks: tasks)
    guard self.store?.objectID == store.objectID else { return }  // another account signed in meanwhile
    self.shown = shown
    view?.show(shown)
    if let aside = store.outbox.keptAside, let view, toldKeptAside.insert(aside).inserted {
      view.showMessage(KeptAside.message(aside))
    }
  }

  /// The outbox copies kept aside that the user was told of.
  private var toldKeptAside: Set<URL> = []

  // MARK: Editing

  /// Keeps `edit` in the outbox (on disk before it shows), shows it, then sends it and reads what changed. Answers
  /// false when it could not be kept (the disk refused it: nothing changed, and the message says so).
  @discardableResult
  public func record(_ edit: PlannerEdit) async -> Bool {
    guard let store = await currentStore() else { return false }
    do {
      try await store.outbox.record(edit)
    } catch {
      view?.showMessage(tr("The change could not be saved on this computer"))
      return false
    }
    await showCurrent(store)
    let release = host?.holdApplication() ?? {}  // quitting now must not cut the request short
    Task {
      await refresh()
      if let shown { onSynced?(shown, true) }
      // Only while a window shows the planner: the account's list may have ended meanwhile (a test's, at its end:
      // its host gone, the list's unowned read of it crashed the test process).
      if view != nil { onEdited?() }
      release()
    }
    return true
  }

  /// Sends this device's values of the fields that lost in `conflict` again, over the service's version.
  public func useMine(_ conflict: PlannerConflict) async {
    var mine = conflict.current
    for field in conflict.fields { mine.take(field, from: conflict.mine) }
    await record(.changeTask(base: conflict.current, mine: mine))
  }

  /// A code that lets another person join `list` (owner only).
  public func invite(list: UUID) async throws(TaskAPIError) -> (code: String, expiresAt: Date) {
    guard let store = await currentStore() else { throw .unauthorized(.notSignedIn) }
    return try await makeClient(session, store.objectID).invite(list: list)
  }

  /// Joins the list `code` was made for; the list shows at once.
  public func join(code: String) async throws(TaskAPIError) -> PlannerListItem {
    guard let store = await currentStore() else { throw .unauthorized(.notSignedIn) }
    let list = try await makeClient(session, store.objectID).join(code: code)
    await refresh()
    return list
  }

  /// The members of a shared list.
  public func members(of list: UUID) async throws(TaskAPIError) -> [PlannerMemberItem] {
    guard let store = await currentStore() else { throw .unauthorized(.notSignedIn) }
    return try await makeClient(session, store.objectID).members(list: list)
  }

  /// Leaves a list someone shares with the user.
  public func leave(list: UUID) async throws(TaskAPIError) {
    guard let store = await currentStore() else { throw .unauthorized(.notSignedIn) }
    try await makeClient(session, store.objectID).removeMember(list: list, member: nil)
    await refresh()
  }

  // MARK: Signing out

  /// Sends what waits (before a sign-out); what cannot be sent stays for the account's next sign-in.
  func sendWaiting() async {
    guard let store = await currentStore() else { return }
    _ = await store.outbox.flush(makeClient(session, store.objectID))
  }

  /// Forgets the shown lists and the account's copy in memory; a refresh under way (its copy's write left for after
  /// showing) writes nothing any more. (The files go with `AccountFiles.forget`.)
  func forget() async {
    shown = nil
    view?.show(PlannerShown(lists: [], tasks: [:], edits: []))
    let store = self.store
    self.store = nil
    loading = nil
    await store?.replica.discard()
  }
}

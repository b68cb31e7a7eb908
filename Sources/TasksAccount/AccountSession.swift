// AccountSession: the signed-in account, owned by the application: the session, the account's files, the planner's
// operations, and the one sign-out. Windows observe it; the broker waits on it. Main actor.

import FoundationEssentials
import TasksCore

/// What happened to the account, as the windows and the broker see it.
public enum AccountEvent: Equatable, Sendable {
  /// A sign-in finished (in a window, the browser, or another app of the keychain group).
  case signedIn(Account)
  /// A sign-in was given up (cancelled, or its window closed) before anyone signed in.
  case signInAbandoned
  /// Nobody is signed in any more: a sign-out here, or in another app of the keychain group (`elsewhere`).
  case signedOut(elsewhere: Bool)
}

/// The application's account: state lives here and the windows show it, so a window that closes, or was never
/// opened, loses nothing and owns nothing.
///
/// It holds the `Session` (shared through the keyring by every app of the keychain group), makes each account's
/// files (`AccountFiles`) and knows the web session's folders, runs the planner's operations (`planner`: every list,
/// the default one included), and signs out in one place: whether the window's menu, the broker (with a window or
/// without) or another app asked, a sign-out carries out a deletion whose Undo still shows, sends what waits in the
/// outbox, removes the session from the keyring, then forgets the account's files (`AccountFiles.forget`) and the
/// provider's cookies.
@MainActor
public final class AccountSession {
  public let session: Session
  /// The signed-in account's lists and tasks (the task API v2): load, add, change, delete with Undo, sync.
  public var planner: PlannerOperations {
    if let madePlanner { return madePlanner }
    let planner = PlannerOperations(session: session, host: host, environment: environment)
    madePlanner = planner
    return planner
  }
  /// The planner, once something asked for it (the broker's service without a window never does).
  private var madePlanner: PlannerOperations?
  private let webSession: WebSessionFolders
  private let environment: [String: String]
  private unowned let host: any AccountHost
  /// The signed-in account's files.
  private var currentFiles: AccountFiles?
  private var observers: [Int: @MainActor (AccountEvent) -> Void] = [:]
  private var lastObserver = 0
  private var signInWaiters: [CheckedContinuation<Account?, Never>] = []
  /// Whether this app signed out (its own sign-out, not another app's), until the next sign-in.
  private var signedOutHere = false
  nonisolated(unsafe) private var watch: Task<Void, Never>?

  /// The account of `session`, with its files in the XDG folders of `environment`.
  public init(
    session: Session, host: any AccountHost, environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    self.session = session
    self.host = host
    self.environment = environment
    webSession = WebSessionFolders(environment: environment)
    watch = Task { [weak self] in
      for await state in await session.updates() { await self?.sessionChanged(to: state) }
    }
  }

  /// What the session noticed reaches the account, whichever request, refresh or restore noticed it: a sign-in made
  /// anywhere ends a broker's wait; another app of the group signed in as someone else (the planner follows: what
  /// was made over the previous account's lists waits in its outbox) or signed out (the account is forgotten, as a
  /// sign-out here forgets it).
  private func sessionChanged(to state: Session.State) async {
    switch state {
    case .signedIn(let now):
      endSignInWaits(now)
      // A sign-in of this app's own is `signedIn(_:)`'s (a restore during its flow is not: it found another app's);
      // a state told after the session moved on is old news.
      guard await session.accountSignedInElsewhere?.objectID == now.objectID else { return }
      signedOutHere = false
      await madePlanner?.followSession()
    case .signedOut:
      guard !signedOutHere, await session.state == .signedOut else { return }
      await signedOutElsewhere()
    case .signingIn, .refreshing, .needsSignIn:
      break
    }
  }

  deinit {
    watch?.cancel()
  }

  /// Where the provider's cookies are kept with "Keep me signed in".
  public var webSessionFolders: WebSessionFolders { webSession }

  // MARK: Observing

  /// Calls `observer` with every event from now on, until `stopObserving` with the answer.
  @discardableResult
  public func observe(_ observer: @escaping @MainActor (AccountEvent) -> Void) -> Int {
    lastObserver += 1
    observers[lastObserver] = observer
    return lastObserver
  }

  public func stopObserving(_ id: Int) {
    observers[id] = nil
  }

  func publish(_ event: AccountEvent) {
    for id in observers.keys.sorted() { observers[id]?(event) }
  }

  // MARK: Files

  /// The outbox and offline copy of `account` (each account has its own).
  public func files(for account: Account) -> AccountFiles {
    if let currentFiles, currentFiles.objectID == account.objectID { return currentFiles }
    let files = AccountFiles(account: account, in: session.key, environment: environment)
    currentFiles = files
    return files
  }

  /// Takes `files` (made with the session's key by a start-up load) as the signed-in account's.
  public func adopt(_ files: AccountFiles) {
    currentFiles = files
  }

  // MARK: Signing in

  /// A sign-in finished as `account` (in a window or the browser): when it is another account than the one before,
  /// the previous one's copies go (`AccountFiles.forgetCopies`: what waits in its outbox stays for its next sign-in),
  /// and the planner empties. (The window then reads the new account's lists.)
  public func signedIn(_ account: Account) async {
    signedOutHere = false
    let plannerAccount = madePlanner?.accountFiles?.objectID
    await madePlanner?.signedIn(as: account)  // (the account it worked for is left: its copies forgotten)
    if let previous = currentFiles, previous.objectID != account.objectID {
      currentFiles = nil
      if previous.objectID != plannerAccount { await previous.forgetCopies() }
    }
    _ = files(for: account)
    publish(.signedIn(account))
    endSignInWaits(account)
  }

  /// A sign-in on screen was given up (cancelled, or its window closed) with nobody signed in.
  public func signInAbandoned() {
    publish(.signInAbandoned)
    endSignInWaits(nil)
  }

  /// How many are waiting for the next sign-in (the broker's calls).
  public var waitingSignIns: Int { signInWaiters.count }

  /// Waits for the next sign-in to finish: its account, or nil when it was given up.
  public func nextSignIn() async -> Account? {
    await withCheckedContinuation { signInWaiters.append($0) }
  }

  private func endSignInWaits(_ account: Account?) {
    let waiters = signInWaiters
    signInWaiters = []
    for waiter in waiters { waiter.resume(returning: account) }
  }

  // MARK: Signing out

  /// Before a sign-out: carries out the deletions whose Undo still shows and sends what waits; answers how many
  /// edits still wait (the service could not be reached), which the sign-out would discard (the window asks first).
  public func waitingAfterSending() async -> Int {
    await planner.finishPendingWork()
    guard let account = await session.account else { return 0 }
    await planner.sendWaiting()
    return await files(for: account).waitingChanges()
  }

  /// Signs out every app of the keychain group and forgets what this computer kept of the account (see the type's
  /// summary), what could not be sent included. Answers the provider's end-session address (for a sign-in made in
  /// the browser, where its cookie is), or nil.
  public func signOut() async throws(SessionError) -> Session.Logout? {
    signedOutHere = true
    await planner.finishPendingWork()  // the deletion goes out while the session can still send it
    let account = await session.account
    if account != nil {
      await planner.sendWaiting()  // what waits goes out while it still can
    }
    let logout: Session.Logout?
    do {
      logout = try await session.signOut()
    } catch {
      // Still signed in (the keyring's lock was not had): a sign-out in another app is heard again.
      if await session.account != nil { signedOutHere = false }
      throw error
    }
    await forget(madePlanner?.accountFiles ?? account.map { files(for: $0) } ?? currentFiles)
    host.debug("account: signed out; the account's copies and web session are removed")
    publish(.signedOut(elsewhere: false))
    return logout
  }

  /// Another app of the keychain group signed out: this app forgets what its own sign-out forgets (the next sign-in
  /// asks for the password again), every file of the account the planner works for included (after another app's
  /// switch, the account it switched to: the previous one's edits wait for its next sign-in). Told once.
  private func signedOutElsewhere() async {
    guard let files = madePlanner?.accountFiles ?? currentFiles else { return }
    await forget(files)
    publish(.signedOut(elsewhere: true))
  }

  /// No session of the group was found at the start: whoever signed out did so while this app was not running (the
  /// CLI, another app of the group, the broker's service), so the provider's "Keep me signed in" cookies of the last
  /// sign-in go too, or the next Sign In would let the previous user in without a password.
  public func foundNoSession() {
    webSession.remove()
  }

  /// The planner first (nothing of it is written from now on), then the files (`AccountFiles.forget`, the rule every
  /// door's sign-out follows) and the provider's cookies.
  private func forget(_ files: AccountFiles?) async {
    await planner.forget()
    currentFiles = nil
    files?.forget()
    webSession.remove()
  }
}

// Session: who is signed in and their tokens; the flows that change them are in Session+SignIn and Session+Refresh.
// Actor; UI and CLI observe its state.

import FoundationEssentials

/// The signed-in state of an app, shared through the keyring with every app of the same keychain group.
///
/// - `restore()` picks up a session another app (or an earlier run) stored: single sign-on without a web view.
/// - `startSignIn()` gives the authorize request to show; `handleRedirect(_:)` takes every URL the web view or the
///   loopback listener sees and answers what to do next (it runs the password-reset policy on `AADB2C90118` and then
///   the sign-in policy again).
/// - `bearer()` returns the token for the task API, refreshed a few minutes before it expires, or at once when the
///   API answered 401. Refreshes are serialised within the process and, through `RefreshLock`, across processes.
public actor Session {
  /// The states the UI and the CLI show.
  public enum State: Equatable, Sendable {
    /// No one is signed in.
    case signedOut
    /// A sign-in (or profile edit) is in progress.
    case signingIn
    /// Signed in.
    case signedIn(Account)
    /// Signed in, tokens being refreshed.
    case refreshing(Account)
    /// The session ended (refresh token expired or revoked): sign in again; the account, if known, is the hint.
    case needsSignIn(Account?)
  }

  /// What a flow in progress is for.
  enum Purpose { case signIn, passwordReset, editProfile }

  /// The settings the session runs with.
  public let settings: AppSettings
  /// How long before expiry a token is refreshed.
  public let refreshMargin: TimeInterval
  /// The HTTP client of the session's requests (and of task API clients made for it).
  public let http: HTTPClient
  let store: any SessionStore
  /// Which session of the keyring this is (the account's files are named with it).
  public nonisolated let key: SessionKey
  let lock: RefreshLock
  /// Told when another process holds the session's lock and this one waits (a terminal can say so).
  let onLockWait: (@Sendable () -> Void)?
  let tokenEndpoint: TokenEndpoint
  let validator: IDTokenValidator
  let metadata: OpenIDMetadata

  /// The current state.
  public internal(set) var state: State = .signedOut {
    didSet {
      guard state != oldValue else { return }
      if account?.objectID != signedInHere { signedInHere = nil }
      observers.values.forEach { $0.yield(state) }
    }
  }
  /// The object id of the account this app's own sign-in signed in, while the session names it: nil once a flow
  /// starts, or a restore, a refresh or a sign-out makes it name another account or none. What another app of the
  /// group did is told apart by it from this app's own sign-in before the app has heard of the latter
  /// (`accountSignedInElsewhere`).
  var signedInHere: String?
  /// How many times this session wrote the keyring (a sign-in, a refresh, a profile edit, a sign-out): a read begun
  /// before one of them and answered after it is older than the session's own state (`restore`).
  var keyringWrites = 0
  private var observers: [UUID: AsyncStream<State>.Continuation] = [:]
  var tokens: TokenSet?
  var pending: (request: AuthorizationRequest, purpose: Purpose)?
  var stateBeforeFlow: State = .signedOut
  /// Whether the sign-in in progress, or the last one, went through B2C's password-reset policy to its end: the
  /// user set a new password (the app confirms it).
  public internal(set) var passwordChanged = false
  /// Whether the session was signed in in the system browser (whoever finished the sign-in there is who the
  /// keyring now holds, which the app then says).
  public var signedInWithBrowser: Bool { tokens?.signedInWithBrowser ?? false }
  var refreshing: Task<TokenSet, any Error>?

  /// Creates a session for `settings` over `store`.
  public init(
    settings: AppSettings, store: any SessionStore, http: HTTPClient, refreshMargin: TimeInterval = 300,
    environment: [String: String] = ProcessInfo.processInfo.environment, onLockWait: (@Sendable () -> Void)? = nil
  ) {
    self.onLockWait = onLockWait
    self.settings = settings
    self.store = store
    self.http = http
    self.refreshMargin = refreshMargin
    key = SessionKey(settings)
    lock = RefreshLock(key, environment: environment)
    tokenEndpoint = TokenEndpoint(settings: settings, http: http)
    metadata = OpenIDMetadata(http: http)
    validator = IDTokenValidator(metadata: metadata, clientID: settings.clientID)
  }

  /// The signed-in account, if any.
  public var account: Account? {
    switch state {
    case .signedIn(let account), .refreshing(let account): return account
    default: return nil
    }
  }

  /// The signed-in account when this app's own sign-in did not sign it in (another app of the group did, and a
  /// restore or a refresh found it); nil when no one is signed in, or this app's sign-in is the one the session
  /// names. One question, so that the account and whose sign-in it was are read together.
  public var accountSignedInElsewhere: Account? {
    guard let account, account.objectID != signedInHere else { return nil }
    return account
  }

  /// The state now, then every change.
  public func updates() -> AsyncStream<State> {
    let (stream, continuation) = AsyncStream.makeStream(of: State.self, bufferingPolicy: .bufferingNewest(8))
    let id = UUID()
    observers[id] = continuation
    continuation.yield(state)
    continuation.onTermination = { _ in Task { await self.stopObserving(id) } }
    return stream
  }

  private func stopObserving(_ id: UUID) { observers[id] = nil }

  // MARK: Single sign-on

  /// Loads the session stored by this or another app of the keychain group. Answers the account, or nil when no
  /// one is signed in. Expired access tokens are refreshed later, on first use.
  @discardableResult
  public func restore() async throws(SessionError) -> Account? {
    let stored: TokenSet?
    let writes = keyringWrites
    do { stored = try await store.load(key) } catch { throw .keyring(error) }
    // This session wrote the keyring while it was read (its sign-in, a refresh or a sign-out ended meanwhile): what
    // was read may be older than that write, and the session's own state is not (a read answered late would put the
    // account before this app's sign-in back, with its tokens).
    guard writes == keyringWrites else { return account }
    guard let stored else {
      tokens = nil
      state = .signedOut
      return nil
    }
    tokens = stored
    if stored.refreshToken == nil, stored.bearer(settings.bearerToken).map({ $0.expiresOn <= Date() }) ?? true {
      state = .needsSignIn(stored.account)
      return nil
    }
    state = .signedIn(stored.account)
    return stored.account
  }

  // MARK: The provider

  /// The provider's discovery document (for B2C, the policy's), fetched once and checked against the authority.
  func configuration(for policy: String?) async throws(MetadataError) -> OpenIDConfiguration {
    try await metadata.configuration(settings.authority.discovery(for: policy), for: settings.authority)
  }

  /// The endpoints of `policy` (B2C) or of the provider, and the scopes to ask for there.
  ///
  /// The sample's explicit B2C URLs are used as configured; otherwise the discovery document's endpoints win
  /// (custom domains differ from the convention). When the document cannot be read, B2C and External ID fall back
  /// to their documented URL forms (the web view then shows the network error); a plain OpenID Connect provider has
  /// no such convention, so the sign-in cannot start. A certificate that is refused ends it for all: the pages are
  /// on that host too, and a browser would be sent there to fail (the CLI's would wait for an answer for nothing).
  func target(for policy: String?) async throws(SessionError) -> (endpoints: Authority.Endpoints, scopes: [String]) {
    let conventional = settings.authority.conventionalEndpoints(for: policy)
    if case .endpoints = settings.authority, let conventional {
      return (conventional, settings.scopes(offlineAccess: true))
    }
    let configuration: OpenIDConfiguration
    do {
      configuration = try await self.configuration(for: policy)
    } catch {
      if case .network(.untrusted) = error { throw .discovery(error) }
      guard let conventional else { throw .discovery(error) }
      return (conventional, settings.scopes(offlineAccess: true))
    }
    // The key set the id_token will be checked with, fetched while the user types (the redirect then waits only for
    // the token request); a failure here is met again, and reported, when the token is checked.
    let metadata = self.metadata
    let keySet = configuration.jwksURI
    Task.detached(priority: .utility) { _ = try? await metadata.keys(keySet) }
    guard let authorize = configuration.authorizationEndpoint ?? conventional?.authorize,
      let token = configuration.tokenEndpoint ?? conventional?.token
    else { throw .discovery(.badDocument("no authorization_endpoint or token_endpoint")) }
    let endpoints = Authority.Endpoints(
      authorize: authorize, token: token, logout: configuration.endSessionEndpoint ?? conventional?.logout,
      discovery: settings.authority.discovery(for: policy))
    let offlineAccess = configuration.scopesSupported?.contains("offline_access") ?? false
    return (endpoints, settings.scopes(offlineAccess: offlineAccess, supported: configuration.scopesSupported))
  }

  // MARK: Sign-out

  /// Where the provider's own session ends: its end-session URL, and whether the sign-in was in the system browser.
  public struct Logout: Equatable, Sendable {
    /// The end-session URL with `client_id` and `post_logout_redirect_uri`. It never carries the id_token
    /// (`id_token_hint`): the URL goes to a browser, through its command line and into its history.
    public var url: URL
    /// Whether the session was signed in in the system browser, where the provider's cookie then is.
    public var inBrowser: Bool
  }

  /// Signs out every app of the keychain group: removes the session from the keyring (under the lock, so that a
  /// refresh in another app cannot store it again) and answers the provider's end-session URL, which the browser
  /// should open when the sign-in was there; nil when the provider has none.
  public func signOut(postLogoutRedirect: String? = nil) async throws(SessionError) -> Logout? {
    let policy = tokens?.policy ?? settings.signInPolicy
    let inBrowser = tokens?.signedInWithBrowser ?? false
    pending = nil
    let removal = try await locked { () async -> KeyringError? in
      defer { self.keyringWrites += 1 }
      do throws(KeyringError) { try await self.store.removeGroup(of: self.key) } catch { return error }
      return nil
    }
    tokens = nil
    state = .signedOut
    if let removal { throw .keyring(removal) }
    guard let logout = try? await target(for: policy).endpoints.logout else { return nil }
    var components = URLComponents(url: logout, resolvingAgainstBaseURL: false)
    // OpenID Connect RP-Initiated Logout §2: client_id names the app when no id_token_hint is sent.
    let existing = components?.queryItems ?? []
    components?.queryItems =
      existing + [
        URLQueryItem(name: "client_id", value: settings.clientID),
        URLQueryItem(name: "post_logout_redirect_uri", value: postLogoutRedirect ?? settings.redirectURI.value),
      ]
    return Logout(url: components?.url ?? logout, inBrowser: inBrowser)
  }

  // MARK: Writing the shared session

  /// Runs `body` under the cross-process lock that every write of the session takes; fails without running it when
  /// the lock cannot be had.
  func locked<Value>(_ body: () async throws -> Value) async throws(SessionError) -> Value {
    do {
      return try await lock.withLock(onWait: onLockWait, body)
    } catch let error as SessionError {
      throw error
    } catch let error as RefreshLock.Failure {
      throw .lock(error)
    } catch let error as KeyringError {
      throw .keyring(error)
    } catch {
      throw .lock(.timedOut)  // cancelled while waiting
    }
  }
}

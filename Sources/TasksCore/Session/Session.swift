// Session: who is signed in, their tokens, and the flows that change them. Actor; UI and CLI observe its state.

import Foundation

/// What a sign-in step asks the caller to do next.
public enum SignInStep: Equatable, Sendable {
  /// Not a redirect of the flow in progress: let the web view load it.
  case notOurs
  /// Load this request next (the password-reset policy after "Forgot your password?", then the sign-in again).
  case load(URL)
  /// Signed in.
  case signedIn(Account)
  /// The profile was edited; the account has its new name.
  case profileUpdated(Account)
  /// The user cancelled: go back quietly.
  case cancelled
  /// The flow failed.
  case failed(SessionError)
}

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

  private enum Purpose { case signIn, passwordReset, editProfile }

  /// The settings the session runs with.
  public let settings: AppSettings
  /// How long before expiry a token is refreshed.
  public let refreshMargin: TimeInterval
  private let store: any SessionStore
  private let key: SessionKey
  private let lock: RefreshLock
  private let tokenEndpoint: TokenEndpoint
  private let validator: IDTokenValidator
  private let metadata: OpenIDMetadata

  /// The current state.
  public private(set) var state: State = .signedOut {
    didSet { if state != oldValue { observers.values.forEach { $0.yield(state) } } }
  }
  private var observers: [UUID: AsyncStream<State>.Continuation] = [:]
  private var tokens: TokenSet?
  private var pending: (request: AuthorizationRequest, purpose: Purpose)?
  private var stateBeforeFlow: State = .signedOut
  private var refreshing: Task<TokenSet, any Error>?

  /// Creates a session for `settings` over `store`.
  public init(
    settings: AppSettings, store: any SessionStore, http: HTTPClient = .shared, refreshMargin: TimeInterval = 300,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    self.settings = settings
    self.store = store
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
    do { stored = try await store.load(key) } catch { throw .keyring(error) }
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

  // MARK: Endpoints

  /// The endpoints of `policy`: the sample's explicit URLs as configured, or, for an authority given as host and
  /// tenant, those its discovery document publishes (custom domains differ from the convention), falling back to
  /// B2C's documented path form when the document cannot be read (the web view then shows the network error).
  func endpoints(for policy: String) async -> Authority.Endpoints {
    var endpoints = settings.authority.endpoints(for: policy)
    guard case .tenant = settings.authority,
      let configuration = try? await metadata.configuration(endpoints.discovery)
    else { return endpoints }
    endpoints.authorize = configuration.authorizationEndpoint ?? endpoints.authorize
    endpoints.token = configuration.tokenEndpoint ?? endpoints.token
    endpoints.logout = configuration.endSessionEndpoint ?? endpoints.logout
    return endpoints
  }

  // MARK: Flows

  /// Starts a sign-in with the sign-in policy. `redirectURI` overrides the settings' (the loopback flow's port).
  public func startSignIn(
    prompt: String? = nil, loginHint: String? = nil, redirectURI: RedirectURI? = nil
  ) async -> AuthorizationRequest {
    await begin(
      .signIn, policy: settings.policies.signIn, prompt: prompt, loginHint: loginHint, redirectURI: redirectURI)
  }

  /// Starts the edit-profile policy for the signed-in user.
  public func startEditProfile(redirectURI: RedirectURI? = nil) async throws(SessionError) -> AuthorizationRequest {
    guard let policy = settings.policies.editProfile else { throw .policyNotConfigured("edit-profile") }
    guard account != nil else { throw .notSignedIn }
    return await begin(.editProfile, policy: policy, prompt: nil, loginHint: account?.email, redirectURI: redirectURI)
  }

  /// The authorize request in progress, if any (its interpreter recognises the redirect synchronously).
  public var currentRequest: AuthorizationRequest? { pending?.request }

  /// Abandons the flow in progress (the user closed the web view).
  public func cancelFlow() {
    guard pending != nil else { return }
    pending = nil
    state = stateBeforeFlow
  }

  private func begin(
    _ purpose: Purpose, policy: String, prompt: String?, loginHint: String?, redirectURI: RedirectURI?
  ) async -> AuthorizationRequest {
    if pending == nil { stateBeforeFlow = state }
    let endpoints = await endpoints(for: policy)
    let request = AuthorizationRequest(
      settings: settings, authorizeEndpoint: endpoints.authorize, tokenEndpoint: endpoints.token, policy: policy,
      redirectURI: redirectURI ?? pending?.request.redirectURI, prompt: prompt, loginHint: loginHint)
    pending = (request, purpose)
    state = .signingIn
    return request
  }

  /// Takes a URL the web view is about to load (or the loopback listener received) and answers what to do next.
  public func handleRedirect(_ url: String) async -> SignInStep {
    guard let (request, purpose) = pending else { return .notOurs }
    switch request.interpreter.interpret(url) {
    case .notOurs:
      return .notOurs
    case .code(let code):
      switch purpose {
      case .signIn: return await finishSignIn(code, request)
      case .passwordReset:
        // The password is reset; sign in again with the sign-in policy (B2C's session cookie usually makes this
        // silent).
        return .load(
          await begin(.signIn, policy: settings.policies.signIn, prompt: nil, loginHint: nil, redirectURI: nil).url)
      case .editProfile: return await finishEditProfile(code, request)
      }
    case .failure(.forgotPassword) where purpose == .signIn:
      guard let reset = settings.policies.passwordReset else {
        return fail(.policyNotConfigured("password-reset"))
      }
      return .load(await begin(.passwordReset, policy: reset, prompt: nil, loginHint: nil, redirectURI: nil).url)
    case .failure(.cancelled) where purpose == .passwordReset:
      return .load(
        await begin(.signIn, policy: settings.policies.signIn, prompt: nil, loginHint: nil, redirectURI: nil).url)
    case .failure(.cancelled):
      cancelFlow()
      return .cancelled
    case .failure(let failure):
      return fail(.authorization(failure))
    }
  }

  private func fail(_ error: SessionError) -> SignInStep {
    pending = nil
    state = stateBeforeFlow
    return .failed(error)
  }

  private func finishSignIn(_ code: String, _ request: AuthorizationRequest) async -> SignInStep {
    do {
      let response = try await tokenEndpoint.redeem(code, request: request)
      let set = try await tokenSet(from: response, policy: request.policy, nonce: request.nonce, previous: nil)
      do {
        try await store.save(set, under: key)
      } catch {
        throw SessionError.keyring(error)
      }
      tokens = set
      pending = nil
      state = .signedIn(set.account)
      return .signedIn(set.account)
    } catch let error as SessionError {
      return fail(error)
    } catch {
      return fail(.badResponse("\(type(of: error))"))
    }
  }

  private func finishEditProfile(_ code: String, _ request: AuthorizationRequest) async -> SignInStep {
    do {
      let response = try await tokenEndpoint.redeem(code, request: request)
      let edited = try await tokenSet(from: response, policy: request.policy, nonce: request.nonce, previous: nil)
      guard var current = tokens, edited.account.objectID == current.account.objectID else {
        return fail(.authorization(.malformed))
      }
      current.account.displayName = edited.account.displayName
      do { try await store.save(current, under: key) } catch { throw SessionError.keyring(error) }
      tokens = current
      pending = nil
      state = .signedIn(current.account)
      return .profileUpdated(current.account)
    } catch let error as SessionError {
      return fail(error)
    } catch {
      return fail(.badResponse("\(type(of: error))"))
    }
  }

  /// Validates a token response's id_token and builds the token set to store.
  private func tokenSet(
    from response: TokenResponse, policy: String, nonce: String?, previous: TokenSet?
  ) async throws(SessionError) -> TokenSet {
    guard let idToken = response.idToken ?? previous?.idToken else { throw .badResponse("no id_token") }
    let discovery = settings.authority.endpoints(for: policy).discovery
    let validated: (account: Account, expiresOn: Date)
    do {
      validated = try await validator.validate(
        idToken, discovery: discovery, nonce: response.idToken == nil ? nil : nonce)
    } catch { throw .idToken(error) }
    if let previous, validated.account.objectID != previous.account.objectID { throw .idToken(.noSubject) }
    let now = Date()
    // expires_in is relative, so a desktop clock that is off the tenant's does not move it; expires_on is the
    // tenant's clock and only the fallback.
    let accessExpiry =
      response.expiresIn.map { now.addingTimeInterval(TimeInterval($0)) }
      ?? response.expiresOn.map { Date(timeIntervalSince1970: TimeInterval($0)) }
    return TokenSet(
      accessToken: response.accessToken ?? previous?.accessToken,
      accessTokenExpiresOn: response.accessToken == nil
        ? previous?.accessTokenExpiresOn : accessExpiry ?? validated.expiresOn,
      idToken: idToken, idTokenExpiresOn: validated.expiresOn,
      refreshToken: response.refreshToken ?? previous?.refreshToken,
      refreshTokenExpiresOn: response.refreshTokenExpiresIn.map { now.addingTimeInterval(TimeInterval($0)) }
        ?? previous?.refreshTokenExpiresOn,
      policy: policy, account: validated.account)
  }

  // MARK: Tokens for the API

  /// The bearer for the task API (the access token, or the id_token when settings say so). Refreshed when it
  /// expires within `refreshMargin`, or at once with `forceRefresh` (the API answered 401).
  public func bearer(forceRefresh: Bool = false) async throws(SessionError) -> String {
    if tokens == nil { try await restore() }
    guard let current = tokens else { throw .notSignedIn }
    if !forceRefresh, let bearer = current.bearer(settings.bearerToken),
      bearer.expiresOn.timeIntervalSinceNow > refreshMargin
    {
      return bearer.token
    }
    let refreshed = try await refresh(rejecting: forceRefresh ? current.bearer(settings.bearerToken)?.token : nil)
    guard let bearer = refreshed.bearer(settings.bearerToken) else { throw .badResponse("no bearer token") }
    return bearer.token
  }

  /// Refreshes once for all callers in this process, under the cross-process lock.
  private func refresh(rejecting rejected: String?) async throws(SessionError) -> TokenSet {
    if let refreshing {
      do { return try await refreshing.value } catch { throw (error as? SessionError) ?? .badResponse("refresh") }
    }
    let task = Task { try await self.refreshUnderLock(rejecting: rejected) }
    refreshing = task
    defer { refreshing = nil }
    do {
      return try await task.value
    } catch let error as SessionError {
      if error.needsSignIn {
        let account = tokens?.account
        tokens = nil
        state = .needsSignIn(account)
      } else if let account = tokens?.account {
        state = .signedIn(account)
      }
      throw error
    } catch {
      throw .badResponse("refresh")
    }
  }

  private func refreshUnderLock(rejecting rejected: String?) async throws -> TokenSet {
    try await lock.withLock {
      // Another process may have refreshed while this one waited: use what it stored.
      let stored: TokenSet?
      do throws(KeyringError) { stored = try await store.load(key) } catch { throw SessionError.keyring(error) }
      if let stored, stored.refreshToken != tokens?.refreshToken || rejected != nil,
        let bearer = stored.bearer(settings.bearerToken), bearer.token != rejected,
        bearer.expiresOn.timeIntervalSinceNow > refreshMargin
      {
        tokens = stored
        state = .signedIn(stored.account)
        return stored
      }
      // Nothing stored: another app of the group signed out (or the secret was deleted). Refreshing from memory
      // would put the session back behind its back: this app is signed out too.
      guard let current = stored else { throw SessionError.notSignedIn }
      guard let refreshToken = current.refreshToken else { throw SessionError.notSignedIn }
      state = .refreshing(current.account)
      let response = try await tokenEndpoint.refresh(
        refreshToken, at: await endpoints(for: current.policy).token)
      let renewed = try await tokenSet(from: response, policy: current.policy, nonce: nil, previous: current)
      do throws(KeyringError) { try await store.save(renewed, under: key) } catch { throw SessionError.keyring(error) }
      tokens = renewed
      state = .signedIn(renewed.account)
      return renewed
    }
  }

  // MARK: Sign-out

  /// Signs out every app of the keychain group: removes the session from the keyring and answers the policy's
  /// logout URL, which the web view (or browser) should load so that B2C ends its own session too.
  public func signOut(postLogoutRedirect: String? = nil) async throws(SessionError) -> URL {
    let idToken = tokens?.idToken
    pending = nil
    tokens = nil
    state = .signedOut
    do { try await store.removeGroup(of: key) } catch { throw .keyring(error) }
    let logout = await endpoints(for: tokens?.policy ?? settings.policies.signIn).logout
    var components = URLComponents(url: logout, resolvingAgainstBaseURL: false)
    var items = components?.queryItems ?? []
    if let idToken { items.append(URLQueryItem(name: "id_token_hint", value: idToken)) }
    items.append(
      URLQueryItem(name: "post_logout_redirect_uri", value: postLogoutRedirect ?? settings.redirectURI.value))
    components?.queryItems = items
    return components?.url ?? logout
  }
}

// Session+SignIn: the sign-in flow — authorize requests, the redirect, the code exchange, B2C's password-reset and
// edit-profile policies. Part of the Session actor.

import FoundationEssentials

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

extension Session {
  /// Starts a sign-in (with B2C, the sign-in policy). `redirectURI` overrides the settings' (the loopback flow's
  /// port); `inBrowser` says the request goes to the system browser, so the sign-out goes there too;
  /// `keepSignedIn` false keeps the session only until the desktop session ends.
  ///
  /// - Throws: `SessionError.discovery` when a provider without conventional endpoints cannot be asked for them.
  public func startSignIn(
    prompt: String? = nil, loginHint: String? = nil, redirectURI: RedirectURI? = nil, inBrowser: Bool = false,
    keepSignedIn: Bool = true
  ) async throws(SessionError) -> AuthorizationRequest {
    passwordChanged = false
    return try await begin(
      .signIn, policy: settings.signInPolicy, prompt: prompt, loginHint: loginHint, redirectURI: redirectURI,
      inBrowser: inBrowser, keepSignedIn: keepSignedIn)
  }

  /// Whether the provider has an edit-profile flow (a B2C edit-profile policy in the settings).
  public nonisolated var canEditProfile: Bool { settings.policies?.editProfile != nil }

  /// Starts the edit-profile policy for the signed-in user.
  public func startEditProfile(redirectURI: RedirectURI? = nil) async throws(SessionError) -> AuthorizationRequest {
    guard let policy = settings.policies?.editProfile else { throw .policyNotConfigured("edit-profile") }
    guard account != nil else { throw .notSignedIn }
    return try await begin(
      .editProfile, policy: policy, prompt: nil, loginHint: account?.email, redirectURI: redirectURI)
  }

  /// The authorize request in progress, if any (its interpreter recognises the redirect synchronously).
  public var currentRequest: AuthorizationRequest? { pending?.request }

  /// Abandons the flow in progress (the user closed the web view).
  public func cancelFlow() {
    guard pending != nil || state == .signingIn else { return }
    pending = nil
    state = stateAfterFlow
  }

  /// The state a flow that ends without a sign-in returns to: the one before it, unless a restore or a refresh
  /// changed it meanwhile (another app of the group signed in as someone else or signed out, the session ended, a
  /// refresh under way ended): what they found stands, and the state never names an account whose tokens the session
  /// does not hold.
  private var stateAfterFlow: State {
    state == .signingIn ? stateBeforeFlow : state
  }

  private func begin(
    _ purpose: Purpose, policy: String?, prompt: String?, loginHint: String?, redirectURI: RedirectURI?,
    inBrowser: Bool = false, keepSignedIn: Bool = true
  ) async throws(SessionError) -> AuthorizationRequest {
    let target = try await target(for: policy)
    if pending == nil && state != .signingIn { stateBeforeFlow = state }
    var request = AuthorizationRequest(
      settings: settings, authorizeEndpoint: target.endpoints.authorize, tokenEndpoint: target.endpoints.token,
      policy: policy, scopes: target.scopes, redirectURI: redirectURI, prompt: prompt,
      loginHint: loginHint)
    request.inBrowser = inBrowser
    request.keepSignedIn = keepSignedIn
    pending = (request, purpose)
    state = .signingIn
    return request
  }

  /// Whether the loopback listener should hand `url` to `handleRedirect`: false for a redirect of ours whose `state`
  /// is missing or not the flow's, and when no flow is in progress. Any local process can reach the listener's port,
  /// so such a request is refused and the flow goes on (RFC 8252 §8.1); the web view has no such neighbours.
  public func acceptsRedirect(_ url: String) -> Bool {
    guard let request = pending?.request else { return false }
    if case .failure(.stateMismatch) = request.interpreter.interpret(url) { return false }
    return true
  }

  /// Takes a URL the web view is about to load (or the loopback listener received) and answers what to do next.
  public func handleRedirect(_ url: String) async -> SignInStep {
    guard let (request, purpose) = pending else { return .notOurs }
    let outcome = request.interpreter.interpret(url)
    if outcome == .notOurs { return .notOurs }
    // The state is consumed before anything is awaited: a second delivery of the same redirect (the web view and a
    // reload, say) finds no flow and cannot redeem the code again and undo a sign-in that succeeded.
    pending = nil
    switch outcome {
    case .notOurs:
      return .notOurs
    case .code(let code):
      switch purpose {
      case .signIn: return await finishSignIn(code, request)
      case .passwordReset:
        // The password is reset; sign in again with the sign-in policy (B2C's session cookie usually makes this
        // silent).
        passwordChanged = true
        return await next(.signIn, policy: settings.signInPolicy, after: request)
      case .editProfile: return await finishEditProfile(code, request)
      }
    case .failure(.forgotPassword) where purpose == .signIn:
      guard let reset = settings.policies?.passwordReset else { return fail(.policyNotConfigured("password-reset")) }
      return await next(.passwordReset, policy: reset, after: request)
    case .failure(.cancelled) where purpose == .passwordReset:
      return await next(.signIn, policy: settings.signInPolicy, after: request)
    case .failure(.cancelled):
      cancelFlow()
      return .cancelled
    case .failure(.service(let error)) where error.error == "invalid_scope":
      return fail(.scopesRefused(request.scopes, error))
    case .failure(let failure):
      return fail(.authorization(failure))
    }
  }

  /// The next policy of a B2C flow, in the same web view or browser (so to the same redirect URI as `previous`).
  private func next(_ purpose: Purpose, policy: String?, after previous: AuthorizationRequest) async -> SignInStep {
    do throws(SessionError) {
      return .load(
        try await begin(
          purpose, policy: policy, prompt: nil, loginHint: nil, redirectURI: previous.redirectURI,
          inBrowser: previous.inBrowser, keepSignedIn: previous.keepSignedIn
        ).url)
    } catch {
      return fail(error)
    }
  }

  /// Ends the flow with `error`; its request was consumed when its redirect arrived (a flow begun since stays).
  private func fail(_ error: SessionError) -> SignInStep {
    state = stateAfterFlow
    return .failed(error)
  }

  private func finishSignIn(_ code: String, _ request: AuthorizationRequest) async -> SignInStep {
    do throws(SessionError) {
      let response = try await tokenEndpoint.redeem(code, request: request)
      var set = try await tokenSet(from: response, policy: request.policy, nonce: request.nonce, previous: nil)
      set.signedInWithBrowser = request.inBrowser
      set.keptSignedIn = request.keepSignedIn
      // A new sign-in replaces whatever the group holds, but only once no other app is writing it.
      try await locked {
        defer { self.keyringWrites += 1 }
        try await self.store.save(set, under: self.key)
      }
      tokens = set
      signedInHere = set.account.objectID
      state = .signedIn(set.account)
      return .signedIn(set.account)
    } catch {
      return fail(error)
    }
  }

  private func finishEditProfile(_ code: String, _ request: AuthorizationRequest) async -> SignInStep {
    do throws(SessionError) {
      let response = try await tokenEndpoint.redeem(code, request: request)
      let edited = try await tokenSet(from: response, policy: request.policy, nonce: request.nonce, previous: nil)
      guard let signedIn = tokens, edited.account.objectID == signedIn.account.objectID else {
        return fail(.authorization(.malformed))
      }
      // The new name goes onto what the keyring holds now (another app may have rotated the tokens meanwhile); if
      // the group signed out or someone else signed in, the edit is not written back.
      let current = try await locked { () async throws -> TokenSet? in
        let stored: TokenSet?
        do throws(KeyringError) { stored = try await self.store.load(self.key) } catch {
          throw SessionError.keyring(error)
        }
        guard var stored, stored.account.objectID == edited.account.objectID else { return nil }
        stored.account.displayName = edited.account.displayName
        defer { self.keyringWrites += 1 }
        do throws(KeyringError) { try await self.store.save(stored, under: self.key) } catch {
          throw SessionError.keyring(error)
        }
        return stored
      }
      guard let current else {
        tokens = nil
        state = .signedOut
        return .failed(.notSignedIn)
      }
      tokens = current
      state = .signedIn(current.account)
      return .profileUpdated(current.account)
    } catch {
      return fail(error)
    }
  }
}

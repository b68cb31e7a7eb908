// Session+Refresh: token sets from token responses, the bearer for the task API, and refresh — once per process,
// under the cross-process lock, with rotation. Part of the Session actor.

import FoundationEssentials

extension Session {
  /// The bearer for the task API (the access token, or the id_token when settings say so). Refreshed when it
  /// expires within `refreshMargin`, or at once with `forceRefresh` (the API answered 401).
  ///
  /// `objectID` binds the caller to one account (the one whose outbox or offline copy it works on): when the
  /// session belongs to anyone else — another app of the group signed in as someone else, and a refresh found that
  /// in the keyring — no bearer is given, and `.accountChanged` names the account the session switched to.
  public func bearer(forceRefresh: Bool = false, for objectID: String? = nil) async throws(SessionError) -> String {
    try await token(settings.bearerToken, forceRefresh: forceRefresh, for: objectID).token
  }

  /// A token of `kind` with when it expires, refreshed as `bearer` refreshes; bound to `objectID` as it is. (The
  /// broker lends these; the refresh token never leaves the session.)
  public func token(_ kind: AppSettings.BearerToken, forceRefresh: Bool = false, for objectID: String? = nil)
    async throws(SessionError) -> (token: String, expiresOn: Date)
  {
    if tokens == nil { try await restore() }
    guard let current = tokens else { throw .notSignedIn }
    try Self.require(current, belongsTo: objectID)
    if !forceRefresh, let bearer = current.bearer(kind), bearer.expiresOn.timeIntervalSinceNow > refreshMargin {
      return bearer
    }
    let refreshed = try await refresh(rejecting: forceRefresh ? current.bearer(kind)?.token : nil)
    try Self.require(refreshed, belongsTo: objectID)
    guard let bearer = refreshed.bearer(kind) else { throw .badResponse("no \(kind.rawValue)") }
    return bearer
  }

  private static func require(_ tokens: TokenSet, belongsTo objectID: String?) throws(SessionError) {
    if let objectID, tokens.account.objectID != objectID { throw .accountChanged(tokens.account) }
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
      if error == .signedOutElsewhere {
        tokens = nil
        state = .signedOut
      } else if error.needsSignIn {
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
    try await locked {
      // Another process may have refreshed while this one waited: use what it stored. It may also hold another
      // account (another app signed in as someone else): the session then switches to it, visibly (its state names
      // the new account), and callers bound to the earlier account get no bearer (`bearer(for:)`).
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
      guard let current = stored else { throw SessionError.signedOutElsewhere }
      guard let refreshToken = current.refreshToken else { throw SessionError.notSignedIn }
      // The keyring's set is the session's from now on, whoever it names (another app may have signed in as someone
      // else): the state never names an account whose tokens the session does not hold, even if the refresh fails.
      tokens = current
      state = .refreshing(current.account)
      let target = try await target(for: current.policy)
      let response = try await tokenEndpoint.refresh(refreshToken, at: target.endpoints.token, scopes: target.scopes)
      let renewed: TokenSet
      do {
        renewed = try await tokenSet(from: response, policy: current.policy, nonce: nil, previous: current)
      } catch {
        // The provider rotated the refresh token and then sent an id_token that does not validate (another issuer,
        // another subject…): nothing of the answer is used, but the new refresh token is kept — the old one is
        // spent, and replaying it would trip reuse detection and sign every app of the group out.
        if let rotated = response.refreshToken, rotated != refreshToken {
          var kept = current
          kept.refreshToken = rotated
          try await saveIfUnchanged(kept, replacing: current)
        }
        throw error
      }
      return try await saveIfUnchanged(renewed, replacing: current)
    }
  }

  /// Stores `renewed` and makes it the session's, if the keyring still holds `current` (compare and swap): every
  /// app of ours writes under the lock, but the keyring has other writers (Seahorse, an older version of ours): a
  /// session deleted meanwhile stays deleted, and one replaced meanwhile wins (and is answered). Under the lock.
  @discardableResult
  private func saveIfUnchanged(_ renewed: TokenSet, replacing current: TokenSet) async throws -> TokenSet {
    let now: TokenSet?
    do throws(KeyringError) { now = try await store.load(key) } catch { throw SessionError.keyring(error) }
    guard let now else { throw SessionError.signedOutElsewhere }
    guard now.refreshToken == current.refreshToken, now.account.objectID == current.account.objectID else {
      tokens = now
      state = .signedIn(now.account)
      return now
    }
    // Counted once written, as the other writes are: a restore whose read began while this one was under way is
    // refused (counted before, a read begun after the count but answered with the older set was taken).
    defer { keyringWrites += 1 }
    do throws(KeyringError) { try await store.save(renewed, under: key) } catch { throw SessionError.keyring(error) }
    tokens = renewed
    state = .signedIn(renewed.account)
    return renewed
  }

  /// Validates a token response's id_token and builds the token set to store.
  func tokenSet(
    from response: TokenResponse, policy: String?, nonce: String?, previous: TokenSet?
  ) async throws(SessionError) -> TokenSet {
    guard let idToken = response.idToken ?? previous?.idToken else { throw .badResponse("no id_token") }
    let configuration: OpenIDConfiguration
    do { configuration = try await self.configuration(for: policy) } catch { throw .idToken(.metadata(error)) }
    let validated: (account: Account, expiresOn: Date)
    do {
      validated = try await validator.validate(
        idToken, configuration: configuration, nonce: response.idToken == nil ? nil : nonce)
    } catch { throw .idToken(error) }
    if let previous, validated.account.objectID != previous.account.objectID { throw .idToken(.noSubject) }
    let now = Date()
    // expires_in is relative, so a desktop clock that is off the tenant's does not move it; expires_on is the
    // tenant's clock and only the fallback.
    let accessExpiry =
      response.expiresIn.map { now.addingTimeInterval(TimeInterval($0)) }
      ?? response.expiresOn.map { Date(timeIntervalSince1970: TimeInterval($0)) }
    var set = TokenSet(
      accessToken: response.accessToken ?? previous?.accessToken,
      accessTokenExpiresOn: response.accessToken == nil
        ? previous?.accessTokenExpiresOn : accessExpiry ?? validated.expiresOn,
      idToken: idToken, idTokenExpiresOn: validated.expiresOn,
      refreshToken: response.refreshToken ?? previous?.refreshToken,
      refreshTokenExpiresOn: response.refreshTokenExpiresIn.map { now.addingTimeInterval(TimeInterval($0)) }
        ?? previous?.refreshTokenExpiresOn,
      policy: policy, account: validated.account)
    // Where the session was made, and whether it is kept, stay with it through refreshes.
    set.signedInWithBrowser = previous?.signedInWithBrowser
    set.keptSignedIn = previous?.keptSignedIn
    return set
  }
}

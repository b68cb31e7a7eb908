// IdentityService: what B2C's endpoints do, apart from HTTP: validate authorize requests, run the user steps
// (sign in, sign up, reset, edit profile) and issue tokens. Sendable; state lives in the store and the flow actor.

import Crypto
import Foundation
import HummingbirdBcrypt
import JWTKit
import TaskService

/// The tenant's identity logic.
struct IdentityService: Sendable {
  let configuration: PlaygroundConfiguration
  let keys: SigningKeys
  let store: PlaygroundStore
  let flows: FlowStore
  let origin: ServerOrigin

  /// The issuer of the tokens it mints.
  var issuer: String { configuration.flavor.issuer(origin: origin.current, tenantID: configuration.tenantID) }

  // MARK: Authorize

  /// The outcome of checking an authorize request.
  enum AuthorizeCheck {
    /// The request is good.
    case valid(AuthorizeRequest)
    /// Fails before a redirect URI can be trusted: shown as a page, never redirected.
    case page(B2CError)
    /// Fails after the redirect URI was validated: sent back to the app (in the response mode it asked for, when B2C
    /// has that mode).
    case redirect(B2CError, redirectURI: String, state: String?, mode: ResponseMode)
  }

  /// Checks an authorize request in B2C's order: client, redirect URI, then the rest.
  func checkAuthorize(_ query: FormFields, policy: PolicyKind, policyName: String, locale: PageLocale) -> AuthorizeCheck
  {
    guard let clientID = query.nonEmpty("client_id") else { return .page(.missingParameter("client_id")) }
    guard let client = configuration.client(clientID) else {
      return .page(.unknownClient(clientID, tenant: configuration.tenantDomain))
    }
    guard let redirectURI = query.nonEmpty("redirect_uri") else { return .page(.missingParameter("redirect_uri")) }
    guard RedirectMatcher.isRegistered(redirectURI, in: client.redirectURIs) else {
      return .page(.redirectNotRegistered(redirectURI, client: clientID))
    }
    let state = query["state"]
    let mode = ResponseMode(requested: query["response_mode"])
    func fail(_ error: B2CError) -> AuthorizeCheck {
      .redirect(error, redirectURI: redirectURI, state: state, mode: mode ?? .query)
    }

    let responseType = query["response_type"] ?? ""
    guard responseType == "code" else {
      return fail(responseType.isEmpty ? .missingParameter("response_type") : .unsupportedResponseType(responseType))
    }
    guard let mode else { return fail(.unsupportedResponseMode(query["response_mode"] ?? "")) }
    guard let scopeText = query.nonEmpty("scope") else {
      return fail(
        B2CError(
          error: "invalid_request", code: "AADB2C90010", message: "The request does not contain a scope parameter."))
    }
    let scopes = scopeText.split(separator: " ").map(String.init)
    if let bad = scopes.first(where: { !isKnownScope($0, clientID: client.id) }) { return fail(.unsupportedScope(bad)) }
    guard scopes.contains("openid") || scopes.contains(where: { isResourceScope($0, clientID: client.id) }) else {
      return fail(.scopeWithoutResource)
    }
    let prompt = query["prompt"]
    // MSAL's prompt values; `create` (straight to sign-up) is External ID's, which B2C refuses.
    let prompts = ["none", "login", "consent", "select_account"] + (configuration.flavor.hasPolicies ? [] : ["create"])
    if let prompt, !prompts.contains(prompt) { return fail(.invalidPrompt) }
    let challenge = query.nonEmpty("code_challenge")
    var method = query.nonEmpty("code_challenge_method")
    if challenge != nil { method = method ?? "plain" }
    if let method, !["plain", "S256"].contains(method) { return fail(.unsupportedChallengeMethod) }
    if configuration.requirePKCE && challenge == nil { return fail(.challengeRequired) }
    if let challenge, !PKCE.isWellFormed(challenge) {
      return fail(
        B2CError(error: "invalid_request", code: "AADB2C90183", message: "The supplied code_challenge is invalid"))
    }
    return .valid(
      AuthorizeRequest(
        policy: policy, policyName: policyName, clientID: client.id, redirectURI: redirectURI, scopes: scopes,
        state: state, nonce: query["nonce"], codeChallenge: challenge, codeChallengeMethod: method, prompt: prompt,
        loginHint: query["login_hint"], locale: locale, responseMode: mode))
  }

  private func isResourceScope(_ scope: String, clientID: String) -> Bool {
    scope.lowercased() == clientID.lowercased() || apiScopes.contains(scope)
  }

  private func isKnownScope(_ scope: String, clientID: String) -> Bool {
    ["openid", "offline_access", "profile", "email"].contains(scope) || isResourceScope(scope, clientID: clientID)
  }

  /// The task API's own scopes, which B2C would list under the API's registration.
  var apiScopes: [String] {
    [
      "https://\(configuration.tenantDomain)/tasks/tasks.read",
      "https://\(configuration.tenantDomain)/tasks/tasks.write",
    ]
  }

  // MARK: User steps

  /// The user with `email` if `password` is theirs.
  enum SignInResult { case success(User), wrongPassword, unknownAccount }

  func signIn(email: String, password: String) async throws -> SignInResult {
    guard let user = try await store.user(email: email.trimmingCharacters(in: .whitespaces)) else {
      return .unknownAccount
    }
    let matches = await Task.detached { Bcrypt.verify(password, hash: user.passwordHash) }.value
    return matches ? .success(user) : .wrongPassword
  }

  /// Why new account details were refused.
  enum AccountProblem: Error { case invalidEmail, emailTaken, weakPassword, passwordsDiffer, nameRequired }

  func signUp(email: String, password: String, confirmation: String, displayName: String) async throws -> Result<
    User, AccountProblem
  > {
    let email = email.trimmingCharacters(in: .whitespaces)
    let name = displayName.trimmingCharacters(in: .whitespacesAndNewlines)
    guard Self.isEmail(email) else { return .failure(.invalidEmail) }
    guard password == confirmation else { return .failure(.passwordsDiffer) }
    guard Self.isStrong(password) else { return .failure(.weakPassword) }
    guard !name.isEmpty, name.count <= 256 else { return .failure(.nameRequired) }
    let hash = await hashPassword(password)
    let user = User(
      oid: UUID().uuidString.lowercased(), email: email, displayName: name, passwordHash: hash, createdAt: Date())
    return try await store.insert(user) ? .success(user) : .failure(.emailTaken)
  }

  /// Sets a new password for the account with `email`; its refresh tokens stop working, as in B2C.
  func resetPassword(email: String, password: String, confirmation: String) async throws -> Result<User, AccountProblem>
  {
    guard var user = try await store.user(email: email.trimmingCharacters(in: .whitespaces)) else {
      return .failure(.invalidEmail)
    }
    guard password == confirmation else { return .failure(.passwordsDiffer) }
    guard Self.isStrong(password) else { return .failure(.weakPassword) }
    user.passwordHash = await hashPassword(password)
    try await store.update(user)
    try await store.revokeRefreshTokens(oid: user.oid)
    return .success(user)
  }

  func hashPassword(_ password: String) async -> String {
    let cost = configuration.passwordHashCost
    return await Task.detached { Bcrypt.hash(password, cost: cost) }.value
  }

  static func isEmail(_ text: String) -> Bool {
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, text.count <= 256, !text.contains(where: \.isWhitespace) else {
      return false
    }
    let domain = parts[1].split(separator: ".", omittingEmptySubsequences: false)
    return domain.count >= 2 && domain.allSatisfy { !$0.isEmpty }
  }

  /// B2C's default: 8 to 64 characters, three of four character classes.
  static func isStrong(_ password: String) -> Bool {
    guard (8...64).contains(password.count) else { return false }
    let classes = [
      password.contains(where: \.isLowercase), password.contains(where: \.isUppercase),
      password.contains(where: \.isNumber), password.contains(where: { !$0.isLetter && !$0.isNumber }),
    ]
    return classes.filter { $0 }.count >= 3
  }

  // MARK: Tokens

  /// The token response for `user` under `request`, with a new refresh token of `family` when offline access was
  /// asked for, and `client_info` when the client asked for it (`client_info=1`, as MSAL does).
  func tokenResponse(
    user: User, request: AuthorizeRequest, authTime: Int, family: (id: String, expiresAt: Date)?,
    clientInfo: Bool = false
  ) async throws -> [String: Any] {
    let now = Int(Date().timeIntervalSince1970)
    let lifetimes = configuration.lifetimes
    let scopes = request.scopes
    let resourceScopes = scopes.filter { isResourceScope($0, clientID: request.clientID) }
    let apiScopeNames = resourceScopes.filter { apiScopes.contains($0) }.map {
      $0.split(separator: "/").last.map(String.init) ?? $0
    }
    let flavor = configuration.flavor
    func claims(lifetime: Int, nonce: String?, scp: String?) -> B2CClaims {
      var claims = B2CClaims(
        iss: issuer, sub: user.oid, aud: request.clientID, exp: now + lifetime, nbf: now, iat: now,
        auth_time: authTime, name: user.displayName, nonce: nonce, scp: scp,
        azp: scp == nil ? nil : request.clientID)
      switch flavor {
      case .b2c:
        (claims.oid, claims.emails, claims.tfp, claims.ver) = (user.oid, [user.email], request.policyName, "1.0")
      case .externalID:
        (claims.oid, claims.tid, claims.preferred_username, claims.ver) =
          (user.oid, configuration.tenantID, user.email, "2.0")
      case .openID:
        claims.email = user.email
      }
      return claims
    }
    var response: [String: Any] = ["token_type": "Bearer", "not_before": number(now)]
    var granted: [String] = []
    if scopes.contains("openid") {
      response["id_token"] = try await sign(claims(lifetime: lifetimes.idToken, nonce: request.nonce, scp: nil))
      response["id_token_expires_in"] = number(lifetimes.idToken)
      granted.append("openid")
    }
    if flavor == .openID {
      // A plain provider's access token is for its own resource server, opaque to everyone else.
      response["access_token"] = FlowStore.randomToken()
      response["expires_in"] = number(lifetimes.accessToken)
    } else if !resourceScopes.isEmpty {
      let scp = apiScopeNames.isEmpty ? nil : apiScopeNames.joined(separator: " ")
      response["access_token"] = try await sign(claims(lifetime: lifetimes.accessToken, nonce: request.nonce, scp: scp))
      response["expires_in"] = number(lifetimes.accessToken)
      response["expires_on"] = number(now + lifetimes.accessToken)
      response["resource"] = request.clientID
      granted += resourceScopes
    } else {
      response["expires_in"] = number(lifetimes.idToken)
      response["expires_on"] = number(now + lifetimes.idToken)
    }
    if scopes.contains("offline_access") {
      let familyExpiry = family?.expiresAt ?? Date().addingTimeInterval(TimeInterval(lifetimes.refreshSlidingWindow))
      let expiry = min(Date().addingTimeInterval(TimeInterval(lifetimes.refreshToken)), familyExpiry)
      let token = FlowStore.randomToken() + FlowStore.randomToken()
      try await store.insert(
        RefreshTokenRecord(
          tokenHash: Self.hash(token), family: family?.id ?? UUID().uuidString, oid: user.oid,
          clientID: request.clientID,
          policy: request.policyName, scope: scopes.joined(separator: " "), authTime: authTime, issuedAt: Date(),
          expiresAt: expiry, familyExpiresAt: familyExpiry, status: .active))
      response["refresh_token"] = token
      response["refresh_token_expires_in"] = number(Int(expiry.timeIntervalSinceNow.rounded()))
      granted.append("offline_access")
    }
    response["scope"] = granted.joined(separator: " ")
    if clientInfo, flavor != .openID {
      // Microsoft's account key for MSAL: `uid` and `utid` (the tenant); B2C's `uid` names the policy too, as the
      // home account ids `{oid}-{policy}.{tenant}` of MSAL's B2C accounts show.
      let uid = flavor.hasPolicies ? "\(user.oid)-\(request.policyName.lowercased())" : user.oid
      response["client_info"] = try JSONSerialization.data(
        withJSONObject: ["uid": uid, "utid": configuration.tenantID], options: [.sortedKeys]
      ).base64URLEncoded
    }
    guard flavor.hasPolicies else { return response }
    let profile: [String: Any] = [
      "ver": "1.0", "tid": configuration.tenantID, "oid": user.oid, "name": user.displayName, "upn": NSNull(),
    ]
    response["profile_info"] = try JSONSerialization.data(withJSONObject: profile, options: [.sortedKeys])
      .base64URLEncoded
    return response
  }

  private func number(_ value: Int) -> Any {
    configuration.numbersAsStrings ? String(value) : value
  }

  private func sign(_ claims: B2CClaims) async throws -> String {
    try await keys.collection.sign(claims, kid: JWKIdentifier(string: keys.kid), header: ["typ": "JWT"])
  }

  /// The stored form of a refresh token.
  static func hash(_ token: String) -> String {
    SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
  }
}

/// Registered redirect URIs, matched as B2C does for native apps.
enum RedirectMatcher {
  /// Exact match; a custom scheme's scheme is compared case-insensitively; a loopback `http` URI matches a registered
  /// loopback URI with the same path on any port (RFC 8252 §7.3).
  static func isRegistered(_ uri: String, in registered: [String]) -> Bool {
    if registered.contains(uri) { return true }
    guard let given = URLComponents(string: uri), let scheme = given.scheme?.lowercased() else { return false }
    return registered.contains { candidate in
      guard let known = URLComponents(string: candidate), known.scheme?.lowercased() == scheme else { return false }
      if scheme == "http", let host = given.host, isLoopback(host) {
        return known.host?.lowercased() == host.lowercased() && normalizedPath(known.path) == normalizedPath(given.path)
          && known.query == given.query && given.fragment == nil
      }
      guard scheme != "http", scheme != "https" else { return false }
      return known.host == given.host && known.path == given.path && known.query == given.query
        && known.port == given.port && known.user == given.user && given.fragment == nil
    }
  }

  static func isLoopback(_ host: String) -> Bool {
    ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased())
  }

  private static func normalizedPath(_ path: String) -> String { path.isEmpty ? "/" : path }
}

/// RFC 7636 checks.
enum PKCE {
  /// 43 to 128 characters of `[A-Za-z0-9-._~]`.
  static func isWellFormed(_ value: String) -> Bool {
    (43...128).contains(value.count)
      && value.unicodeScalars.allSatisfy {
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
          || "-._~".unicodeScalars.contains($0)
      }
  }

  /// Whether `verifier` answers `challenge` under `method`.
  static func verify(_ verifier: String, challenge: String, method: String) -> Bool {
    switch method {
    case "S256": return Data(SHA256.hash(data: Data(verifier.utf8))).base64URLEncoded == challenge
    default: return verifier == challenge
    }
  }
}

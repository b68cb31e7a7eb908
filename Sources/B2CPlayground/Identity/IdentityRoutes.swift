// IdentityRoutes: the identity endpoints over HTTP: B2C's in every URL form of PROTOCOL.md §2, or External ID's or a
// plain OpenID Connect issuer's (PROTOCOL.md §9), as the flavor says. Sendable.

import Foundation
import Hummingbird
import TaskService

/// The identity endpoints: discovery, keys, authorize (with the sign-in pages), token and logout — for B2C each under
/// `/{tenant}/oauth2/v2.0/…?p={policy}` and `/{tenant}/{policy}/oauth2/v2.0/…`; for External ID under
/// `/{tenant}/oauth2/v2.0/…` without policies; for a plain issuer at the root. The flavors without policies run the
/// sign-up-or-sign-in flow.
struct IdentityRoutes: Sendable {
  let service: IdentityService
  var configuration: PlaygroundConfiguration { service.configuration }
  var flows: FlowStore { service.flows }

  /// The SSO cookie, as B2C names its own.
  static let sessionCookie = "x-ms-cpim-sso"

  /// The paths of the protocol's endpoints after the tenant (and policy) prefix.
  private var paths: (discovery: String, keys: String, authorize: String, token: String, logout: String) {
    configuration.flavor == .openID
      ? (".well-known/openid-configuration", "discovery/keys", "oauth2/authorize", "oauth2/token", "oauth2/logout")
      : (
        "v2.0/.well-known/openid-configuration", "discovery/v2.0/keys", "oauth2/v2.0/authorize", "oauth2/v2.0/token",
        "oauth2/v2.0/logout"
      )
  }

  func register(on router: Router<ServiceRequestContext>) {
    let prefixes: [String]
    switch configuration.flavor {
    case .b2c: prefixes = ["/:tenant", "/:tenant/:policy"]
    case .externalID: prefixes = ["/:tenant"]
    case .openID: prefixes = [""]
    }
    let paths = paths
    for prefix in prefixes {
      router.get("\(prefix)/\(paths.discovery)") { request, context in
        try await respond(request, context) { try await discovery(request, context) }
      }
      router.get("\(prefix)/\(paths.keys)") { request, context in
        try await respond(request, context) {
          _ = try policy(request, context); return try json(service.keys.jwks)
        }
      }
      router.get("\(prefix)/\(paths.authorize)") { request, context in
        try await respond(request, context) { try await authorize(request, context) }
      }
      router.post("\(prefix)/\(paths.token)") { request, context in
        await token(request, context)
      }
      router.get("\(prefix)/\(paths.logout)") { request, context in
        try await respond(request, context) { try await logout(request, context) }
      }
    }
    router.post("/:tenant/:policy/SelfAsserted") { request, context in
      try await respond(request, context) { try await selfAsserted(request, context) }
    }
    router.get("/:tenant/:policy/SelfAsserted/:step") { request, context in
      try await respond(request, context) { try await selfAssertedLink(request, context) }
    }
  }

  // MARK: Discovery

  private func discovery(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
    let (_, name) = try policy(request, context)
    let origin = service.origin.current
    let tenant = context.parameters.get("tenant") ?? configuration.tenantDomain
    func endpoint(_ path: String) -> String {
      switch configuration.flavor {
      case .b2c:
        return context.parameters.get("policy") != nil
          ? "\(origin)/\(tenant)/\(name)/\(path)" : "\(origin)/\(tenant)/\(path)?p=\(name)"
      case .externalID: return "\(origin)/\(tenant)/\(path)"
      case .openID: return "\(origin)/\(path)"
      }
    }
    let paths = paths
    let document: [String: Any] = [
      "issuer": service.issuer,
      "authorization_endpoint": endpoint(paths.authorize),
      "token_endpoint": endpoint(paths.token),
      "end_session_endpoint": endpoint(paths.logout),
      "jwks_uri": endpoint(paths.keys),
      "response_modes_supported": ResponseMode.allCases.map(\.rawValue),
      "response_types_supported": ["code"],
      "scopes_supported": configuration.flavor.hasPolicies
        ? ["openid", "offline_access"] : ["openid", "profile", "email", "offline_access"],
      "subject_types_supported": ["pairwise"],
      "id_token_signing_alg_values_supported": ["RS256"],
      "token_endpoint_auth_methods_supported": ["none"],
      "code_challenge_methods_supported": ["plain", "S256"],
      "claims_supported": [
        "name", "emails", "oid", "sub", "tfp", "iss", "iat", "exp", "aud", "acr", "nonce", "auth_time",
      ],
    ]
    return try json(document)
  }

  // MARK: Authorize

  private func authorize(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
    let query = FormFields(request.uri.query)
    let locale = PageLocale.negotiate(uiLocales: query["ui_locales"], acceptLanguage: request.headers[.acceptLanguage])
    let (kind, name) = try policy(request, context)
    switch service.checkAuthorize(query, policy: kind, policyName: name, locale: locale) {
    case .page(let error):
      return errorPage(error, locale: locale)
    case .redirect(let error, let redirectURI, let state, let mode):
      return AuthorizeAnswer.error(error, to: redirectURI, state: state, mode: mode)
    case .valid(let auth):
      let session = await flows.session(request.cookies[Self.sessionCookie]?.value)
      if auth.prompt == "none" && session == nil {
        return Self.answer(auth, error: .noSessionForPromptNone)
      }
      let tx = await flows.begin(auth)
      let form = formContext(auth, tx)
      let reuseSession = session != nil && auth.prompt != "login"
      switch kind {
      case .signUpOrSignIn:
        if auth.prompt == "create" { return html(.signUp(form, email: auth.loginHint, displayName: nil, error: nil)) }
        if let session, reuseSession, let user = try await service.store.user(oid: session.oid) {
          return try await complete(tx, auth, user: user, authTime: session.authTime, request: request)
        }
        return html(.signIn(form, email: auth.loginHint, error: nil))
      case .passwordReset:
        return html(.resetPassword(form, email: auth.loginHint, error: nil))
      case .editProfile:
        if let session, reuseSession, let user = try await service.store.user(oid: session.oid) {
          return html(.editProfile(form, displayName: user.displayName, error: nil))
        }
        return html(.signIn(form, email: auth.loginHint, error: nil))
      }
    }
  }

  /// The forms' posts: `step` = signin, signup, reset or profile.
  private func selfAsserted(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
    let body = try await request.body.collect(upTo: configuration.maxRequestBytes)
    let fields = FormFields(String(buffer: body))
    guard let tx = fields["tx"], let auth = await flows.transaction(tx) else {
      return errorPage(.stateLost, locale: .english)
    }
    let form = formContext(auth, tx)
    let text = form.text
    let email = fields["email"] ?? ""
    switch fields["step"] {
    case "signin":
      switch try await service.signIn(email: email, password: fields["password"] ?? "") {
      case .success(let user):
        let authTime = Int(Date().timeIntervalSince1970)
        if auth.policy == .editProfile {
          var response = html(.editProfile(form, displayName: user.displayName, error: nil))
          await startSession(&response, oid: user.oid, authTime: authTime)
          return response
        }
        return try await complete(tx, auth, user: user, authTime: authTime, request: request, newSession: true)
      case .wrongPassword: return html(.signIn(form, email: email, error: text.wrongPassword))
      case .unknownAccount: return html(.signIn(form, email: email, error: text.unknownAccount))
      }
    case "signup" where auth.policy == .signUpOrSignIn:
      let name = fields["displayName"] ?? ""
      let result = try await service.signUp(
        email: email, password: fields["newPassword"] ?? "", confirmation: fields["reenterPassword"] ?? "",
        displayName: name)
      switch result {
      case .success(let user):
        return try await complete(
          tx, auth, user: user, authTime: Int(Date().timeIntervalSince1970), request: request, newSession: true)
      case .failure(let problem):
        return html(.signUp(form, email: email, displayName: name, error: message(problem, text)))
      }
    case "reset-email" where auth.policy == .passwordReset:
      // B2C proves the mailbox before a reset: a code goes to the address, and only that code lets a password be
      // chosen. An unknown address is said, as B2C's page says it.
      guard try await service.store.user(email: email.trimmingCharacters(in: .whitespaces)) != nil else {
        return html(.resetPassword(form, email: email, error: text.unknownAccount))
      }
      guard let code = await flows.issueResetCode(for: tx, email: email) else {
        return html(.resetPassword(form, email: email, error: text.tooManyAttempts))
      }
      configuration.mailbox(email, code)
      return html(.resetCode(form, email: email, error: nil))
    case "reset" where auth.policy == .passwordReset:
      let (password, confirmation) = (fields["newPassword"] ?? "", fields["reenterPassword"] ?? "")
      if password != confirmation || !IdentityService.isStrong(password) {  // said before the code is used up
        let problem: IdentityService.AccountProblem = password != confirmation ? .passwordsDiffer : .weakPassword
        return html(.resetCode(form, email: email, error: message(problem, text)))
      }
      switch await flows.checkResetCode(for: tx, email: email, code: fields["verificationCode"] ?? "") {
      case .valid: break
      case .wrong: return html(.resetCode(form, email: email, error: text.wrongCode))
      case .void: return html(.resetPassword(form, email: email, error: text.wrongCode))
      case .locked: return html(.resetPassword(form, email: email, error: text.tooManyAttempts))
      }
      let result = try await service.resetPassword(
        email: email, password: fields["newPassword"] ?? "", confirmation: fields["reenterPassword"] ?? "")
      switch result {
      case .success(let user):
        return try await complete(
          tx, auth, user: user, authTime: Int(Date().timeIntervalSince1970), request: request, newSession: true)
      case .failure(let problem):
        let shown = problem == .invalidEmail ? text.unknownAccount : message(problem, text)
        return html(.resetPassword(form, email: email, error: shown))
      }
    case "profile" where auth.policy == .editProfile:
      guard let session = await flows.session(request.cookies[Self.sessionCookie]?.value),
        var user = try await service.store.user(oid: session.oid)
      else { return html(.signIn(form, email: nil, error: nil)) }
      let name = (fields["displayName"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
      guard !name.isEmpty, name.count <= 256 else {
        return html(.editProfile(form, displayName: name, error: text.nameRequired))
      }
      user.displayName = name
      try await service.store.update(user)
      return try await complete(tx, auth, user: user, authTime: session.authTime, request: request)
    default:
      return errorPage(.invalidInput("step"), locale: auth.locale)
    }
  }

  /// The pages' links: sign up, forgot password, cancel.
  private func selfAssertedLink(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
    let query = FormFields(request.uri.query)
    guard let tx = query["tx"], let auth = await flows.transaction(tx) else {
      return errorPage(.stateLost, locale: .english)
    }
    switch context.parameters.get("step") {
    case "signup" where auth.policy == .signUpOrSignIn:
      return html(.signUp(formContext(auth, tx), email: nil, displayName: nil, error: nil))
    case "forgot" where configuration.flavor.hasPolicies:
      await flows.finish(tx)
      return Self.answer(auth, error: .forgotPassword)
    case "cancel":
      await flows.finish(tx)
      guard configuration.flavor.hasPolicies else {
        // RFC 6749 §4.1.2.1, as providers without B2C's codes say it.
        return Self.answer(
          auth,
          [("error", "access_denied"), ("error_description", "The user cancelled the sign-in."), ("state", auth.state)])
      }
      return Self.answer(auth, error: .cancelled)
    default:
      return errorPage(.invalidInput("step"), locale: auth.locale)
    }
  }

  /// `parameters` to the app's redirect URI, in the response mode it asked for.
  private static func answer(_ auth: AuthorizeRequest, _ parameters: [(String, String?)]) -> Response {
    AuthorizeAnswer.answer(to: auth.redirectURI, mode: auth.responseMode, parameters)
  }

  /// `error` to the app's redirect URI, in the response mode it asked for.
  private static func answer(_ auth: AuthorizeRequest, error: B2CError) -> Response {
    AuthorizeAnswer.error(error, to: auth.redirectURI, state: auth.state, mode: auth.responseMode)
  }

  /// Ends a flow: a code for `user`, sent to the app's redirect URI, and the SSO cookie when a new sign-in happened.
  private func complete(
    _ tx: String, _ auth: AuthorizeRequest, user: User, authTime: Int, request: Request, newSession: Bool = false
  ) async throws -> Response {
    let code = await flows.issueCode(
      oid: user.oid, request: auth, authTime: authTime, lifetime: configuration.lifetimes.authorizationCode)
    await flows.finish(tx)
    var response = Self.answer(auth, [("code", code), ("state", auth.state)])
    if newSession {
      await flows.endSession(request.cookies[Self.sessionCookie]?.value)
      await startSession(&response, oid: user.oid, authTime: authTime)
    }
    return response
  }

  private func startSession(_ response: inout Response, oid: String, authTime: Int) async {
    let lifetime = configuration.lifetimes.webSession
    let id = await flows.startSession(oid: oid, authTime: authTime, lifetime: lifetime)
    response.setCookie(
      Cookie(name: Self.sessionCookie, value: id, maxAge: lifetime, path: "/", httpOnly: true, sameSite: .lax))
  }

  private func message(_ problem: IdentityService.AccountProblem, _ text: PageText) -> String {
    switch problem {
    case .invalidEmail: return text.invalidEmail
    case .emailTaken: return text.emailTaken
    case .weakPassword: return text.weakPassword
    case .passwordsDiffer: return text.passwordsDiffer
    case .nameRequired: return text.nameRequired
    }
  }

  // MARK: Token

  private func token(_ request: Request, _ context: ServiceRequestContext) async -> Response {
    do {
      let (_, name) = try policy(request, context)
      let body = try await request.body.collect(upTo: configuration.maxRequestBytes)
      let form = FormFields(String(buffer: body))
      if form.nonEmpty("client_secret") != nil { throw B2CError.publicClientSecret }
      guard let grantType = form.nonEmpty("grant_type") else { throw B2CError.missingParameter("grant_type") }
      guard let clientID = form.nonEmpty("client_id") else { throw B2CError.missingParameter("client_id") }
      guard let client = configuration.client(clientID) else {
        throw B2CError.unknownClient(clientID, tenant: configuration.tenantDomain)
      }
      switch grantType {
      case "authorization_code":
        return try json(try await redeemCode(form, client: client, policyName: name))
      case "refresh_token":
        return try json(try await redeemRefreshToken(form, client: client, policyName: name))
      default:
        throw B2CError.unsupportedGrantType(grantType)
      }
    } catch let error as B2CError {
      context.logger.info("token request refused", metadata: ["code": "\(error.code)"])
      return (try? json(error.json, status: HTTPResponse.Status(code: error.status))) ?? Response(status: .badRequest)
    } catch let error as HTTPError {
      return Response(status: error.status)
    } catch {
      let failure = B2CError(
        error: "server_error", code: "AADB2C90085",
        message: "The service has encountered an internal error. Please reauthenticate and try again.", status: 500)
      return (try? json(failure.json, status: .internalServerError)) ?? Response(status: .internalServerError)
    }
  }

  private func redeemCode(
    _ form: FormFields, client: PlaygroundConfiguration.Client, policyName: String
  ) async throws -> [String: Any] {
    guard let code = form.nonEmpty("code") else { throw B2CError.missingParameter("code") }
    guard let grant = await flows.redeem(code) else { throw B2CError.unknownGrant }
    guard !grant.redeemed else { throw B2CError.revokedGrant }
    guard grant.expiresAt > Date() else {
      throw B2CError.expiredGrant(issued: grant.issuedAt, slidingExpiry: grant.expiresAt)
    }
    guard grant.request.clientID == client.id else {
      throw B2CError.clientMismatch(client.id, expected: grant.request.clientID)
    }
    guard grant.request.policyName.lowercased() == policyName.lowercased() else {
      throw B2CError.grantForOtherPolicy(actual: grant.request.policyName, expected: policyName)
    }
    guard let redirect = form.nonEmpty("redirect_uri") else { throw B2CError.missingParameter("redirect_uri") }
    guard redirect == grant.request.redirectURI else {
      throw B2CError.redirectNotRegistered(redirect, client: client.id)
    }
    // RFC 9700 §2.1.1: a verifier for a code that was asked without a challenge is an attempted PKCE downgrade.
    if grant.request.codeChallenge == nil, form.nonEmpty("code_verifier") != nil { throw B2CError.verifierInvalid }
    if let challenge = grant.request.codeChallenge {
      guard let verifier = form.nonEmpty("code_verifier"), PKCE.isWellFormed(verifier) else {
        throw B2CError.verifierInvalid
      }
      guard PKCE.verify(verifier, challenge: challenge, method: grant.request.codeChallengeMethod ?? "plain") else {
        throw B2CError.verifierMismatch
      }
    }
    guard let user = try await service.store.user(oid: grant.oid) else { throw B2CError.accountGone }
    return try await service.tokenResponse(
      user: user, request: grant.request, authTime: grant.authTime, family: nil, clientInfo: form["client_info"] == "1")
  }

  private func redeemRefreshToken(
    _ form: FormFields, client: PlaygroundConfiguration.Client, policyName: String
  ) async throws -> [String: Any] {
    guard let token = form.nonEmpty("refresh_token") else { throw B2CError.missingParameter("refresh_token") }
    let hash = IdentityService.hash(token)
    guard let record = try await service.store.refreshToken(hash: hash) else { throw B2CError.unknownGrant }
    if record.status == .used { try await service.store.revokeFamily(record.family) }  // replayed: it leaked
    guard record.status == .active else { throw B2CError.revokedGrant }
    guard record.clientID == client.id else { throw B2CError.clientMismatch(client.id, expected: record.clientID) }
    guard record.policy.lowercased() == policyName.lowercased() else {
      throw B2CError.grantForOtherPolicy(actual: record.policy, expected: policyName)
    }
    let now = Date()
    guard now < record.expiresAt, now < record.familyExpiresAt else {
      throw B2CError.expiredGrant(issued: record.issuedAt, slidingExpiry: record.familyExpiresAt)
    }
    // Rotate: only one of two concurrent uses of the same token gets through.
    guard let consumed = try await service.store.consume(tokenHash: hash), consumed.status == .active else {
      try await service.store.revokeFamily(record.family)
      throw B2CError.revokedGrant
    }
    guard let user = try await service.store.user(oid: record.oid) else { throw B2CError.accountGone }
    let scopes = record.scope.split(separator: " ").map(String.init)
    let auth = AuthorizeRequest(
      policy: configuration.policies.kind(of: record.policy) ?? .signUpOrSignIn, policyName: record.policy,
      clientID: record.clientID, redirectURI: form["redirect_uri"] ?? "", scopes: scopes, state: nil, nonce: nil,
      codeChallenge: nil, codeChallengeMethod: nil, prompt: nil, loginHint: nil, locale: .english)
    return try await service.tokenResponse(
      user: user, request: auth, authTime: record.authTime, family: (record.family, record.familyExpiresAt),
      clientInfo: form["client_info"] == "1")
  }

  // MARK: Logout

  private func logout(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
    _ = try policy(request, context)
    let query = FormFields(request.uri.query)
    let locale = PageLocale.negotiate(uiLocales: query["ui_locales"], acceptLanguage: request.headers[.acceptLanguage])
    let target = query.nonEmpty("post_logout_redirect_uri")
    if let target, !configuration.clients.contains(where: { RedirectMatcher.isRegistered(target, in: $0.redirectURIs) })
    {
      return errorPage(.invalidPostLogoutRedirect(target), locale: locale)
    }
    await flows.endSession(request.cookies[Self.sessionCookie]?.value)
    let text = PageText.forLocale(locale)
    var response =
      target.map { AuthorizeAnswer.answer(to: $0, mode: .query, [("state", query["state"])]) }
      ?? html(.message(title: text.signedOutTitle, text: text.signedOut, locale: locale))
    response.setCookie(
      Cookie(name: Self.sessionCookie, value: "", maxAge: 0, path: "/", httpOnly: true, sameSite: .lax))
    return response
  }

  // MARK: Helpers

  /// The policy of the request: the path segment in the path form, else `p`; the tenant must be ours. Flavors
  /// without policies run the sign-up-or-sign-in flow.
  private func policy(_ request: Request, _ context: ServiceRequestContext) throws -> (PolicyKind, String) {
    let tenant = context.parameters.get("tenant") ?? ""
    if configuration.flavor == .openID { return (.signUpOrSignIn, configuration.policies.signUpOrSignIn) }
    guard configuration.isTenant(tenant) else { throw B2CError.unknownTenant(tenant) }
    if configuration.flavor == .externalID { return (.signUpOrSignIn, configuration.policies.signUpOrSignIn) }
    let name = context.parameters.get("policy") ?? FormFields(request.uri.query)["p"] ?? ""
    guard !name.isEmpty else { throw B2CError.missingParameter("p") }
    guard let kind = configuration.policies.kind(of: name) else {
      throw B2CError.unknownPolicy(name, tenant: tenant)
    }
    return (kind, configuration.policies.name(of: kind))
  }

  private func formContext(_ auth: AuthorizeRequest, _ tx: String) -> FormContext {
    FormContext(
      action: "/\(configuration.tenantDomain)/\(auth.policyName)/SelfAsserted", transaction: tx, locale: auth.locale,
      offersPasswordReset: configuration.flavor.hasPolicies)
  }

  /// Runs a page-producing handler; a `B2CError` becomes B2C's error page instead of a bare status.
  private func respond(
    _ request: Request, _ context: ServiceRequestContext, _ body: () async throws -> Response
  ) async throws -> Response {
    do {
      return try await body()
    } catch let error as B2CError {
      let query = FormFields(request.uri.query)
      return errorPage(
        error,
        locale: PageLocale.negotiate(uiLocales: query["ui_locales"], acceptLanguage: request.headers[.acceptLanguage]))
    }
  }

  private func errorPage(_ error: B2CError, locale: PageLocale) -> Response {
    let text = PageText.forLocale(locale)
    var response = html(
      .message(
        title: text.errorTitle, text: "\(error.code): \(error.message)", detail: error.description, locale: locale))
    response.status = HTTPResponse.Status(code: error.status)
    return response
  }

  private func html(_ page: Page) -> Response {
    Response(
      status: .ok,
      headers: [
        .contentType: "text/html; charset=utf-8", .cacheControl: "no-store", .init("X-Frame-Options")!: "DENY",
      ],
      body: ResponseBody(byteBuffer: ByteBuffer(string: page.html)))
  }
}

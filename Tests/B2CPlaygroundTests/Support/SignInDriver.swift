// SignInDriver: walks the playground's pages as a person in a browser would, and redeems what comes back.

import Crypto
import Foundation
import TasksTestSupport
import Testing

/// An authorize request as an app would build it, with a fresh PKCE verifier, state and nonce.
struct AuthorizeParameters {
  var clientID = PlaygroundHarness.clientID
  var redirectURI = PlaygroundHarness.oob
  var scope = "openid offline_access \(PlaygroundHarness.clientID)"
  var state = UUID().uuidString
  var nonce = UUID().uuidString
  var verifier = (0..<2).map { _ in UUID().uuidString.replacingOccurrences(of: "-", with: "") }.joined()
  var challengeMethod: String? = "S256"
  var responseType = "code"
  var extra: [(String, String)] = []

  var challenge: String {
    challengeMethod == "S256"
      ? Data(SHA256.hash(data: Data(verifier.utf8))).base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
      : verifier
  }

  func url(_ endpoint: URL) -> URL {
    var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)!
    var items = components.queryItems ?? []
    items += [
      URLQueryItem(name: "client_id", value: clientID), URLQueryItem(name: "response_type", value: responseType),
      URLQueryItem(name: "redirect_uri", value: redirectURI), URLQueryItem(name: "scope", value: scope),
      URLQueryItem(name: "state", value: state), URLQueryItem(name: "nonce", value: nonce),
    ]
    if let challengeMethod {
      items += [
        URLQueryItem(name: "code_challenge", value: challenge),
        URLQueryItem(name: "code_challenge_method", value: challengeMethod),
      ]
    }
    items += extra.map { URLQueryItem(name: $0.0, value: $0.1) }
    components.queryItems = items
    // URLComponents leaves "+" alone in queries; a form decoder would read it as a space.
    components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
    return components.url!
  }
}

/// Walks sign-in flows against a harness with one browser.
struct SignInDriver {
  let harness: PlaygroundHarness
  let browser: Browser

  init(_ harness: PlaygroundHarness, browser: Browser = Browser()) {
    self.harness = harness
    self.browser = browser
  }

  /// Opens the authorize URL; answers the page (200) or the redirect (302).
  func open(_ parameters: AuthorizeParameters, policy: String = PlaygroundHarness.signIn) async throws -> HTTPAnswer {
    try await browser.get(parameters.url(harness.endpoint("authorize", policy: policy)))
  }

  /// Submits the form on `page` with `fields` (besides `tx` and `step`).
  func submit(_ page: HTTPAnswer, _ fields: [(String, String)]) async throws -> HTTPAnswer {
    try #require(HTMLForm.hidden("tx", in: page.text) != nil, "no form on page: \(page.text.prefix(300))")
    let action = try #require(HTMLForm.action(in: page.text))
    return try await browser.post(
      harness.base.appending(path: action), form: HTMLForm.hiddenFields(in: page.text) + fields)
  }

  /// Follows the page's link with `id` (sign up, forgot password, cancel).
  func follow(_ id: String, on page: HTTPAnswer) async throws -> HTTPAnswer {
    let href = try #require(HTMLForm.link(id, in: page.text), "no link \(id)")
    return try await browser.get(URL(string: href, relativeTo: harness.base)!.absoluteURL)
  }

  /// Signs in with email and password on the sign-in page and returns the redirect to the app.
  func signIn(
    _ email: String, _ password: String, parameters: AuthorizeParameters = AuthorizeParameters(),
    policy: String = PlaygroundHarness.signIn
  ) async throws -> RedirectResult {
    let page = try await open(parameters, policy: policy)
    try #require(page.status == 200, "authorize answered \(page.status): \(page.text.prefix(300))")
    let answer = try await submit(page, [("email", email), ("password", password)])
    try #require(answer.status == 302, "sign-in answered \(answer.status): \(HTMLForm.error(in: answer.text) ?? "")")
    return RedirectResult(try #require(answer.location))
  }

  /// Redeems a code at the token endpoint of `policy`.
  func redeem(
    _ code: String, parameters: AuthorizeParameters, policy: String = PlaygroundHarness.signIn,
    extra: [(String, String)] = []
  ) async throws -> HTTPAnswer {
    try await browser.post(
      harness.endpoint("token", policy: policy),
      form: [
        ("grant_type", "authorization_code"), ("client_id", parameters.clientID), ("code", code),
        ("redirect_uri", parameters.redirectURI), ("code_verifier", parameters.verifier), ("scope", parameters.scope),
      ] + extra)
  }

  /// Uses a refresh token at the token endpoint of `policy`.
  func refresh(_ token: String, policy: String = PlaygroundHarness.signIn, extra: [(String, String)] = []) async throws
    -> HTTPAnswer
  {
    try await browser.post(
      harness.endpoint("token", policy: policy),
      form: [("grant_type", "refresh_token"), ("client_id", PlaygroundHarness.clientID), ("refresh_token", token)]
        + extra)
  }

  /// Signs in and redeems the code: the token response.
  func tokens(
    _ email: String = "ann@example.com", _ password: String = "Tasks-Demo-1",
    parameters: AuthorizeParameters = AuthorizeParameters()
  ) async throws -> [String: Any] {
    let redirect = try await signIn(email, password, parameters: parameters)
    let answer = try await redeem(try #require(redirect.code), parameters: parameters)
    try #require(answer.status == 200, "token endpoint answered \(answer.status): \(answer.text)")
    return try answer.json()
  }
}

// AuthorizationRequest: one authorize request with its secrets (PKCE verifier, state, nonce). Value type; any thread.

import Crypto
import FoundationEssentials

/// An authorize request for one policy: the URL to show, and what the answer must match.
///
/// The PKCE verifier stays here and goes only to the token endpoint; it is never logged, shown or written down.
public struct AuthorizationRequest: Sendable {
  /// The B2C policy the request runs; nil for a provider without policies.
  public let policy: String?
  /// The scopes asked for (the token request repeats them).
  public let scopes: [String]
  /// The URL to load in the web view or browser.
  public let url: URL
  /// The redirect URI sent (for the loopback flow, with the listener's port).
  public let redirectURI: RedirectURI
  /// The `state` sent; the redirect must carry it back.
  public let state: String
  /// The `nonce` sent; the id_token must carry it back.
  public let nonce: String
  /// The PKCE code verifier.
  let codeVerifier: String
  /// Where the code is redeemed.
  let tokenEndpoint: URL

  /// The kind of provider asked (B2C's error codes mean something only from B2C).
  public let provider: Authority.Provider
  /// Whether the request is shown in the system browser (not the app's web view): the provider's own session then
  /// lives there, and so must its sign-out.
  public internal(set) var inBrowser = false
  /// Whether the session this sign-in makes outlives the desktop session ("Keep me signed in").
  public internal(set) var keepSignedIn = true

  /// The interpreter that recognises this request's redirect.
  public var interpreter: RedirectInterpreter {
    RedirectInterpreter(redirectURI: redirectURI, expectedState: state, provider: provider)
  }

  /// Builds an authorize request to `authorizeEndpoint` whose code is redeemed at `tokenEndpoint`:
  /// `response_type=code`, `scopes` (by default the settings' with `offline_access`), `response_mode=query`,
  /// `state`, `nonce`, PKCE S256, `ui_locales`, and `prompt` / `login_hint` when given.
  public init(
    settings: AppSettings, authorizeEndpoint: URL, tokenEndpoint: URL, policy: String?, scopes: [String]? = nil,
    redirectURI: RedirectURI? = nil,
    prompt: String? = nil, loginHint: String? = nil, uiLocales: String? = UILocales.fromEnvironment()
  ) {
    self.policy = policy
    provider = settings.authority.provider
    self.scopes = scopes ?? settings.scopes(offlineAccess: true)
    self.tokenEndpoint = tokenEndpoint
    self.redirectURI = redirectURI ?? settings.redirectURI
    state = RandomToken.make()
    nonce = RandomToken.make()
    codeVerifier = RandomToken.make(bytes: 32)
    let challenge = PKCEChallenge.s256(codeVerifier)
    var items = [
      URLQueryItem(name: "client_id", value: settings.clientID),
      URLQueryItem(name: "response_type", value: "code"),
      URLQueryItem(name: "redirect_uri", value: self.redirectURI.value),
      URLQueryItem(name: "response_mode", value: "query"),
      URLQueryItem(name: "scope", value: self.scopes.joined(separator: " ")),
      URLQueryItem(name: "state", value: state),
      URLQueryItem(name: "nonce", value: nonce),
      URLQueryItem(name: "code_challenge", value: challenge),
      URLQueryItem(name: "code_challenge_method", value: "S256"),
    ]
    if let prompt { items.append(URLQueryItem(name: "prompt", value: prompt)) }
    if let loginHint, !loginHint.isEmpty { items.append(URLQueryItem(name: "login_hint", value: loginHint)) }
    if let uiLocales, !uiLocales.isEmpty { items.append(URLQueryItem(name: "ui_locales", value: uiLocales)) }
    var components = URLComponents(url: authorizeEndpoint, resolvingAgainstBaseURL: false) ?? URLComponents()
    components.queryItems = (components.queryItems ?? []) + items
    // URLComponents leaves "+" alone, which B2C would read as a space.
    components.percentEncodedQuery = components.percentEncodedQuery?.replacing("+", with: "%2B")
    url = components.url ?? authorizeEndpoint
  }
}

/// Random URL-safe tokens for state, nonce and PKCE verifiers (and the loopback listener's one-time start path).
public enum RandomToken {
  /// `bytes` random bytes as base64url (32 bytes give a 43-character PKCE verifier).
  public static func make(bytes: Int = 24) -> String {
    var generator = SystemRandomNumberGenerator()
    return Data((0..<bytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64URLEncodedString()
  }
}

/// RFC 7636 S256 challenges.
enum PKCEChallenge {
  static func s256(_ verifier: String) -> String {
    Data(SHA256.hash(data: Data(verifier.utf8))).base64URLEncodedString()
  }
}

/// The desktop language as B2C's `ui_locales` wants it (`de-DE`), from `LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`.
public enum UILocales {
  /// The first language the environment names, as a BCP 47 tag; nil for the C/POSIX locale.
  public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
    for name in ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"] {
      guard let value = environment[name], !value.isEmpty else { continue }
      let first = value.split(separator: ":").first.map(String.init) ?? value
      let tag = first.split(separator: ".").first.map(String.init) ?? first
      let bare = tag.split(separator: "@").first.map(String.init) ?? tag
      if bare == "C" || bare == "POSIX" { return nil }
      return bare.replacing("_", with: "-")
    }
    return nil
  }
}

extension Data {
  /// Base64url without padding.
  func base64URLEncodedString() -> String {
    base64EncodedString().replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
  }

  /// Decodes base64url with or without padding.
  init?(base64URLEncoded text: String) {
    var base64 = text.replacing("-", with: "+").replacing("_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    self.init(base64Encoded: base64)
  }
}

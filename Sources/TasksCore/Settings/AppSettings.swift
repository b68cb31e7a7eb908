// AppSettings: what the app needs to know about its B2C tenant and task API. Value type; any thread.

import FoundationEssentials

/// The settings of a B2C Tasks app: which tenant and policies to sign in with, how, and where the task API is.
///
/// Read from a property list in the iOS sample's `settings.plist` shape (PROTOCOL.md §1), the newer B2C shape with an
/// authority host, tenant and policy names, or an `authority` URL naming an External ID tenant or any OpenID Connect
/// issuer; see `AppSettings.load(from:)`. The sample's keys the app has no use for (`accountIdentifier`, `loginURL`) are
/// ignored, as any unknown key is.
public struct AppSettings: Sendable, Equatable {
  /// Which token the task API receives as its bearer.
  public enum BearerToken: String, Sendable {
    /// The access token issued for the app's own scope (the default).
    case accessToken = "access_token"
    /// The id_token, as the original sample sent it.
    case idToken = "id_token"
  }

  /// The application (client) id registered in the tenant; also asked for as a scope.
  public var clientID: String
  /// The single-sign-on group: apps naming the same group share one sign-in (the sample's `keychain`).
  public var keychainGroup: String
  /// Who signs the user in: a B2C tenant, an External ID tenant or an OpenID Connect issuer.
  public var authority: Authority
  /// The user flows (policies) the app runs; B2C only, nil for other providers.
  public var policies: Policies?
  /// Where B2C sends the browser back to when a sign-in ends.
  public var redirectURI: RedirectURI
  /// Scopes asked for besides `openid`, `offline_access` and (B2C) `<clientID>`: those the settings name.
  public var extraScopes: [String]
  /// Scopes asked for only where the provider's discovery document lists them (or lists none): the defaults of
  /// settings that name no scopes (`profile email`, for a name and an address to show, from a provider without
  /// policies). A provider configured without them refuses a request for them with `invalid_scope`.
  public var defaultScopes: [String]
  /// Which token the task API receives.
  public var bearerToken: BearerToken
  /// The base URL of the task API (`/api/tasks` is appended).
  public var taskAPI: URL

  /// Creates settings from parts; `AppSettings.load(from:)` validates files into this shape.
  public init(
    clientID: String, keychainGroup: String, authority: Authority,
    policies: Policies?, redirectURI: RedirectURI, extraScopes: [String] = [], defaultScopes: [String] = [],
    bearerToken: BearerToken = .accessToken, taskAPI: URL
  ) {
    self.clientID = clientID
    self.keychainGroup = keychainGroup
    self.authority = authority
    self.policies = policies
    self.redirectURI = redirectURI
    self.extraScopes = extraScopes
    self.defaultScopes = defaultScopes
    self.bearerToken = bearerToken
    self.taskAPI = taskAPI
  }

  /// The sign-in policy (B2C), or nil for a provider without policies.
  public var signInPolicy: String? { policies?.signIn }

  /// The scopes every request asks for: `openid`; `offline_access` for a refresh token where the provider offers it
  /// (B2C always does); for B2C the client id, without which it issues no access token for the app's own API; then
  /// the configured extras; the default scopes those of `supported` (the discovery document's `scopes_supported`;
  /// nil when it lists none).
  public func scopes(offlineAccess: Bool, supported: [String]? = nil) -> [String] {
    var scopes = ["openid"]
    if offlineAccess || authority.hasPolicies { scopes.append("offline_access") }
    if authority.hasPolicies { scopes.append(clientID) }
    let defaults = defaultScopes.filter { supported?.contains($0) ?? true }
    for scope in extraScopes + defaults where !scopes.contains(scope) { scopes.append(scope) }
    return scopes
  }
}

/// The user-flow (policy) names of a tenant, e.g. `B2C_1_SignUpOrSignIn`.
///
/// B2C compares policy names case-insensitively; they are kept as written.
public struct Policies: Sendable, Equatable {
  /// Sign-up-or-sign-in (or sign-in only) policy.
  public var signIn: String
  /// Password-reset policy, run when a sign-in page answers `AADB2C90118`.
  public var passwordReset: String?
  /// Profile-editing policy.
  public var editProfile: String?

  /// Creates a set of policy names.
  public init(signIn: String, passwordReset: String? = nil, editProfile: String? = nil) {
    self.signIn = signIn
    self.passwordReset = passwordReset
    self.editProfile = editProfile
  }
}

// PlaygroundConfiguration: what the playground serves: tenant, clients, policies, lifetimes. Value type; any thread.

import Foundation

/// The settings of a playground: one tenant with its registered clients, user flows and token lifetimes.
public struct PlaygroundConfiguration: Sendable {
  /// A registered application.
  public struct Client: Sendable, Equatable {
    /// The application (client) id.
    public var id: String
    /// Registered redirect URIs; a loopback `http` URI matches on any port.
    public var redirectURIs: [String]

    /// Creates a client registration.
    public init(id: String, redirectURIs: [String]) {
      self.id = id
      self.redirectURIs = redirectURIs
    }
  }

  /// The names of the tenant's user flows; B2C compares them case-insensitively.
  public struct Policies: Sendable, Equatable {
    /// Sign-up-or-sign-in.
    public var signUpOrSignIn = "B2C_1_SignUpOrSignIn"
    /// Password reset.
    public var passwordReset = "B2C_1_PasswordReset"
    /// Profile editing.
    public var editProfile = "B2C_1_EditProfile"

    /// Creates the default policy names.
    public init() {}

    /// The kind of user flow `name` is, if it is one of the tenant's.
    public func kind(of name: String) -> PolicyKind? {
      switch name.lowercased() {
      case signUpOrSignIn.lowercased(): return .signUpOrSignIn
      case passwordReset.lowercased(): return .passwordReset
      case editProfile.lowercased(): return .editProfile
      default: return nil
      }
    }

    /// The configured name of a kind of user flow.
    public func name(of kind: PolicyKind) -> String {
      switch kind {
      case .signUpOrSignIn: return signUpOrSignIn
      case .passwordReset: return passwordReset
      case .editProfile: return editProfile
      }
    }
  }

  /// Token and session lifetimes, in seconds.
  public struct Lifetimes: Sendable, Equatable {
    /// Access tokens (B2C default 60 minutes).
    public var accessToken = 3600
    /// ID tokens (B2C default 60 minutes).
    public var idToken = 3600
    /// Refresh tokens (B2C default 14 days).
    public var refreshToken = 14 * 86400
    /// The sliding window after which a refresh-token family ends, however often it was used (default 90 days).
    public var refreshSlidingWindow = 90 * 86400
    /// Authorization codes (about 10 minutes).
    public var authorizationCode = 600
    /// The web session (SSO cookie).
    public var webSession = 86400

    /// Creates B2C's default lifetimes.
    public init() {}
  }

  /// A real B2C tenant whose tokens the task API accepts instead of the playground's own.
  public struct ExternalTenant: Sendable, Equatable {
    /// The policy's OpenID Connect metadata document.
    public var metadataURL: URL
    /// The expected `aud` (the tenant's client id of the app).
    public var audience: String

    /// Creates an external-tenant setting.
    public init(metadataURL: URL, audience: String) {
      self.metadataURL = metadataURL
      self.audience = audience
    }
  }

  /// The client id the app's built-in settings use.
  public static let appClientID = "6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f10"

  /// Which identity provider the playground plays (B2C by default).
  public var flavor = Flavor.b2c
  /// The address to listen on (loopback by default).
  public var host = "127.0.0.1"
  /// The port; 0 picks a free one.
  public var port = 5995
  /// Where the signing key and the database live.
  public var dataDirectory: URL
  /// The tenant's short name: `b2ctasks` is `b2ctasks.onmicrosoft.com`.
  public var tenantName = "b2ctasks"
  /// The tenant's id, which B2C's issuer names.
  public var tenantID = "5b6e1c9a-2f4d-4e7b-9c3a-1d8f0e2b7a64"
  /// Registered applications.
  public var clients: [Client] = [
    Client(
      id: PlaygroundConfiguration.appClientID,
      redirectURIs: [
        "urn:ietf:wg:oauth:2.0:oob", "http://127.0.0.1/", "http://localhost/",
        "io.github.b2ctasks.b2ctasks://oauth/redirect",
      ])
  ]
  /// User-flow names.
  public var policies = Policies()
  /// Lifetimes.
  public var lifetimes = Lifetimes()
  /// Whether authorize requests must carry a PKCE `code_challenge`.
  public var requirePKCE = false
  /// Allowed clock difference when checking token lifetimes, in seconds.
  public var clockSkew = 300
  /// Whether to create the demo accounts on first start.
  public var seedDemoAccounts = true
  /// bcrypt cost for password hashes.
  public var passwordHashCost: UInt8 = 10
  /// Whether token responses carry numbers as JSON strings (as some B2C versions did) instead of integers.
  public var numbersAsStrings = false
  /// A real tenant to validate task-API tokens against, instead of the playground's own keys.
  public var externalTenant: ExternalTenant?
  /// The largest request body accepted, in bytes.
  public var maxRequestBytes = 64 * 1024
  /// The URL the playground is reached at, when not `http(s)://HOST:PORT` (behind a proxy, or a name in a TLS
  /// certificate): its issuer and endpoints name it.
  public var publicURL: URL?
  /// Further `Host` names to answer besides loopback names, the address listened on and `publicURL`'s host.
  public var allowedHosts: [String] = []
  /// A certificate chain and private key (PEM files) to serve https with; nil serves http.
  public var tls: TLSFiles?
  /// Delivers the mail B2C would send (the password-reset code to `to`). By default it is written to standard output,
  /// the playground's terminal being the mailbox — never to the log, which keeps no secret.
  /// (The six-digit reset code is the mail's content, printed on purpose; no OAuth code or token is ever printed.)
  public var mailbox: @Sendable (_ to: String, _ resetCode: String) -> Void = { to, resetCode in
    FileHandle.standardOutput.write(Data("Mail to \(to): your password reset code is \(resetCode)\n".utf8))
  }

  /// The PEM files of a TLS server identity.
  public struct TLSFiles: Sendable, Equatable {
    /// The certificate chain, leaf first.
    public var certificate: URL
    /// The private key.
    public var key: URL

    /// Names the two files.
    public init(certificate: URL, key: URL) {
      self.certificate = certificate
      self.key = key
    }
  }

  /// Creates a configuration with defaults, keeping its files in `dataDirectory`.
  public init(dataDirectory: URL) {
    self.dataDirectory = dataDirectory
  }

  /// `b2ctasks.onmicrosoft.com`.
  public var tenantDomain: String { "\(tenantName).onmicrosoft.com" }

  /// Whether `name` names this tenant: its domain, short name or id (case-insensitively).
  public func isTenant(_ name: String) -> Bool {
    let name = name.lowercased()
    return name == tenantDomain.lowercased() || name == tenantName.lowercased() || name == tenantID.lowercased()
  }

  /// The registered client with `id`.
  public func client(_ id: String) -> Client? {
    clients.first { $0.id.lowercased() == id.lowercased() }
  }
}

/// The three kinds of user flow a B2C tenant of this app has.
public enum PolicyKind: String, Sendable, CaseIterable {
  /// Sign up or sign in.
  case signUpOrSignIn
  /// Reset a forgotten password.
  case passwordReset
  /// Change the display name.
  case editProfile
}

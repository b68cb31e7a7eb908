// TokenSet and Account: what a signed-in session holds, as stored in the keyring. Value types; any thread.

import FoundationEssentials

/// The signed-in user, from the id_token.
public struct Account: Codable, Equatable, Sendable {
  /// The object id (`oid`, else `sub`): the task API's owner.
  public var objectID: String
  /// The display name (`name`).
  public var displayName: String
  /// The first of `emails`, if any.
  public var email: String?

  /// "Ann Example <ann@example.com>", or the name alone: who is meant, said plainly.
  public var nameAndEmail: String { email.map { "\(displayName) <\($0)>" } ?? displayName }

  /// Creates an account.
  public init(objectID: String, displayName: String, email: String?) {
    self.objectID = objectID
    self.displayName = displayName
    self.email = email
  }
}

/// The tokens of one session. Stored only in the keyring, as JSON; never in files or logs.
public struct TokenSet: Codable, Equatable, Sendable {
  /// The access token for the app's own scope.
  public var accessToken: String?
  /// When the access token expires.
  public var accessTokenExpiresOn: Date?
  /// The id_token.
  public var idToken: String
  /// When the id_token expires.
  public var idTokenExpiresOn: Date
  /// The refresh token, if offline access was granted.
  public var refreshToken: String?
  /// When the refresh token expires, if known.
  public var refreshTokenExpiresOn: Date?
  /// The B2C policy the tokens were issued under (refresh tokens work only there); nil for other providers.
  public var policy: String?
  /// Who signed in.
  public var account: Account
  /// Whether the sign-in happened in the system browser (the provider's session lives there); nil in sessions
  /// stored by earlier versions, which signed in in the app's web view.
  public var signedInWithBrowser: Bool?
  /// Whether the user asked to stay signed in ("Keep me signed in"): the session then rests in the keyring's login
  /// collection and outlives the desktop session; otherwise in its session collection, gone at log-out. nil in
  /// sessions stored by earlier versions, which are kept.
  public var keptSignedIn: Bool?

  /// Whether the session outlives the desktop session (see `keptSignedIn`).
  public var isKept: Bool { keptSignedIn ?? true }

  /// Creates a token set.
  public init(
    accessToken: String?, accessTokenExpiresOn: Date?, idToken: String, idTokenExpiresOn: Date, refreshToken: String?,
    refreshTokenExpiresOn: Date?, policy: String?, account: Account
  ) {
    self.accessToken = accessToken
    self.accessTokenExpiresOn = accessTokenExpiresOn
    self.idToken = idToken
    self.idTokenExpiresOn = idTokenExpiresOn
    self.refreshToken = refreshToken
    self.refreshTokenExpiresOn = refreshTokenExpiresOn
    self.policy = policy
    self.account = account
  }

  /// The bearer the task API receives, and when it expires.
  public func bearer(_ kind: AppSettings.BearerToken) -> (token: String, expiresOn: Date)? {
    switch kind {
    case .accessToken:
      guard let accessToken, let accessTokenExpiresOn else { return nil }
      return (accessToken, accessTokenExpiresOn)
    case .idToken:
      return (idToken, idTokenExpiresOn)
    }
  }

  /// The JSON stored in the keyring.
  public func encoded() -> String {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    encoder.outputFormatting = .sortedKeys
    return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }

  /// Reads the JSON stored in the keyring; nil when it is not a token set (another version, damage).
  public static func decoded(_ text: String) -> TokenSet? {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    return try? decoder.decode(TokenSet.self, from: Data(text.utf8))
  }
}

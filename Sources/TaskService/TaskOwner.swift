// TaskOwner: who a task belongs to, as the task API's databases key it. Value type.

/// A user of one issuer. OpenID Connect Core §5.7: only `iss` and `sub` together identify a user — two issuers may
/// give the same subject to different people — so the databases key tasks, list versions and idempotency keys by
/// both. The subject is the token's `oid` (B2C's and Entra's object id), else its `sub`.
///
/// B2C's policies of one tenant share one `iss`, so a user's tasks are the same under every policy.
public struct TaskOwner: Hashable, Sendable {
  /// The issuer of the user's tokens (`iss`), or `local` for the playground's own tokens (one issuer, whatever port
  /// it is reached at).
  public let issuer: String
  /// The user's id at that issuer.
  public let subject: String

  /// The issuer of the playground's own tokens, as owners name it.
  public static let localIssuer = "local"

  public init(issuer: String, subject: String) {
    self.issuer = issuer
    self.subject = subject
  }

  /// The owner as the databases keep it: the issuer, a space, the subject. An issuer is a URL (or `local`), which
  /// never holds a space; a key without one is a row from before owners named their issuer (`qualifyLegacyOwners`).
  public var key: String { issuer + " " + subject }

  /// The subject of a stored key (what the API shows as a task's `Owner`, as the original did).
  static func subject(ofKey key: String) -> Substring {
    guard let space = key.utf8.firstIndex(of: 0x20) else { return Substring(key) }
    return key[key.utf8.index(after: space)...]
  }
}

// SessionStore: where sessions rest (the desktop keyring), as the core sees it. Protocol; Sendable.

import FoundationEssentials

/// Names a session in the store: apps with the same keychain group, client id, provider, authority and tenant share it
/// (single sign-on across apps); sessions of different providers never mix.
public struct SessionKey: Hashable, Sendable {
  /// The SSO group (the sample's `keychain` setting).
  public var keychainGroup: String
  /// The app registration.
  public var clientID: String
  /// The kind of provider.
  public var provider: Authority.Provider
  /// `https://host[:port]` of the authority.
  public var authority: String
  /// The tenant (B2C, External ID) or the issuer's path (OpenID Connect).
  public var tenant: String
  /// The B2C sign-in policy; nil for other providers.
  public var policy: String?

  /// The key of the settings' sign-in session.
  public init(_ settings: AppSettings) {
    keychainGroup = settings.keychainGroup
    clientID = settings.clientID.lowercased()
    provider = settings.authority.provider
    authority = settings.authority.origin
    // An issuer's path is compared as written (Discovery §4.3); Microsoft's tenant names are not case-sensitive.
    tenant = provider == .openID ? settings.authority.tenantName : settings.authority.tenantName.lowercased()
    policy = settings.signInPolicy?.lowercased()
  }

  /// A stable file-name-safe digest of the keychain group alone: what every session of the group shares (the lock
  /// that every write of any of them takes, as a sign-out removes them all).
  public var groupDigest: String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: a name, not a secret
    for byte in keychainGroup.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return String(hash, radix: 16)
  }

  /// A stable file-name-safe digest of the key, for per-session files.
  public var digest: String {
    // B2C's digest is the one earlier versions used (no provider), so their refresh locks stay the same.
    let parts = [keychainGroup, clientID, authority, tenant, policy ?? provider.rawValue]
    let text = parts.joined(separator: "\u{1F}")
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: a name, not a secret
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return String(hash, radix: 16)
  }
}

/// Keeps token sets. The keyring is the only implementation the apps use: tokens never rest anywhere else.
public protocol SessionStore: Sendable {
  /// The session stored under `key`, if any.
  func load(_ key: SessionKey) async throws(KeyringError) -> TokenSet?
  /// Stores `tokens` under `key`, replacing the session of the same account; a session of another account in the
  /// same group is removed first.
  func save(_ tokens: TokenSet, under key: SessionKey) async throws(KeyringError)
  /// Removes every session of `key`'s keychain group (sign-out for all apps of the group).
  func removeGroup(of key: SessionKey) async throws(KeyringError)
}

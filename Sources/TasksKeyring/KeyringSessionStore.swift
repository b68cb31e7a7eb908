// KeyringSessionStore: sessions in the desktop keyring under the `io.github.b2ctasks.Session` schema. Sendable.

import CSecret
import FoundationEssentials
import TasksCore

/// The apps' session store: one keyring item per session, its attributes naming the keychain group, client id,
/// provider, authority, tenant, policy (B2C) and the user's object id; the secret is the token set as JSON.
///
/// Any app of ours with the same group, client id, authority and tenant finds the item (single sign-on). There is
/// no plaintext fallback: without a usable keyring every call throws.
public struct KeyringSessionStore: SessionStore {
  private let secrets: SecretStore
  /// Whether reading the session may raise the keyring's unlock prompt (a window's or the terminal's); a process
  /// with no window passes false, and a locked keyring is then `KeyringError.locked` at once.
  private let prompting: Bool

  /// Creates a store over the session keyring.
  public init(secrets: SecretStore = SecretStore(), prompting: Bool = true) {
    self.secrets = secrets
    self.prompting = prompting
  }

  /// Attributes that find the session of `key`, whoever is signed in.
  ///
  /// A B2C session is found by its policy (items of earlier versions carry no `provider`); any other by its
  /// `provider`, which B2C items never share. So sessions of different providers never mix.
  static func attributes(_ key: SessionKey) -> [String: String] {
    var attributes = [
      B2C_ATTRIBUTE_KEYCHAIN_GROUP: key.keychainGroup, B2C_ATTRIBUTE_CLIENT_ID: key.clientID,
      B2C_ATTRIBUTE_AUTHORITY: key.authority, B2C_ATTRIBUTE_TENANT: key.tenant, B2C_ATTRIBUTE_KIND: "session",
    ]
    if let policy = key.policy {
      attributes[B2C_ATTRIBUTE_POLICY] = policy
    } else {
      attributes[B2C_ATTRIBUTE_PROVIDER] = key.provider.rawValue
    }
    return attributes
  }

  /// The session stored for `key`'s group, client, authority, tenant and policy, whoever signed in.
  public func load(_ key: SessionKey) async throws(KeyringError) -> TokenSet? {
    guard let secret = try await secrets.lookup(Self.attributes(key), unlocking: prompting) else { return nil }
    return TokenSet.decoded(secret)
  }

  /// Stores `tokens`, replacing the same user's item in place (rotation is one atomic replace); another user's
  /// session in the group is removed first. A kept session ("Keep me signed in") rests in the login collection,
  /// any other in the session collection (still shared by the group's apps, gone when the desktop session ends);
  /// the item says which (`kept`), and the same session left in the other collection is removed after the store.
  public func save(_ tokens: TokenSet, under key: SessionKey) async throws(KeyringError) {
    var attributes = Self.attributes(key)
    if let stored = try await load(key), stored.account.objectID != tokens.account.objectID {
      try await secrets.clear(Self.attributes(key))  // another user signed in: one session per group
    }
    attributes[B2C_ATTRIBUTE_ACCOUNT] = tokens.account.objectID
    attributes[B2C_ATTRIBUTE_PROVIDER] = key.provider.rawValue
    let kept = tokens.isKept ? "yes" : "no"
    let label = "B2C Tasks sign-in (\(tokens.account.email ?? tokens.account.displayName))"
    try await secrets.store(
      tokens.encoded(), label: label, attributes: attributes.merging([B2C_ATTRIBUTE_KEPT: kept]) { _, new in new },
      in: tokens.isKept ? .login : .session)
    try await secrets.clear(attributes, unless: (B2C_ATTRIBUTE_KEPT, kept))
  }

  /// Removes every session of the keychain group, for all apps and users.
  public func removeGroup(of key: SessionKey) async throws(KeyringError) {
    try await secrets.clear([B2C_ATTRIBUTE_KEYCHAIN_GROUP: key.keychainGroup, B2C_ATTRIBUTE_KIND: "session"])
  }
}

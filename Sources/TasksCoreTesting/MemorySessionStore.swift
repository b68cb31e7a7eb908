// MemorySessionStore: a SessionStore in memory, for tests of the session's flows and refresh without a desktop.
// Actor.

import TasksCore

/// Keeps sessions in memory with the keyring's rules: one session per key (group, client, provider, authority,
/// tenant, policy), a new account replacing another's, and sign-out removing every session of the keychain group.
///
/// Sessions made over one instance share it as the apps of a keychain group share the keyring (single sign-on within
/// a test). Never used by the apps: tokens rest only in the keyring there.
public actor MemorySessionStore: SessionStore {
  private var sessions: [SessionKey: TokenSet] = [:]
  /// How many times a session was saved (sign-ins, refreshes, profile edits).
  public private(set) var saves = 0

  /// Creates an empty store.
  public init() {}

  /// The session stored under `key`, if any.
  public func load(_ key: SessionKey) async throws(KeyringError) -> TokenSet? {
    sessions[key]
  }

  /// Stores `tokens` under `key`, replacing whoever was signed in there.
  public func save(_ tokens: TokenSet, under key: SessionKey) async throws(KeyringError) {
    sessions[key] = tokens
    saves += 1
  }

  /// Removes every session of `key`'s keychain group.
  public func removeGroup(of key: SessionKey) async throws(KeyringError) {
    sessions = sessions.filter { $0.key.keychainGroup != key.keychainGroup }
  }
}

// SecretStore: secrets in the desktop keyring through libsecret. Sendable; libsecret's blocking calls run one after
// another on a thread of their own, never on the caller's thread (the GTK main thread must not wait on D-Bus).

import CSecret
import TasksCore

/// Stores, finds and removes secrets in the desktop keyring (the Secret Service: GNOME Keyring, KWallet…),
/// under B2C Tasks' session schema (`io.github.b2ctasks.Session`).
///
/// Attributes name an item; a look-up or removal with fewer attributes matches every item that has them, which is
/// how a sign-out clears a whole keychain group. There is no plaintext fallback: when the keyring cannot be used,
/// every call throws a `KeyringError`.
public final class SecretStore: Sendable {
  /// Creates a store.
  public init() {}

  /// Where an item rests.
  public enum Collection: Sendable {
    /// The default (login) collection: kept on disk, unlocked with the desktop login.
    case login
    /// The session collection: in memory, gone when the desktop session ends.
    case session
  }

  /// Connects to the keyring and opens its encrypted session (a key exchange, milliseconds of work on both sides)
  /// on the store's thread now, so that the first call that follows finds them ready; a program calls it as it
  /// starts, before it has read what it needs to ask. Unlocks nothing and raises no prompt; a failure is left to
  /// that first call to meet and report.
  public static func prepare() {
    KeyringThread.shared.run { b2c_secret_prepare() }
  }

  /// Stores `secret` under `attributes` in `collection`, replacing an item there with exactly these attributes.
  public func store(
    _ secret: String, label: String, attributes: [String: String], in collection: Collection = .login
  ) async throws(KeyringError) {
    try await run { () throws(KeyringError) in
      var error: UnsafeMutablePointer<GError>?
      let table = hashTable(attributes)
      defer { g_hash_table_unref(table) }
      let alias = collection == .login ? SECRET_COLLECTION_DEFAULT : SECRET_COLLECTION_SESSION
      let stored = secret_password_storev_sync(b2c_session_schema(), table, alias, label, secret, nil, &error)
      if let error { throw KeyringError(consuming: error) }
      guard stored != 0 else { throw KeyringError(.failed) }
    }
  }

  /// The secret of the first item matching `attributes`, or nil when none matches. With `unlocking` false (a
  /// process with no window, which must never raise the keyring's unlock prompt), an item whose keyring is locked
  /// throws `.locked` at once.
  public func lookup(_ attributes: [String: String], unlocking: Bool = true) async throws(KeyringError) -> String? {
    if !unlocking { return try await lookupWithoutUnlocking(attributes) }
    return try await run { () throws(KeyringError) in
      var error: UnsafeMutablePointer<GError>?
      let table = hashTable(attributes)
      defer { g_hash_table_unref(table) }
      let secret = secret_password_lookupv_sync(b2c_session_schema(), table, nil, &error)
      if let error { throw KeyringError(consuming: error) }
      guard let secret else {
        // libsecret answers "nothing" too when the item is there but its keyring stayed locked (the unlock prompt
        // was dismissed, or could not be shown). That is not a sign-out: look without unlocking.
        if try itemExists(table) { throw KeyringError(.locked) }
        return nil
      }
      defer { secret_password_free(secret) }  // wipes the copy before freeing it
      return String(cString: secret)
    }
  }

  /// `lookup` that never unlocks: a search that loads secrets only of unlocked items.
  private func lookupWithoutUnlocking(_ attributes: [String: String]) async throws(KeyringError) -> String? {
    try await run { () throws(KeyringError) in
      var error: UnsafeMutablePointer<GError>?
      let table = hashTable(attributes)
      defer { g_hash_table_unref(table) }
      let items = secret_password_searchv_sync(b2c_session_schema(), table, SECRET_SEARCH_NONE, nil, &error)
      if let error { throw KeyringError(consuming: error) }
      defer { g_list_free_full(items, g_object_unref) }
      guard let data = items?.pointee.data else { return nil }
      // With the Secret Service, what a search finds is a SecretItem; libsecret's file backend (a sandbox) has no
      // lock to wait for, and no prompt: its secret is read as any lookup reads it.
      guard
        g_type_check_instance_is_a(data.assumingMemoryBound(to: GTypeInstance.self), secret_item_get_type()) != 0
      else {
        let secret = secret_password_lookupv_sync(b2c_session_schema(), table, nil, &error)
        if let error { throw KeyringError(consuming: error) }
        guard let secret else { throw KeyringError(.locked) }
        defer { secret_password_free(secret) }
        return String(cString: secret)
      }
      let item = data.assumingMemoryBound(to: SecretItem.self)
      if secret_item_get_locked(item) != 0 { throw KeyringError(.locked) }
      secret_item_load_secret_sync(item, nil, &error)
      if let error { throw KeyringError(consuming: error) }
      guard let value = secret_item_get_secret(item) else { throw KeyringError(.locked) }
      defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
      guard let text = secret_value_get_text(value) else { return nil }
      return String(cString: text)
    }
  }

  /// Removes every item matching `attributes`; answers whether any was removed.
  @discardableResult
  public func clear(_ attributes: [String: String]) async throws(KeyringError) -> Bool {
    try await run { () throws(KeyringError) in
      var error: UnsafeMutablePointer<GError>?
      let table = hashTable(attributes)
      defer { g_hash_table_unref(table) }
      let removed = secret_password_clearv_sync(b2c_session_schema(), table, nil, &error)
      if let error { throw KeyringError(consuming: error) }
      return removed != 0
    }
  }

  /// Removes every item matching `attributes` except those whose attribute `kept.name` is `kept.value` (an item
  /// without that attribute is removed).
  public func clear(_ attributes: [String: String], unless kept: (name: String, value: String))
    async throws(KeyringError)
  {
    try await run { () throws(KeyringError) in
      var error: UnsafeMutablePointer<GError>?
      let table = hashTable(attributes)
      defer { g_hash_table_unref(table) }
      let flags = SecretSearchFlags(SECRET_SEARCH_ALL.rawValue | SECRET_SEARCH_UNLOCK.rawValue)
      let items = secret_password_searchv_sync(b2c_session_schema(), table, flags, nil, &error)
      if let error { throw KeyringError(consuming: error) }
      defer { g_list_free_full(items, g_object_unref) }
      var node = items
      while let current = node {
        node = current.pointee.next
        // With the Secret Service, what a search finds is a SecretItem.
        guard let data = current.pointee.data,
          g_type_check_instance_is_a(data.assumingMemoryBound(to: GTypeInstance.self), secret_item_get_type()) != 0
        else { continue }
        let item = data.assumingMemoryBound(to: SecretItem.self)
        let found = secret_item_get_attributes(item)
        let value = g_hash_table_lookup(found, kept.name).map {
          String(cString: $0.assumingMemoryBound(to: CChar.self))
        }
        g_hash_table_unref(found)
        guard value != kept.value else { continue }
        secret_item_delete_sync(item, nil, &error)
        if let error { throw KeyringError(consuming: error) }
      }
    }
  }

  /// Runs a blocking libsecret call on the store's queue.
  private func run<Value: Sendable>(
    _ body: @escaping @Sendable () throws(KeyringError) -> Value
  ) async throws(KeyringError) -> Value {
    let result: Result<Value, KeyringError> = await withCheckedContinuation { continuation in
      KeyringThread.shared.run { continuation.resume(returning: Result(catching: body)) }
    }
    return try result.get()
  }
}

/// The thread libsecret's blocking calls run on, one after another: started at the first call, asleep on its queue
/// between calls. Not libdispatch's pool, whose monitor, once started, wakes the process every second for good (the
/// reminder service sleeps between reminders).
private final class KeyringThread: @unchecked Sendable {
  static let shared = KeyringThread()
  /// Retained `Job`s (a GAsyncQueue is thread-safe).
  private let queue: OpaquePointer

  private init() {
    queue = g_async_queue_new()
    let thread = g_thread_new(
      "b2c-keyring",
      { queue in
        while true {
          Unmanaged<Job>.fromOpaque(g_async_queue_pop(OpaquePointer(queue))!).takeRetainedValue().body()
        }
      }, UnsafeMutableRawPointer(queue))
    g_thread_unref(thread)  // it runs as long as the process
  }

  func run(_ body: @escaping @Sendable () -> Void) {
    g_async_queue_push(queue, Unmanaged.passRetained(Job(body)).toOpaque())
  }

  private final class Job {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
}

/// Whether an item matches `table`, locked or not (a search that neither unlocks nor reads secrets).
private func itemExists(_ table: OpaquePointer) throws(KeyringError) -> Bool {
  var error: UnsafeMutablePointer<GError>?
  let items = secret_password_searchv_sync(b2c_session_schema(), table, SECRET_SEARCH_NONE, nil, &error)
  if let error { throw KeyringError(consuming: error) }
  defer { g_list_free_full(items, g_object_unref) }
  return items != nil
}

/// A `GHashTable` of attribute strings, as libsecret's `…v` calls take them.
private func hashTable(_ attributes: [String: String]) -> OpaquePointer {
  let table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)!
  for (key, value) in attributes {
    g_hash_table_insert(table, g_strdup(key), g_strdup(value))
  }
  return table
}

extension KeyringError {
  /// Classifies and frees a libsecret or D-Bus error.
  init(consuming error: UnsafeMutablePointer<GError>) {
    defer { g_error_free(error) }
    let domain = error.pointee.domain
    let code = error.pointee.code
    let detail = String(cString: error.pointee.message)
    if domain == secret_error_get_quark() && code == Int32(SECRET_ERROR_IS_LOCKED.rawValue) {
      self.init(.locked, detail: detail)
    } else if domain == g_io_error_quark() && code == Int32(G_IO_ERROR_CANCELLED.rawValue) {
      self.init(.refused, detail: detail)
    } else if domain == g_dbus_error_quark() || domain == g_io_error_quark() {
      // No bus, no Secret Service on it, or the service went away.
      self.init(.unavailable, detail: detail)
    } else {
      self.init(.failed, detail: detail)
    }
  }
}

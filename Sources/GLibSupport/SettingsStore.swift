// SettingsStore: a GSettings schema's keys read, written, bound and watched from Swift. Main actor.

import CGio
import FoundationEssentials

/// The GSettings of one schema, looked up beside the program first (so an installation in any prefix works without
/// setting `XDG_DATA_DIRS`), then in the system's schema path. Owns its `GSettings`.
@MainActor
public final class SettingsStore {
  private let settings: UnsafeMutablePointer<GSettings>

  /// The settings of schema `id`, from `schemaDirectory` or the system's; nil when neither has it.
  public init?(schema id: String, schemaDirectory: URL) {
    let defaultSource = g_settings_schema_source_get_default()
    var error: UnsafeMutablePointer<GError>?
    let local = g_settings_schema_source_new_from_directory(
      schemaDirectory.path(percentEncoded: false), defaultSource, 0, &error)
    if let error { g_error_free(error) }
    guard let source = local ?? defaultSource else { return nil }
    defer { if local != nil { g_settings_schema_source_unref(local) } }
    guard let schema = g_settings_schema_source_lookup(source, id, 1) else { return nil }
    defer { g_settings_schema_unref(schema) }
    guard let settings = g_settings_new_full(schema, nil, nil) else { return nil }
    self.settings = settings
  }

  isolated deinit {
    g_object_unref(settings.gpointer)
  }

  /// The integer `key` (`i`).
  public func int(_ key: String) -> Int { Int(g_settings_get_int(settings, key)) }
  /// The unsigned integer `key` (`u`).
  public func uint(_ key: String) -> Int { Int(g_settings_get_uint(settings, key)) }
  /// The boolean `key` (`b`).
  public func bool(_ key: String) -> Bool { g_settings_get_boolean(settings, key) != 0 }

  /// The string `key` (`s`).
  public func string(_ key: String) -> String {
    let value = g_settings_get_string(settings, key)
    defer { g_free(value) }
    return value.map { String(cString: $0) } ?? ""
  }

  /// Writes the integer `key`.
  public func set(_ key: String, int value: Int) { g_settings_set_int(settings, key, Int32(clamping: value)) }
  /// Writes the boolean `key`.
  public func set(_ key: String, bool value: Bool) { g_settings_set_boolean(settings, key, value ? 1 : 0) }

  /// Writes what was set to disk now (before the program ends).
  public func sync() { g_settings_sync() }

  /// Keeps `property` of `object` and `key` equal, both ways.
  public func bind(_ key: String, to object: some GPointer, property: String) {
    g_settings_bind(settings, key, object.gpointer, property, G_SETTINGS_BIND_DEFAULT)
  }

  /// Adds to `map` (a `GActionMap`) a stateful action named after `key` that reads and writes it (a toggle for a
  /// boolean, a radio choice for a string with choices): menus show and change the setting without code.
  public func addAction(for key: String, to map: some GPointer) {
    let action = g_settings_create_action(settings, key)
    g_action_map_add_action(OpaquePointer(map.gpointer), action)
    action.map { g_object_unref($0.gpointer) }
  }

  /// Runs `handler` whenever `key` changes (here, from a menu, or from outside the program), and once now.
  public func watch(_ key: String, _ handler: @escaping @MainActor () -> Void) {
    Signal.connect(settings, "changed::" + key) { (_: UnsafeMutableRawPointer?) in handler() }
    handler()
  }
}

// WindowState: the window's size and maximised state, and the app's other GSettings. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport

/// Restores and saves a window's size and maximised state under the app's GSettings schema, and binds its other
/// keys ("Keep me signed in") to widgets.
///
/// The schema is looked up beside the program first (so an installation in any prefix works without setting
/// `XDG_DATA_DIRS`), then in the system's schema path; without a schema, window state is simply not kept.
@MainActor
final class WindowState {
  private let settings: UnsafeMutablePointer<GSettings>

  init?(schemaDirectory: URL) {
    let defaultSource = g_settings_schema_source_get_default()
    var error: UnsafeMutablePointer<GError>?
    let local = g_settings_schema_source_new_from_directory(
      schemaDirectory.path(percentEncoded: false), defaultSource, 0, &error)
    if let error { g_error_free(error) }
    guard let source = local ?? defaultSource else { return nil }
    defer { if local != nil { g_settings_schema_source_unref(local) } }
    guard let schema = g_settings_schema_source_lookup(source, Installation.appID, 1) else { return nil }
    defer { g_settings_schema_unref(schema) }
    guard let settings = g_settings_new_full(schema, nil, nil) else { return nil }
    self.settings = settings
  }

  /// Applies the saved size and maximised state to `window` before it is shown.
  func restore(_ window: UnsafeMutablePointer<GtkWindow>) {
    gtk_window_set_default_size(
      window, g_settings_get_int(settings, SettingsKey.windowWidth.rawValue),
      g_settings_get_int(settings, SettingsKey.windowHeight.rawValue))
    if g_settings_get_boolean(settings, SettingsKey.windowMaximized.rawValue) != 0 {
      gtk_window_maximize(window)
    }
  }

  /// Saves `window`'s size (its unmaximised size) and maximised state.
  func save(_ window: UnsafeMutablePointer<GtkWindow>) {
    var width: Int32 = 0
    var height: Int32 = 0
    gtk_window_get_default_size(window, &width, &height)
    let maximized = gtk_window_is_maximized(window)
    g_settings_set_boolean(settings, SettingsKey.windowMaximized.rawValue, maximized)
    if maximized == 0 && width > 0 && height > 0 {
      g_settings_set_int(settings, SettingsKey.windowWidth.rawValue, width)
      g_settings_set_int(settings, SettingsKey.windowHeight.rawValue, height)
    }
    g_settings_sync()
  }

  /// Keeps `property` of `object` and the boolean `key` equal, both ways.
  func bind(_ key: SettingsKey, to object: some GPointer, property: String) {
    g_settings_bind(settings, key.rawValue, object.gpointer, property, G_SETTINGS_BIND_DEFAULT)
  }

  /// Adds to `map` a stateful action named after `key` that reads and writes it (a toggle for a boolean, a radio
  /// choice for a string with choices): menus show and change the setting without code.
  func addAction(for key: SettingsKey, to map: some GPointer) {
    let action = g_settings_create_action(settings, key.rawValue)
    g_action_map_add_action(OpaquePointer(map.gpointer), action)
    action.map { g_object_unref($0.gpointer) }
  }

  /// Runs `handler` whenever `key` changes (from a menu, or from outside the app), and once now.
  func watch(_ key: SettingsKey, _ handler: @escaping @MainActor () -> Void) {
    Signal.connect(settings, "changed::" + key.rawValue) { (_: UnsafeMutableRawPointer?) in handler() }
    handler()
  }

  /// The string `key`.
  func string(_ key: SettingsKey) -> String {
    let value = g_settings_get_string(settings, key.rawValue)
    defer { g_free(value) }
    return value.map { String(cString: $0) } ?? ""
  }

  /// The unsigned integer `key`.
  func uint(_ key: SettingsKey) -> Int {
    Int(g_settings_get_uint(settings, key.rawValue))
  }

  /// The boolean `key`.
  func bool(_ key: SettingsKey) -> Bool {
    g_settings_get_boolean(settings, key.rawValue) != 0
  }

  isolated deinit {
    g_object_unref(settings.gpointer)
  }
}

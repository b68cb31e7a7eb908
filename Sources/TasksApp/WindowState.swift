// WindowState: the window's size and maximised state, and the app's other GSettings. Main actor.

import FoundationEssentials
import GtkSupport

/// Restores and saves a window's size and maximised state under the app's GSettings schema, and reads, binds and
/// watches its other keys (`SettingsKey`). Without the schema, nothing is kept (the window opens at its default size).
@MainActor
final class WindowState {
  private let settings: SettingsStore

  init?(schemaDirectory: URL) {
    guard let settings = SettingsStore(schema: Installation.appID, schemaDirectory: schemaDirectory) else { return nil }
    self.settings = settings
  }

  /// Applies the saved size and maximised state to `window` before it is shown.
  func restore(_ window: Window) {
    window.defaultSize = (
      settings.int(SettingsKey.windowWidth.rawValue), settings.int(SettingsKey.windowHeight.rawValue)
    )
    if settings.bool(SettingsKey.windowMaximized.rawValue) { window.isMaximized = true }
  }

  /// Saves `window`'s size (its unmaximised size) and maximised state.
  func save(_ window: Window) {
    let (width, height) = window.defaultSize
    let maximized = window.isMaximized
    settings.set(SettingsKey.windowMaximized.rawValue, bool: maximized)
    if !maximized && width > 0 && height > 0 {
      settings.set(SettingsKey.windowWidth.rawValue, int: width)
      settings.set(SettingsKey.windowHeight.rawValue, int: height)
    }
    settings.sync()
  }

  /// Keeps `property` of `object` and the boolean `key` equal, both ways.
  func bind(_ key: SettingsKey, to object: some GPointer, property: String) {
    settings.bind(key.rawValue, to: object, property: property)
  }

  /// Adds to `map` a stateful action named after `key` that reads and writes it: menus show and change the setting
  /// without code.
  func addAction(for key: SettingsKey, to map: some GPointer) { settings.addAction(for: key.rawValue, to: map) }

  /// Runs `handler` whenever `key` changes (from a menu, or from outside the app), and once now.
  func watch(_ key: SettingsKey, _ handler: @escaping @MainActor () -> Void) { settings.watch(key.rawValue, handler) }

  func string(_ key: SettingsKey) -> String { settings.string(key.rawValue) }
  func uint(_ key: SettingsKey) -> Int { settings.uint(key.rawValue) }
  func bool(_ key: SettingsKey) -> Bool { settings.bool(key.rawValue) }
}

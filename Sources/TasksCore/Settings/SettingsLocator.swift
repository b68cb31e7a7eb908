// SettingsLocator: which settings the app uses, in the documented order. Value type; any thread.

import FoundationEssentials

/// Where the app's settings come from.
public enum SettingsSource: Sendable, Equatable {
  /// A file named with `--settings`, or the user's file under `$XDG_CONFIG_HOME`.
  case file(URL)
  /// The built-in default, which points at the local b2c-playground.
  case builtIn
}

/// Finds the settings to use: `--settings PATH`, then
/// `$XDG_CONFIG_HOME/io.github.b2ctasks.B2CTasks/settings.plist` (default `~/.config/…`), then the built-in
/// default.
public struct SettingsLocator: Sendable {
  /// The app ID, which names the settings folder.
  public static let appID = AppIdentity.appID

  /// The process environment consulted for `XDG_CONFIG_HOME` and `HOME`.
  public var environment: [String: String]

  /// Creates a locator over an environment (the process's by default).
  public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    self.environment = environment
  }

  /// The user's settings file, whether or not it exists.
  public var userFile: URL {
    XDGDirectory.config.appFolder(environment: environment).appending(path: "settings.plist")
  }

  /// The source to use. A path given on the command line is used even when it does not exist, so that the user
  /// hears about the mistake instead of silently getting other settings.
  public func source(commandLinePath: String?) -> SettingsSource {
    if let commandLinePath, !commandLinePath.isEmpty {
      return .file(URL(filePath: commandLinePath))
    }
    if FileManager.default.fileExists(atPath: userFile.path(percentEncoded: false)) {
      return .file(userFile)
    }
    return .builtIn
  }

  /// Loads and validates the settings of `source`.
  public func load(_ source: SettingsSource) throws(SettingsError) -> AppSettings {
    switch source {
    case .file(let url): return try AppSettings.load(from: url)
    case .builtIn: return try AppSettings.parse(Data(BuiltInSettings.propertyList.utf8), file: "built-in settings")
    }
  }
}

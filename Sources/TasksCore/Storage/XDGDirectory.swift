// XDGDirectory: the app's folders under the XDG base directories. Value type; any thread.

import FoundationEssentials

/// The XDG base directories the app keeps files in, each with the app's own folder.
public enum XDGDirectory: Sendable {
  /// `$XDG_CONFIG_HOME` (default `~/.config`): settings.
  case config
  /// `$XDG_DATA_HOME` (default `~/.local/share`): the outbox.
  case data
  /// `$XDG_CACHE_HOME` (default `~/.cache`): the offline copy of the task list.
  case cache

  /// The app's folder in this base directory. A relative `XDG_*` value is ignored, as the specification says.
  public func appFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
    let (variable, fallback) =
      switch self {
      case .config: ("XDG_CONFIG_HOME", ".config")
      case .data: ("XDG_DATA_HOME", ".local/share")
      case .cache: ("XDG_CACHE_HOME", ".cache")
      }
    let base =
      environment[variable].flatMap { $0.hasPrefix("/") ? URL(filePath: $0, directoryHint: .isDirectory) : nil }
      ?? URL(
        filePath: environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path(percentEncoded: false),
        directoryHint: .isDirectory
      ).appending(path: fallback)
    return base.appending(path: SettingsLocator.appID, directoryHint: .isDirectory)
  }

  /// A file name made from an account's object id: only ASCII letters, digits and dashes.
  public static func fileName(for account: Account, extension suffix: String) -> String {
    let safe = account.objectID.unicodeScalars.filter { $0.isASCIIAlphanumeric || $0 == "-" }
    return String(String.UnicodeScalarView(safe)) + "." + suffix
  }
}

// XDGDirectory: the app's folders under the XDG base directories. Value type; any thread.

import Crypto
import FoundationEssentials

/// The XDG base directories the app keeps files in, each with the app's own folder.
public enum XDGDirectory: Sendable {
  /// `$XDG_CONFIG_HOME` (default `~/.config`): settings.
  case config
  /// `$XDG_DATA_HOME` (default `~/.local/share`): the outbox.
  case data
  /// `$XDG_CACHE_HOME` (default `~/.cache`): the offline copy of the task list.
  case cache

  /// The app's folder in this base directory.
  public func appFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
    baseFolder(environment: environment).appending(path: SettingsLocator.appID, directoryHint: .isDirectory)
  }

  /// This base directory. A relative `XDG_*` value is ignored, as the specification says.
  public func baseFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
    let (variable, fallback) =
      switch self {
      case .config: ("XDG_CONFIG_HOME", ".config")
      case .data: ("XDG_DATA_HOME", ".local/share")
      case .cache: ("XDG_CACHE_HOME", ".cache")
      }
    return environment[variable].flatMap { $0.hasPrefix("/") ? URL(filePath: $0, directoryHint: .isDirectory) : nil }
      ?? URL(
        filePath: environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path(percentEncoded: false),
        directoryHint: .isDirectory
      ).appending(path: fallback)
  }

  /// The name of `account`'s file in the session of `key`: a digest of the whole session key and the object id, so
  /// that two providers' (or tenants', or apps') accounts never share a file, whatever their subjects look like.
  public static func fileName(for account: Account, in key: SessionKey, extension suffix: String) -> String {
    let parts = [key.keychainGroup, key.clientID, key.provider.rawValue, key.authority, key.tenant, key.policy ?? ""]
    let text = (parts + [account.objectID]).joined(separator: "\u{1F}")
    let digest = SHA256.hash(data: Data(text.utf8)).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    return String(digest.prefix(40)) + "." + suffix
  }

  /// The name earlier versions gave `account`'s files: its object id, filtered to ASCII letters, digits and dashes
  /// (two providers' accounts could share it). Only to move such a file to its new name.
  static func legacyFileName(for account: Account, extension suffix: String) -> String {
    let safe = account.objectID.unicodeScalars.filter { $0.isASCIIAlphanumeric || $0 == "-" }
    return String(String.UnicodeScalarView(safe)) + "." + suffix
  }

  /// `folder`/`fileName(for:in:extension:)`, after moving a file of the earlier name there if it has none yet.
  static func accountFile(
    _ folder: URL, for account: Account, in key: SessionKey, extension suffix: String
  ) -> URL {
    let file = folder.appending(path: fileName(for: account, in: key, extension: suffix))
    let legacy = folder.appending(path: legacyFileName(for: account, extension: suffix))
    if !FileManager.default.fileExists(atPath: file.path), FileManager.default.fileExists(atPath: legacy.path) {
      try? FileManager.default.moveItem(at: legacy, to: file)
    }
    return file
  }
}

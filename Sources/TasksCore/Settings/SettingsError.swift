// SettingsError: why a settings file could not be used. Value type; any thread.

/// Why a settings file could not be used, naming the file and, where there is one, the key.
///
/// The description is one line a user can act on, e.g.
/// `~/.config/io.github.b2ctasks.B2CTasks/settings.plist: authURL: not an https URL`. It never contains a secret:
/// settings hold none, and `clientSecret` values are never echoed.
public struct SettingsError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong, as a stable code for tests and callers.
  public enum Code: String, Sendable {
    /// The file could not be read (missing, a folder, no permission).
    case unreadable
    /// The file is empty, binary garbage or broken XML: not a property list.
    case notAPropertyList
    /// The property list's top level is not a dictionary.
    case notADictionary
    /// A required key is absent.
    case missingKey
    /// A key holds the wrong kind of value (a number where a string belongs…).
    case wrongType
    /// A key holds a value of the right kind that cannot be used.
    case invalidValue
  }

  /// What went wrong.
  public let code: Code
  /// The file, or `built-in settings` for the bundled default.
  public let file: String
  /// The key at fault, if one is.
  public let key: String?
  /// What is wrong, in a few words.
  public let reason: String

  /// Creates an error.
  public init(_ code: Code, file: String, key: String? = nil, reason: String) {
    self.code = code
    self.file = file
    self.key = key
    self.reason = reason
  }

  /// `FILE: KEY: REASON`, or `FILE: REASON` when no key is at fault.
  public var description: String {
    if let key { return "\(file): \(key): \(reason)" }
    return "\(file): \(reason)"
  }
}

// SettingsFile: the app's settings property list, built from keys and values for tests. Value type; any thread.
// (The parser's own tests write theirs by hand: they try what a builder cannot say, wrong types and broken files.)

import Foundation

/// A settings file of string keys and string values, in the order given; values are XML-escaped.
public struct SettingsFile: Sendable, CustomStringConvertible {
  /// The keys and values, in order.
  public private(set) var entries: [(key: String, value: String)]

  /// A file of `entries` (nil values are left out).
  public init(_ entries: KeyValuePairs<String, String?>) {
    self.entries = entries.compactMap { key, value in value.map { (key, $0) } }
  }

  /// The same file with `key` set to `value` (nil: without `key`).
  public func with(_ key: String, _ value: String?) -> SettingsFile {
    var copy = self
    if let index = copy.entries.firstIndex(where: { $0.key == key }) {
      if let value { copy.entries[index].value = value } else { copy.entries.remove(at: index) }
    } else if let value {
      copy.entries.append((key, value))
    }
    return copy
  }

  /// The property list (XML).
  public var xml: String {
    let rows = entries.map { "  <key>\(Self.escape($0.key))</key><string>\(Self.escape($0.value))</string>" }
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict>
      \(rows.joined(separator: "\n"))
      </dict></plist>
      """
  }

  /// The property list as bytes.
  public var data: Data { Data(xml.utf8) }

  public var description: String { xml }

  private static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }
}

/// A settings property list of exactly `clientID`, `authority`, `keychain` and `taskAPI` (issue 14's promise: the
/// redirect, scopes and bearer come from the app's defaults).
public func fourKeySettings(clientID: String, authority: String, keychain: String, taskAPI: String) -> String {
  SettingsFile(["clientID": clientID, "authority": authority, "keychain": keychain, "taskAPI": taskAPI]).xml
}

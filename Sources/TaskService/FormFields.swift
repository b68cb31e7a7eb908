// FormFields: `application/x-www-form-urlencoded` data (bodies and query strings). Value type; any thread.

import Foundation

/// Name/value pairs of a form body or query string, with `+` as space and percent-escapes decoded.
public struct FormFields: Sendable {
  public private(set) var pairs: [(name: String, value: String)] = []

  /// Parses `text`; pairs whose escapes are broken are dropped.
  public init(_ text: String?) {
    guard let text, !text.isEmpty else { return }
    for part in text.split(separator: "&", omittingEmptySubsequences: true) {
      let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard let name = Self.decode(pieces[0]) else { continue }
      let value = pieces.count > 1 ? Self.decode(pieces[1]) : ""
      if let value { pairs.append((name, value)) }
    }
  }

  private static func decode(_ text: Substring) -> String? {
    text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
  }

  /// The first value named exactly `name`.
  public subscript(name: String) -> String? {
    pairs.first { $0.name == name }?.value
  }

  /// The first value whose name equals `name` ignoring case.
  public func caseInsensitive(_ name: String) -> String? {
    pairs.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  /// The first non-empty value named `name`.
  public func nonEmpty(_ name: String) -> String? {
    guard let value = self[name], !value.isEmpty else { return nil }
    return value
  }
}

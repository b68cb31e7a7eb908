// TaskSearch: what the search bar matches, without any UI. Any thread.

import FoundationEssentials

/// A search typed into the search bar: each word must appear in a task's title or notes, ignoring case and accents
/// ("cafe" finds "Café", "MILK" finds "buy milk").
public struct TaskSearch: Sendable, Equatable {
  /// The folded words searched for.
  public let words: [String]

  /// A search for `query`; blank, it matches everything.
  public init(_ query: String) {
    words = Self.fold(query).split(whereSeparator: \.isWhitespace).map(String.init)
  }

  /// Whether the search matches every task.
  public var isEmpty: Bool { words.isEmpty }

  /// Whether `folded` (a text passed through `fold`) contains every word.
  public func matches(folded: String) -> Bool {
    words.allSatisfy { folded.contains($0) }
  }

  /// Whether `text` contains every word, ignoring case and accents.
  public func matches(_ text: String) -> Bool {
    matches(folded: Self.fold(text))
  }

  /// `text` without case or accents, the form searches compare.
  public static func fold(_ text: String) -> String {
    text.searchFolded
  }
}

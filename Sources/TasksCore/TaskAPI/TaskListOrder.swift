// TaskListOrder: how the task list is sorted and searched, without any UI. Any thread.

import FoundationEssentials

/// How the list is sorted (the app's `sort-order` setting); open tasks always come before completed ones.
public enum TaskSortOrder: String, Sendable, CaseIterable {
  /// Most recently modified first; tasks still waiting to be sent are the newest of all.
  case newest
  /// Least recently modified first; tasks still waiting to be sent come last.
  case oldest
  /// By text, ignoring case and accents.
  case alphabetical
}

/// What the list knows of one row for sorting and searching: a task of the server's or one waiting in the outbox.
public struct TaskListEntry<Key: Hashable>: Sendable where Key: Sendable {
  /// The row's identity.
  public var key: Key
  /// The text shown.
  public var text: String
  /// Whether it is done (a waiting task never is).
  public var completed: Bool
  /// When it was last modified (the server's DateModified, or when a waiting task was typed).
  public var date: Date?
  /// Whether it still waits in the outbox.
  public var waiting: Bool

  /// Describes one row.
  public init(key: Key, text: String, completed: Bool, date: Date?, waiting: Bool) {
    self.key = key
    self.text = text
    self.completed = completed
    self.date = date
    self.waiting = waiting
  }
}

/// Sorts rows: open ones first, then completed ones, each group by `order`. Ties keep the server's order, so the
/// same data always gives the same list (a refresh that changes nothing moves nothing).
///
/// Inlinable, so that the app's own key type specializes it: generic, reading the entries cost more than sorting.
@inlinable
public func sortedForList<Key>(_ entries: [TaskListEntry<Key>], by order: TaskSortOrder) -> [Key] {
  // Sorted by index over arrays of plain values: a comparison reads two numbers (or two folded texts), never
  // copies an entry with its strings. (A list of 100 000 tasks is sorted on every change the user makes.)
  var completed: [Bool] = []
  var waiting: [Bool] = []
  var dates: [Double] = []
  completed.reserveCapacity(entries.count)
  waiting.reserveCapacity(entries.count)
  dates.reserveCapacity(entries.count)
  for entry in entries {
    completed.append(entry.completed)
    waiting.append(entry.waiting)
    dates.append(entry.date?.timeIntervalSinceReferenceDate ?? -.infinity)
  }
  let foldedTexts: [String] = order == .alphabetical ? entries.map { TaskSearch.fold($0.text) } : []
  let newest = order == .newest
  var indices = Array(entries.indices)
  indices.sort { a, b in
    if completed[a] != completed[b] { return !completed[a] }
    switch order {
    case .alphabetical:
      let (x, y) = (foldedTexts[a], foldedTexts[b])
      if x != y { return x < y }
    case .newest, .oldest:
      // A waiting task was typed just now: newer than anything the server has.
      if waiting[a] != waiting[b] { return waiting[a] == newest }
      let (x, y) = (dates[a], dates[b])
      if x != y { return newest ? x > y : x < y }
      if waiting[a] { return newest ? a > b : a < b }
    }
    return a < b
  }
  return indices.map { entries[$0].key }
}

/// A search typed into the list's search bar: each word must appear in a task's text, ignoring case and accents
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

  /// Whether this search matches at least what `other` matched, and perhaps more (the filter need recheck only
  /// what `other` left out).
  public func isLooser(than other: TaskSearch) -> Bool {
    words.allSatisfy { word in other.words.contains { $0.contains(word) } }
  }

  /// Whether this search matches no more than `other` did (the filter need recheck only what `other` matched).
  public func isStricter(than other: TaskSearch) -> Bool {
    other.isLooser(than: self)
  }
}

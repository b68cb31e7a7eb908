// KeyedEdit: one splice of a list's rows (remove some, insert others at one place), and the few splices that turn
// one order of rows into another. Value type; any thread.

import FoundationEssentials

/// One change of the rows shown: at `at`, remove `remove` rows, then insert `insert` there (a list model's splice).
public struct KeyedEdit<Key: Hashable & Sendable>: Equatable, Sendable {
  /// Where the edit happens, in the rows as they are before it.
  public var at: Int
  /// How many rows go.
  public var remove: Int
  /// The rows that come in their place.
  public var insert: [Key]

  /// An edit.
  public init(at: Int, remove: Int, insert: [Key]) {
    self.at = at
    self.remove = remove
    self.insert = insert
  }

  /// The edits from `old` to `new` with as little as it takes: the unchanged start and end stay, and one row that
  /// moved (ticked, say) is moved alone, so the rows around it keep their widgets and the focus.
  public static func edits(from old: [Key], to new: [Key]) -> [KeyedEdit] {
    let shorter = min(old.count, new.count)
    var prefix = 0
    while prefix < shorter && old[prefix] == new[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < shorter - prefix && old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
    let oldMiddle = old[prefix..<(old.count - suffix)]
    let newMiddle = new[prefix..<(new.count - suffix)]
    guard !(oldMiddle.isEmpty && newMiddle.isEmpty) else { return [] }
    if oldMiddle.count == newMiddle.count && oldMiddle.count >= 2 {
      let last = oldMiddle.count - 1
      let (oldFirst, newFirst) = (oldMiddle.startIndex, newMiddle.startIndex)
      // The first row moved to the end of the changed run, or the last to its start.
      if oldMiddle[oldFirst] == newMiddle[newFirst + last]
        && oldMiddle.dropFirst().elementsEqual(newMiddle.dropLast())
      {
        return [
          KeyedEdit(at: prefix, remove: 1, insert: []),
          KeyedEdit(at: prefix + last, remove: 0, insert: [oldMiddle[oldFirst]]),
        ]
      }
      if oldMiddle[oldFirst + last] == newMiddle[newFirst]
        && oldMiddle.dropLast().elementsEqual(newMiddle.dropFirst())
      {
        return [
          KeyedEdit(at: prefix + last, remove: 1, insert: []),
          KeyedEdit(at: prefix, remove: 0, insert: [oldMiddle[oldFirst + last]]),
        ]
      }
    }
    return [KeyedEdit(at: prefix, remove: oldMiddle.count, insert: Array(newMiddle))]
  }
}

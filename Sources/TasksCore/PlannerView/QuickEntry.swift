// QuickEntry: what the quick entry understood in what was typed ("Pay rent tomorrow 9am every month !high"): its
// chips, the title left, and the task Enter adds. Dismissing a chip keeps its words in the title. Value; any thread.

import FoundationEssentials

/// The quick entry's reading of one text.
public struct QuickEntry: Sendable {
  /// A recognised part of the text, shown as a chip under the entry.
  public struct Chip: Equatable, Sendable {
    public enum Kind: String, Sendable { case date, time, recurrence, priority }
    public var kind: Kind
    /// The words it took, as typed.
    public var words: String
    /// What it means, in words ("Tomorrow", "09:00", "Monthly", "High priority").
    public var label: String

    /// What names it among dismissed chips: the same words for the same part stay dismissed while typing goes on.
    public var key: String { kind.rawValue + ":" + words.lowercased() }
  }

  /// The chips, in the order of the text.
  public private(set) var chips: [Chip] = []
  /// The text without the chips' words, its spaces tidied.
  public private(set) var title: String
  public private(set) var date: CalendarDate?
  public private(set) var time: TimeOfDay?
  public private(set) var recurrence: RecurrenceRule?
  public private(set) var priority: PlannerPriority = .none

  /// Reads `text` with `parser` (the user's language and English); chips whose `key` is in `dismissed` are not
  /// taken.
  /// The text as typed.
  public let typed: String

  public init(_ text: String, parser: DatePhraseParser, dismissed: Set<String> = []) {
    typed = text
    var taken: [(range: Range<String.Index>, chip: Chip)] = []
    let today = parser.today
    if let phrase = parser.find(in: text) {
      for part in phrase.parts {
        let words = String(text[part.range])
        var chip = Chip(kind: Chip.Kind(rawValue: part.kind.rawValue)!, words: words, label: words)
        guard !dismissed.contains(chip.key) else { continue }
        switch part.kind {
        case .date:
          date = phrase.date
          chip.label = phrase.date.map { DueLabel.day($0, today: today) } ?? words
        case .time:
          time = phrase.time
          chip.label = phrase.time?.description ?? words
        case .recurrence:
          recurrence = phrase.recurrence
          chip.label = phrase.recurrence.map { RecurrenceText.describe($0, today: today) } ?? words
        }
        taken.append((part.range, chip))
      }
    }
    for word in Self.words(of: text) {
      guard priority == .none, let level = Self.priority(String(text[word])) else { continue }
      let chip = Chip(kind: .priority, words: String(text[word]), label: level.label)
      guard !dismissed.contains(chip.key), !taken.contains(where: { $0.range.overlaps(word) }) else { continue }
      priority = level
      taken.append((word, chip))
    }
    taken.sort { $0.range.lowerBound < $1.range.lowerBound }
    chips = taken.map(\.chip)
    // A repeat said without a day starts on its first occurrence from today.
    if date == nil, let recurrence { date = recurrence.occurrence(after: today.adding(days: -1)) ?? today }
    var kept = ""
    var index = text.startIndex
    for (range, _) in taken {
      kept += text[index..<range.lowerBound] + " "
      index = range.upperBound
    }
    kept += text[index...]
    title = kept.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  /// The task Enter adds: to `list`, with the id `id`. Shown in Today, a task said without a day is due today; in
  /// Upcoming, tomorrow; a time without a day is today's. Nil when no title is left.
  public func task(
    id: UUID = UUID(), list: UUID, shownIn selection: PlannerSelection, today: CalendarDate, now: Date = Date()
  ) -> PlannerItem? {
    guard !title.isEmpty else { return nil }
    var item = PlannerItem(id: id, listID: list, title: title, createdAt: now)
    var day = date
    if day == nil {
      switch selection {
      case .today: day = today
      case .upcoming: day = today.adding(days: 1)
      case .list: day = time == nil ? nil : today
      }
    }
    item.due = day.map { TaskDue(date: $0, time: time) }
    if let recurrence, item.due != nil { item.recurrence = TaskRecurrence(rule: recurrence, from: .due) }
    item.priority = priority.rawValue
    return item
  }

  /// The words of `text` (runs without white space).
  private static func words(of text: String) -> [Range<String.Index>] {
    var result: [Range<String.Index>] = []
    var start: String.Index?
    for index in text.indices {
      if text[index].isWhitespace {
        if let begun = start { result.append(begun..<index) }
        start = nil
      } else if start == nil {
        start = index
      }
    }
    if let start { result.append(start..<text.endIndex) }
    return result
  }

  /// The priority a word such as "!high", "!1" or "!hoch" (the user's language) sets.
  static func priority(_ word: String) -> PlannerPriority? {
    guard word.hasPrefix("!") else { return nil }
    let name = word.dropFirst().lowercased()
    // Translators: the words typed after "!" in the quick entry for a priority ("Pay rent !high"); one word each,
    // lower case.
    let levels: [(PlannerPriority, [String])] = [
      (.high, ["high", "1", "!!", tr("high")]), (.medium, ["medium", "2", "!", tr("medium")]),
      (.low, ["low", "3", tr("low")]),
    ]
    return levels.first { $0.1.contains(name) }?.0
  }
}

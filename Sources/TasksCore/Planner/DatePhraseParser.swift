// DatePhraseParser: reads the dates, times and repeats people type into a task ("Pay rent tomorrow 9am every
// month"), in English and in the app's other languages (de, nl, fi, it, zh), and answers what it took and where, so
// the window can show each part as a chip and the CLI can refuse a phrase it cannot read. Value; any thread.

import FoundationEssentials
import Synchronization

/// What a phrase said.
public struct DatePhrase: Equatable, Sendable {
  /// A recognised part of the text.
  public enum Kind: String, Sendable { case date, time, recurrence }

  public struct Part: Equatable, Sendable {
    public let kind: Kind
    /// Where it is in the text given.
    public let range: Range<String.Index>
  }

  /// The day: said, or the first occurrence of a repeat said without one.
  public var date: CalendarDate?
  /// The time of day, when one was said.
  public var time: TimeOfDay?
  /// The repeat, when one was said.
  public var recurrence: RecurrenceRule?
  /// The parts taken, in the order of the text.
  public var parts: [Part]

  /// From the first part's start to the last part's end.
  public var range: Range<String.Index>? {
    guard let first = parts.first, let last = parts.last else { return nil }
    return first.range.lowerBound..<last.range.upperBound
  }

  /// `text` without the parts taken (the task's title), its spaces tidied.
  public func remainder(of text: String) -> String {
    var kept = ""
    var index = text.startIndex
    for part in parts {
      kept += text[index..<part.range.lowerBound]
      kept += " "
      index = part.range.upperBound
    }
    kept += text[index...]
    return kept.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }
}

/// A phrase the parser could not read whole.
public enum DatePhraseError: Error, Equatable, Sendable {
  /// Nothing was said.
  case empty
  /// These words were not understood (the parts around them were).
  case notUnderstood(String)
}

/// Reads dates, times and repeats in one language and English.
public struct DatePhraseParser: Sendable {
  /// The language whose words are read besides English (`de`, `nl`, `fi`, `it`, `zh`; anything else: English only).
  public let language: String
  /// The day "today" means.
  public let today: CalendarDate
  private let rules: [PhraseRule]

  /// `language` may be a locale or a `LANGUAGE` value (`de_DE.UTF-8`, `zh_CN`, `fi:en`): its first language is read.
  public init(language: String, today: CalendarDate) {
    let code = String(
      language.split(separator: ":").first?.prefix { $0.isLetter }.lowercased() ?? "en")
    self.language = PhraseVocabulary.all[code] == nil ? "en" : code
    self.today = today
    let chosen = self.language
    rules = Self.compiled.withLock { compiled in
      if let rules = compiled[chosen] { return rules }
      var rules = PhraseRule.rules(for: PhraseVocabulary.all[chosen]!)
      if chosen != "en" { rules += PhraseRule.rules(for: PhraseVocabulary.all["en"]!) }
      compiled[chosen] = rules
      return rules
    }
  }

  /// Each language's rules, compiled once (a few dozen patterns: tens of milliseconds).
  private static let compiled = Mutex<[String: [PhraseRule]]>([:])

  /// The user's language (`LANGUAGE`, then the locale's variables), or English.
  public static func userLanguage(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
    let names = [environment["LANGUAGE"], environment["LC_ALL"], environment["LC_MESSAGES"], environment["LANG"]]
    for case let name? in names where !name.isEmpty && name != "C" && name != "POSIX" {
      return String(name.split(separator: ":").first?.prefix(2) ?? "en").lowercased()
    }
    return "en"
  }

  /// The languages with words of their own.
  public static let languages = ["en", "de", "nl", "fi", "it", "zh"]

  /// Every date, time and repeat in `text` (at most one of each: the first), or nil when there is none.
  public func find(in text: String) -> DatePhrase? {
    var found: [(range: Range<String.Index>, meaning: PhraseMeaning)] = []
    for rule in rules {
      for match in text.matches(of: rule.regex) {
        guard !match.range.isEmpty, let meaning = rule.meaning(match, today) else { continue }
        found.append((match.range, meaning))
      }
    }
    // Longest first where two start together; then earliest; parts may not overlap.
    found.sort {
      $0.range.lowerBound != $1.range.lowerBound
        ? $0.range.lowerBound < $1.range.lowerBound : $0.range.upperBound > $1.range.upperBound
    }
    var phrase = DatePhrase(parts: [])
    var taken: [Range<String.Index>] = []
    var firstOfRepeat: CalendarDate?
    for (range, meaning) in found where !taken.contains(where: { $0.overlaps(range) }) {
      switch meaning {
      case .date(let date) where phrase.date == nil:
        phrase.date = date
      case .time(let time) where phrase.time == nil:
        phrase.time = time
      case .recurrence(let rule, let first) where phrase.recurrence == nil:
        phrase.recurrence = rule
        firstOfRepeat = first
      default:
        continue
      }
      taken.append(range)
      phrase.parts.append(DatePhrase.Part(kind: meaning.kind, range: range))
    }
    guard !phrase.parts.isEmpty else { return nil }
    phrase.parts.sort { $0.range.lowerBound < $1.range.lowerBound }
    if phrase.date == nil, let firstOfRepeat { phrase.date = firstOfRepeat }
    return phrase
  }

  /// All of `phrase` as a date, time and repeat (the CLI's `--due "tomorrow 9:00"`): an error naming the words that
  /// are not understood, when any are left.
  public func parse(_ phrase: String) throws(DatePhraseError) -> DatePhrase {
    guard phrase.contains(where: { !$0.isWhitespace }) else { throw .empty }
    guard let found = find(in: phrase) else { throw .notUnderstood(phrase.trimmed(\.isWhitespace)) }
    let left = found.remainder(of: phrase).filter { !",.;".contains($0) }.trimmed(\.isWhitespace)
    let fillers = PhraseVocabulary.all[language]!.fillers.union(PhraseVocabulary.all["en"]!.fillers)
    let words = left.split(whereSeparator: \.isWhitespace).filter { !fillers.contains($0.lowercased()) }
    guard words.isEmpty else { throw .notUnderstood(words.joined(separator: " ")) }
    return found
  }
}

extension StringProtocol {
  fileprivate func trimmed(_ drop: (Character) -> Bool) -> String {
    guard let start = firstIndex(where: { !drop($0) }), let end = lastIndex(where: { !drop($0) }) else { return "" }
    return String(self[start...end])
  }
}

/// What one match means.
enum PhraseMeaning {
  case date(CalendarDate)
  case time(TimeOfDay)
  case recurrence(RecurrenceRule, first: CalendarDate)

  var kind: DatePhrase.Kind {
    switch self {
    case .date: .date
    case .time: .time
    case .recurrence: .recurrence
    }
  }
}

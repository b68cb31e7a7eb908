// PhraseVocabulary: the words of each language the date parser reads (English, German, Dutch, Finnish, Italian,
// Chinese) and the patterns its dates, times and repeats are said in. Data; any thread.

/// One language's words and patterns. In a pattern, `{wd}` is a weekday (group `wd`), `{wds}` a list of them (group
/// `wds`), `{mo}` a month by name (`mo`), `{n}` a number (`n`), `{u}` a unit (`u`); a pattern of a language with spaces
/// between words must start and end at a word's edge.
struct PhraseVocabulary: Sendable {
  enum Meridiem { case am, pm, noon }

  let code: String
  /// Whether words are written without spaces between them (no word edges are asked for).
  var unspaced = false
  /// Each weekday's forms, Monday first.
  let weekdayNames: [[String]]
  /// Each month's forms, January first (none: months are figures, as in Chinese).
  var monthNames: [[String]] = []
  /// Number words and their values (figures are always read).
  var numberWords: [String: Int] = [:]
  /// Unit words: days, weeks, months, years.
  let unitWords: [String: RecurrenceRule.Frequency]
  /// Words that join weekdays in a list ("and").
  var and: [String] = []
  /// Words for before and after noon.
  var meridiems: [String: Meridiem] = [:]
  /// Words a phrase may hold besides its parts ("at", "on", "due").
  var fillers: Set<String> = []
  /// The patterns, with what each says.
  let patterns: [(String, PhraseShape)]

  static let all: [String: PhraseVocabulary] = Dictionary(
    uniqueKeysWithValues: [english, german, dutch, finnish, italian, chinese].map { ($0.code, $0) })

  // MARK: Reading the groups

  func number(_ text: String) -> Int? {
    if let value = Int(text.filter(\.isNumber)), text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) {
      return value
    }
    if let value = numberWords[text] { return value }
    return unspaced ? Self.chineseNumber(text) : nil
  }

  /// 一 … 九十九 (两 for 2).
  private static func chineseNumber(_ text: String) -> Int? {
    let digits: [Character: Int] = ["一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9]
    let characters = Array(text)
    switch characters.count {
    case 1: return characters[0] == "十" ? 10 : digits[characters[0]]
    case 2 where characters[0] == "十": return digits[characters[1]].map { 10 + $0 }
    case 2 where characters[1] == "十": return digits[characters[0]].map { $0 * 10 }
    case 3 where characters[1] == "十":
      guard let tens = digits[characters[0]], let ones = digits[characters[2]] else { return nil }
      return tens * 10 + ones
    default: return nil
    }
  }

  func weekday(_ text: String) -> Weekday? {
    weekdayNames.firstIndex { $0.contains(text) }.flatMap { Weekday(rawValue: $0 + 1) }
  }

  /// The weekdays named in a list ("monday and thursday", "montags", "一、三").
  func weekdays(in text: String) -> [Weekday] {
    if unspaced {
      let short: [Character: Weekday] = [
        "一": .monday, "二": .tuesday, "三": .wednesday, "四": .thursday, "五": .friday, "六": .saturday, "日": .sunday,
        "天": .sunday,
      ]
      return text.compactMap { short[$0] }
    }
    let words = text.split { !$0.isLetter }.map { String($0) }
    return words.compactMap { word in
      weekday(word)
        ?? weekdayNames.firstIndex { forms in forms.contains { word.hasPrefix($0) && $0.count > 3 } }
        .flatMap { Weekday(rawValue: $0 + 1) }
    }
  }

  func month(_ text: String) -> Int? {
    monthNames.firstIndex { $0.contains(text.hasSuffix(".") ? String(text.dropLast()) : text) }.map { $0 + 1 }
  }

  func unit(_ text: String) -> RecurrenceRule.Frequency? { unitWords[text] }

  func meridiem(_ text: String) -> Meridiem? { meridiems[text] }

  // MARK: Patterns

  /// `pattern` with its placeholders filled in and its word edges.
  func expand(_ pattern: String) -> String {
    func alternation(_ words: some Sequence<String>) -> String {
      // Longest first, so that "mon" does not win over "monday".
      words.sorted { $0.count > $1.count }.map(Self.escape).joined(separator: "|")
    }
    let weekday = alternation(weekdayNames.joined())
    let joiner = alternation(and + [",", "、", "&"])
    var expanded =
      pattern
      .replacing("{wds}", with: "(?<wds>(?:\(weekday))(?:\\s*(?:\(joiner))\\s*(?:\(weekday)))*)")
      .replacing("{wd}", with: "(?<wd>\(weekday))")
      .replacing("{mo}", with: "(?<mo>\(alternation(monthNames.joined())))\\.?")
      .replacing("{n}", with: "(?<n>\\d{1,3}\(numberWords.isEmpty ? "" : "|" + alternation(numberWords.keys)))")
      .replacing("{u}", with: "(?<u>\(alternation(unitWords.keys)))")
    if !unspaced { expanded = "\\b(?:\(expanded))(?![\\p{L}\\p{N}])" }
    return expanded
  }

  private static func escape(_ word: String) -> String {
    var escaped = ""
    for character in word {
      if ".^$*+?()[]{}|\\/-".contains(character) { escaped.append("\\") }
      escaped.append(character == " " ? "\\s+" : String(character))
    }
    return escaped
  }
}

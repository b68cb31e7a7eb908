// ReminderPhrase: when a reminder fires, as people say it ("in 10 minutes", "at 17:00", "1 hour before", "at the due
// time"), in English and the app's other languages. Value; any thread.

/// A reminder as said: some minutes from now, some minutes before the due time, or at a day and time (the day
/// defaults to the task's due date, else today).
public enum ReminderPhrase: Equatable, Sendable {
  case fromNow(minutes: Int)
  case beforeDue(minutes: Int)
  case at(date: CalendarDate?, time: TimeOfDay)

  /// The words for minutes, hours and days, "in" and "before", per language (English always read too).
  private static let words:
    [String: (minute: [String], hour: [String], day: [String], in: [String], before: [String])] = [
      "en": (
        ["minute", "minutes", "min", "mins", "m"], ["hour", "hours", "h"], ["day", "days", "d"], ["in"],
        ["before", "earlier"]
      ),
      "de": (
        ["minute", "minuten", "min"], ["stunde", "stunden", "std"], ["tag", "tage", "tagen"], ["in"],
        ["vorher", "davor"]
      ),
      "nl": (
        ["minuut", "minuten", "min"], ["uur", "uren"], ["dag", "dagen"], ["over", "binnen"],
        ["van tevoren", "ervoor", "eerder"]
      ),
      "fi": (
        ["minuutti", "minuuttia", "minuutin", "min"], ["tunti", "tuntia", "tunnin"], ["päivä", "päivää", "päivän"],
        ["päästä", "kuluttua"], ["ennen", "aiemmin"]
      ),
      "it": (["minuto", "minuti", "min"], ["ora", "ore"], ["giorno", "giorni"], ["tra", "fra"], ["prima"]),
      "zh": (["分钟"], ["小时"], ["天"], ["后"], ["前"]),
    ]

  /// Reads `text` in `language` (or English); `parser` reads a day and time ("at 17:00", "tomorrow 9am"). Nil when it
  /// is none of these.
  public static func read(_ text: String, language: String, parser: DatePhraseParser) -> ReminderPhrase? {
    let phrase = text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    guard !phrase.isEmpty else { return nil }
    for code in Set([language, "en"]) {
      guard let words = Self.words[code] else { continue }
      if let minutes = offset(phrase, words, marker: words.before, after: true) { return .beforeDue(minutes: minutes) }
      if let minutes = offset(phrase, words, marker: words.in, after: false) { return .fromNow(minutes: minutes) }
      if code == "zh", let minutes = offset(phrase, words, marker: words.in, after: true) {
        return .fromNow(minutes: minutes)
      }
    }
    if [
      "at due time", "at the due time", "when due", "zum fälligkeitstermin", "bij de deadline", "määräaikana",
      "alla scadenza", "到期时",
    ].contains(phrase) {
      return .beforeDue(minutes: 0)
    }
    guard let said = try? parser.parse(text), let time = said.time, said.recurrence == nil else { return nil }
    let dateSaid = said.parts.contains { $0.kind == .date }
    return .at(date: dateSaid ? said.date : nil, time: time)
  }

  /// "N unit" with `marker` before it ("in 10 minutes") or after it ("1 hour before"); the minutes.
  private static func offset(
    _ phrase: String, _ words: (minute: [String], hour: [String], day: [String], in: [String], before: [String]),
    marker: [String], after: Bool
  ) -> Int? {
    for word in marker {
      var rest = phrase
      if after {
        guard rest.hasSuffix(word) else { continue }
        rest = String(rest.dropLast(word.count))
      } else {
        guard rest.hasPrefix(word + " ") else { continue }
        rest = String(rest.dropFirst(word.count + 1))
      }
      rest = rest.split(separator: " ").joined(separator: " ")
      let digits = rest.prefix { $0.isASCII && $0.isNumber }
      guard let number = Int(digits), number <= 100_000 else { continue }
      let unit = rest.dropFirst(digits.count).split(separator: " ").joined(separator: " ")
      if words.minute.contains(unit) { return number }
      if words.hour.contains(unit) { return number * 60 }
      if words.day.contains(unit) { return number * 1440 }
    }
    return nil
  }
}

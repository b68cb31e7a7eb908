// PhraseRule: one way of saying a date, a time or a repeat (a pattern with placeholders for a language's words) and
// what it means. The patterns are compiled per parser; a match's named groups feed the meaning.

/// What a pattern says, read from its named groups: `n` a number, `u` a unit, `wd` a weekday, `wds` weekdays, `mo` a
/// month by name, `d`/`m`/`y` a date in figures, `h`/`min`/`ap`/`half` a time.
enum PhraseShape: Sendable {
  /// Today plus this many days.
  case offset(days: Int)
  /// The coming day of `wd` (1 to 7 days ahead).
  case weekday
  /// The day of `wd` in next week.
  case nextWeekday
  /// Monday of next week.
  case nextWeek
  /// In `n` (1 when absent) days, weeks, months or years (`u`, or the given unit).
  case later(RecurrenceRule.Frequency?)
  /// `d` `mo` [`y`]: a day of a month by name, the next such day when the year is not said.
  case dayOfNamedMonth
  /// `d` `m` [`y`] in figures, likewise.
  case dayOfMonth
  /// `h` [`min`] [`ap`] [`half`].
  case time
  /// A fixed time ("noon").
  case fixedTime(hour: Int)
  /// Repeats every `n` (1 when absent; the given count when set) units `u` (or the given unit).
  case every(RecurrenceRule.Frequency?, interval: Int?)
  /// Repeats Monday to Friday.
  case everyWorkday
  /// Repeats weekly on the weekdays in `wds`.
  case everyWeekdays
}

struct PhraseRule: @unchecked Sendable {
  // (Regex is not Sendable; a rule is built once per parser and only read.)
  let regex: Regex<AnyRegexOutput>
  let shape: PhraseShape
  let vocabulary: PhraseVocabulary

  /// The rules of `vocabulary`'s language.
  static func rules(for vocabulary: PhraseVocabulary) -> [PhraseRule] {
    vocabulary.patterns.compactMap { pattern, shape in
      let expanded = vocabulary.expand(pattern)
      guard let regex = try? Regex(expanded) else {
        assertionFailure("a phrase pattern does not compile: \(expanded)")
        return nil
      }
      return PhraseRule(regex: regex.ignoresCase(), shape: shape, vocabulary: vocabulary)
    }
  }

  /// What `match` means on `today`, or nil when its values do not make one (the 31st of April, 25 o'clock).
  func meaning(_ match: Regex<AnyRegexOutput>.Match, _ today: CalendarDate) -> PhraseMeaning? {
    func group(_ name: String) -> String? {
      match.output[name]?.substring.map { String($0).lowercased() }
    }
    let number = group("n").map { vocabulary.number($0) } ?? 1
    guard let count = number else { return nil }
    switch shape {
    case .offset(let days):
      return .date(today.adding(days: days))
    case .weekday:
      guard let day = group("wd").flatMap(vocabulary.weekday) else { return nil }
      return .date(today.adding(days: (day.rawValue - today.weekday.rawValue + 6) % 7 + 1))
    case .nextWeekday:
      guard let day = group("wd").flatMap(vocabulary.weekday) else { return nil }
      return .date(today.startOfWeek.adding(days: 7 + day.rawValue - 1))
    case .nextWeek:
      return .date(today.startOfWeek.adding(days: 7))
    case .later(let fixed):
      guard let unit = fixed ?? group("u").flatMap(vocabulary.unit), (1...999).contains(count) else { return nil }
      switch unit {
      case .daily: return .date(today.adding(days: count))
      case .weekly: return .date(today.adding(days: 7 * count))
      case .monthly: return .date(today.adding(months: count))
      case .yearly: return .date(today.adding(months: 12 * count))
      }
    case .dayOfNamedMonth:
      guard let month = group("mo").flatMap(vocabulary.month) else { return nil }
      return Self.date(day: group("d"), month: month, year: group("y"), today: today).map(PhraseMeaning.date)
    case .dayOfMonth:
      guard let month = group("m").flatMap({ Int($0) }) else { return nil }
      return Self.date(day: group("d"), month: month, year: group("y"), today: today).map(PhraseMeaning.date)
    case .time:
      guard var hour = group("h").flatMap(vocabulary.number) else { return nil }
      let minute = group("half") != nil ? 30 : group("min").flatMap { Int($0) } ?? 0
      switch group("ap").flatMap(vocabulary.meridiem) {
      case .am?:
        guard (1...12).contains(hour) else { return nil }
        hour %= 12
      case .pm?:
        guard (1...12).contains(hour) else { return nil }
        hour = hour % 12 + 12
      case .noon?:
        guard (1...12).contains(hour) else { return nil }
        hour = hour == 12 ? 12 : hour + 12
      case nil:
        break
      }
      return TimeOfDay(hour: hour, minute: minute).map(PhraseMeaning.time)
    case .fixedTime(let hour):
      return TimeOfDay(hour: hour).map(PhraseMeaning.time)
    case .every(let fixed, let interval):
      guard let unit = fixed ?? group("u").flatMap(vocabulary.unit) else { return nil }
      let every = interval ?? count
      guard (1...999).contains(every) else { return nil }
      return .recurrence(RecurrenceRule(unit, interval: every), first: today)
    case .everyWorkday:
      let first = today.weekday.rawValue <= 5 ? today : today.adding(days: 8 - today.weekday.rawValue)
      return .recurrence(RecurrenceRule(.weekly, byDay: Weekday.workdays), first: first)
    case .everyWeekdays:
      let days = Array(Set(vocabulary.weekdays(in: group("wds") ?? ""))).sorted()
      guard let soonest = days.map({ (day: Weekday) in (day.rawValue - today.weekday.rawValue + 7) % 7 }).min() else {
        return nil
      }
      return .recurrence(RecurrenceRule(.weekly, byDay: days), first: today.adding(days: soonest))
    }
  }

  /// The day `day` of `month` in `year`, or, without a year, the next such day from `today` on.
  private static func date(day: String?, month: Int, year: String?, today: CalendarDate) -> CalendarDate? {
    guard let day = day.flatMap({ Int($0) }) else { return nil }
    if let year {
      return Int(year).flatMap { CalendarDate(year: $0, month: month, day: day) }
    }
    if let thisYear = CalendarDate(year: today.year, month: month, day: day), thisYear >= today { return thisYear }
    // Not this year any more (or 29 February of another year): the next year that has it, within four years.
    return (1...4).lazy.compactMap { CalendarDate(year: today.year + $0, month: month, day: day) }.first
  }
}

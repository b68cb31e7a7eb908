// RecurrenceRule: the subset of RFC 5545's RRULE that tasks repeat by (FREQ DAILY/WEEKLY/MONTHLY/YEARLY, INTERVAL,
// BYDAY, BYMONTHDAY, COUNT, UNTIL), read and written as RRULE text. Pure value; any thread.

/// How a task repeats, as an RFC 5545 RRULE of the subset tasks use.
public struct RecurrenceRule: Hashable, Sendable, CustomStringConvertible {
  public enum Frequency: String, Sendable, CaseIterable {
    case daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY"
  }

  public var frequency: Frequency
  /// Every `interval` days, weeks, months or years (1 or more).
  public var interval: Int
  /// On these weekdays (weekly: the days of each week; daily: only on these days, e.g. workdays).
  public var byDay: [Weekday]
  /// On these days of the month (1…31, or −31…−1 from the month's end), for monthly rules.
  public var byMonthDay: [Int]
  /// At most this many occurrences.
  public var count: Int?
  /// No occurrence after this date.
  public var until: CalendarDate?

  public init(
    _ frequency: Frequency, interval: Int = 1, byDay: [Weekday] = [], byMonthDay: [Int] = [], count: Int? = nil,
    until: CalendarDate? = nil
  ) {
    self.frequency = frequency
    self.interval = interval
    self.byDay = byDay
    self.byMonthDay = byMonthDay
    self.count = count
    self.until = until
  }

  /// Why RRULE text is not a rule of the subset; `part` names what was wrong, for a 400's message.
  public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public let part: String
    public init(part: String) { self.part = part }
    public var description: String { "recurrence.rrule: \(part) is not in the supported subset" }
  }

  /// Reads `FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE` (an optional leading `RRULE:` is allowed). Anything outside the subset
  /// (another part, BYDAY with an ordinal, FREQ=HOURLY, COUNT and UNTIL together, a repeated part) is an error.
  public init(rrule text: String) throws(ParseError) {
    var body = Substring(text)
    if body.uppercased().hasPrefix("RRULE:") { body = body.dropFirst(6) }
    var seen: Set<String> = []
    var frequency: Frequency?
    var interval = 1
    var byDay: [Weekday] = []
    var byMonthDay: [Int] = []
    var count: Int?
    var until: CalendarDate?
    for part in body.split(separator: ";", omittingEmptySubsequences: false) {
      let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard pair.count == 2 else { throw ParseError(part: String(part.isEmpty ? "an empty part" : part)) }
      let (name, value) = (pair[0].uppercased(), String(pair[1]))
      guard seen.insert(name).inserted else { throw ParseError(part: "\(name) twice") }
      switch name {
      case "FREQ":
        guard let known = Frequency(rawValue: value.uppercased()) else { throw ParseError(part: "FREQ=\(value)") }
        frequency = known
      case "INTERVAL":
        guard let number = Self.number(value), (1...1000).contains(number) else {
          throw ParseError(part: "INTERVAL=\(value)")
        }
        interval = number
      case "BYDAY":
        byDay = try value.split(separator: ",", omittingEmptySubsequences: false).map { code throws(ParseError) in
          guard let day = Weekday(code: String(code)) else { throw ParseError(part: "BYDAY=\(value)") }
          return day
        }
      case "BYMONTHDAY":
        byMonthDay = try value.split(separator: ",", omittingEmptySubsequences: false).map { text throws(ParseError) in
          let negative = text.hasPrefix("-")
          guard let magnitude = Self.number(negative ? String(text.dropFirst()) : String(text)),
            (1...31).contains(magnitude)
          else { throw ParseError(part: "BYMONTHDAY=\(value)") }
          return negative ? -magnitude : magnitude
        }
      case "COUNT":
        guard let number = Self.number(value), (1...10000).contains(number) else {
          throw ParseError(part: "COUNT=\(value)")
        }
        count = number
      case "UNTIL":
        // A DATE (YYYYMMDD), or a DATE-TIME in UTC whose date is taken.
        let digits = value.prefix(8)
        guard digits.count == 8, value.count == 8 || (value.count == 16 && value.hasSuffix("Z")),
          let date = CalendarDate(
            "\(digits.prefix(4))-\(digits.dropFirst(4).prefix(2))-\(digits.suffix(2))")
        else { throw ParseError(part: "UNTIL=\(value)") }
        until = date
      default:
        throw ParseError(part: name)
      }
    }
    guard let frequency else { throw ParseError(part: "a rule without FREQ") }
    if count != nil && until != nil { throw ParseError(part: "COUNT with UNTIL") }
    if !byMonthDay.isEmpty && frequency != .monthly { throw ParseError(part: "BYMONTHDAY outside FREQ=MONTHLY") }
    if !byDay.isEmpty && !(frequency == .weekly || frequency == .daily) {
      throw ParseError(part: "BYDAY outside FREQ=WEEKLY or DAILY")
    }
    self.init(frequency, interval: interval, byDay: byDay, byMonthDay: byMonthDay, count: count, until: until)
  }

  private static func number(_ text: String) -> Int? {
    guard !text.isEmpty, text.count <= 6, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return Int(text)
  }

  /// The RRULE text, parts in a fixed order (`FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE`).
  public var rrule: String {
    var parts = ["FREQ=\(frequency.rawValue)"]
    if interval != 1 { parts.append("INTERVAL=\(interval)") }
    if !byDay.isEmpty { parts.append("BYDAY=" + byDay.map(\.code).joined(separator: ",")) }
    if !byMonthDay.isEmpty { parts.append("BYMONTHDAY=" + byMonthDay.map(String.init).joined(separator: ",")) }
    if let count { parts.append("COUNT=\(count)") }
    if let until { parts.append("UNTIL=" + until.description.filter { $0 != "-" }) }
    return parts.joined(separator: ";")
  }

  public var description: String { rrule }

  // MARK: Occurrences

  /// The next occurrence strictly after `date`, which is itself one (the occurrence being finished, or for a task
  /// that repeats from completion, the day it was finished), as RFC 5545 reckons them with weeks starting on Monday:
  /// a day that does not exist is skipped, not moved (monthly on the 31st skips to the next month that has one;
  /// yearly on 29 February to the next leap year). Nil after UNTIL, when the rule has no further day (a daily rule
  /// whose interval never meets its weekdays), or when the next day would be past the calendar's end (`CalendarDate
  /// .last`): the series ends there. COUNT is the caller's to keep: it knows how many were done.
  public func occurrence(after date: CalendarDate) -> CalendarDate? {
    let next: CalendarDate?
    let start = date.dayNumber
    switch frequency {
    case .daily:
      next = (1...7).lazy.compactMap { CalendarDate(exactDayNumber: start + $0 * self.interval) }.first {
        self.byDay.isEmpty || self.byDay.contains($0.weekday)
      }
    case .weekly:
      let days = byDay.isEmpty ? [date.weekday] : byDay.sorted()
      let monday = start + 1 - date.weekday.rawValue
      if let later = days.first(where: { $0 > date.weekday }) {
        next = CalendarDate(exactDayNumber: monday + later.rawValue - 1)
      } else {
        next = CalendarDate(exactDayNumber: monday + 7 * interval + days[0].rawValue - 1)
      }
    case .monthly:
      let wanted = byMonthDay.isEmpty ? [date.day] : byMonthDay
      func days(monthsLater months: Int) -> [CalendarDate] {
        let index = date.year * 12 + (date.month - 1) + months
        let (year, month) = (index / 12, index % 12 + 1)
        guard year <= 9999 else { return [] }
        let length = CalendarDate.daysIn(month: month, year: year)
        return wanted.compactMap { CalendarDate(year: year, month: month, day: $0 > 0 ? $0 : length + $0 + 1) }.sorted()
      }
      next =
        days(monthsLater: 0).first { $0 > date }
        ?? (1...48).lazy.compactMap { days(monthsLater: $0 * self.interval).first }.first
    case .yearly:
      next =
        (1...8).lazy.compactMap {
          CalendarDate(year: date.year + $0 * self.interval, month: date.month, day: date.day)
        }.first
    }
    guard let next, next > date, until.map({ next <= $0 }) ?? true else { return nil }
    return next
  }
}

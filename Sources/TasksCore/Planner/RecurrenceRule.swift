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
}

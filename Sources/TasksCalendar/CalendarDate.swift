// CalendarDate, TimeOfDay, Weekday: a due date as iCalendar means a DATE (a day, not an instant: never midnight, never
// moved by a time zone) and a time of day. Pure values; any thread.

/// A day of the proleptic Gregorian calendar, as `YYYY-MM-DD` (RFC 3339 full-date).
public struct CalendarDate: Hashable, Comparable, Sendable, CustomStringConvertible {
  public let year: Int
  public let month: Int
  public let day: Int

  /// The date, if it exists (1 ≤ month ≤ 12, the day within the month; years 1…9999).
  public init?(year: Int, month: Int, day: Int) {
    guard (1...9999).contains(year), (1...12).contains(month), day >= 1,
      day <= Self.daysIn(month: month, year: year)
    else { return nil }
    self.year = year
    self.month = month
    self.day = day
  }

  /// Reads `YYYY-MM-DD` exactly; nil for anything else, or a day that does not exist (`2026-02-30`).
  public init?(_ text: String) {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
    else { return nil }
    self.init(year: year, month: month, day: day)
  }

  /// The first and last days a date can be: `0001-01-01` and `9999-12-31`, as `YYYY-MM-DD` can write them. Every
  /// value of this type lies between them, so that every date computed can be stored and read back.
  public static let first = CalendarDate(civil: -719_162)
  public static let last = CalendarDate(civil: 2_932_896)

  /// The date `dayNumber` days after 1970-01-01, or the first or last date when that day is before or after them
  /// (arithmetic saturates at the calendar's ends: "in 100 000 days" is 9999-12-31).
  public init(dayNumber: Int) {
    self.init(civil: min(max(dayNumber, -719_162), 2_932_896))
  }

  /// The date `dayNumber` days after 1970-01-01, or nil when that day is outside `first…last`.
  public init?(exactDayNumber dayNumber: Int) {
    guard (-719_162...2_932_896).contains(dayNumber) else { return nil }
    self.init(civil: dayNumber)
  }

  /// Howard Hinnant's civil-from-days, for a day number within `first…last`.
  private init(civil dayNumber: Int) {
    let z = dayNumber + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shifted = (5 * dayOfYear + 2) / 153
    day = dayOfYear - (153 * shifted + 2) / 5 + 1
    month = shifted < 10 ? shifted + 3 : shifted - 9
    year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  }

  /// Days since 1970-01-01 (negative before).
  public var dayNumber: Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  public var description: String {
    func padded(_ value: Int, _ width: Int) -> String {
      String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
    }
    return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
  }

  public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool { lhs.dayNumber < rhs.dayNumber }

  public var weekday: Weekday {
    // 1970-01-01 was a Thursday.
    Weekday(rawValue: ((dayNumber % 7 + 7) % 7 + 3) % 7 + 1)!
  }

  /// `days` days later (earlier when negative), saturating at `first` and `last`.
  public func adding(days: Int) -> CalendarDate {
    let (sum, overflow) = dayNumber.addingReportingOverflow(days)
    return overflow ? (days < 0 ? .first : .last) : CalendarDate(dayNumber: sum)
  }

  /// The same day `months` months later, or the month's last day when it is shorter ("in a month" on 31 January is
  /// the end of February); saturating at `first` and `last`.
  public func adding(months: Int) -> CalendarDate {
    let (index, overflow) = (year * 12 + (month - 1)).addingReportingOverflow(months)
    guard !overflow, index >= 12 else { return months < 0 ? .first : .last }
    let (newYear, newMonth) = (index / 12, index % 12 + 1)
    guard newYear <= 9999 else { return .last }
    return CalendarDate(year: newYear, month: newMonth, day: min(day, Self.daysIn(month: newMonth, year: newYear)))
      ?? self
  }

  /// The first day of this date's ISO week (a Monday).
  public var startOfWeek: CalendarDate { adding(days: 1 - weekday.rawValue) }

  public static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }
}

/// A time of day, `HH:MM` (24-hour).
public struct TimeOfDay: Hashable, Comparable, Sendable, CustomStringConvertible {
  public let hour: Int
  public let minute: Int

  public init?(hour: Int, minute: Int = 0) {
    guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
    self.hour = hour
    self.minute = minute
  }

  /// Reads `HH:MM` or `HH:MM:SS` (seconds dropped).
  public init?(_ text: String) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard (2...3).contains(parts.count), parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
      let hour = Int(parts[0]), let minute = Int(parts[1]), parts.count == 2 || Int(parts[2]).map({ $0 < 60 }) == true
    else { return nil }
    self.init(hour: hour, minute: minute)
  }

  public var description: String {
    (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
  }

  public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool {
    (lhs.hour, lhs.minute) < (rhs.hour, rhs.minute)
  }
}

/// A day of the week, ISO 8601 numbered (Monday 1 … Sunday 7), with RFC 5545's two-letter code.
public enum Weekday: Int, CaseIterable, Sendable, Comparable {
  case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

  /// `MO`, `TU`, … as in an RRULE's BYDAY.
  public var code: String { ["MO", "TU", "WE", "TH", "FR", "SA", "SU"][rawValue - 1] }

  public init?(code: String) {
    guard let index = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"].firstIndex(of: code.uppercased()) else {
      return nil
    }
    self.init(rawValue: index + 1)
  }

  public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }

  /// Monday to Friday.
  public static let workdays: [Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday]
}

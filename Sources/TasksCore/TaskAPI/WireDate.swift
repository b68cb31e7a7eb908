// WireDate: the task API's DateModified, read from its text. Any thread.

import FoundationEssentials

/// Reads a task's `DateModified` ("2016-07-26T20:14:05.123Z"; PROTOCOL.md, the task API).
enum WireDate {
  /// The date `text` names, or nil if it is not an ISO 8601 date and time.
  ///
  /// The protocol's own form (UTC, whole seconds with up to nine fractional digits, years 1583–9999) is read
  /// directly, giving exactly the date Foundation's ISO 8601 parser gives (a test compares 60 000 generated dates
  /// bit for bit); anything else (offsets, lenient dates such as 31 February) goes to that parser. Every start reads
  /// the whole offline copy, so this is on the start-up path (figures in Tests/Benchmarks/RESULTS.md).
  static func parse(_ text: String) -> Date? {
    utc(text) ?? (try? withFraction.parse(text)) ?? (try? wholeSeconds.parse(text))
  }

  private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
  private static let wholeSeconds = Date.ISO8601FormatStyle()

  /// `YYYY-MM-DDTHH:MM:SS[.f…]Z` with a real day of the Gregorian calendar, or nil.
  static func utc(_ text: String) -> Date? {
    var text = text
    return text.withUTF8 { bytes -> Date? in
      let count = bytes.count
      // 20 characters without a fraction, at most 30 with nine digits of it.
      guard (20...30).contains(count), bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
        bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
        bytes[count - 1] == UInt8(ascii: "Z")
      else { return nil }
      func number(_ range: Range<Int>) -> Int? {
        var value = 0
        for index in range {
          let digit = Int(bytes[index]) - Int(UInt8(ascii: "0"))
          guard (0...9).contains(digit) else { return nil }
          value = value * 10 + digit
        }
        return value
      }
      guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
        let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
        (1583...9999).contains(year), (1...12).contains(month), (1...daysIn(month, of: year)).contains(day),
        hour < 24, minute < 60, second < 60
      else { return nil }
      var nanoseconds = 0
      if count > 20 {
        let digits = 20..<(count - 1)
        guard bytes[19] == UInt8(ascii: "."), !digits.isEmpty, let fraction = number(digits) else { return nil }
        nanoseconds = fraction
        for _ in digits.count..<9 { nanoseconds *= 10 }
      }
      // As Foundation adds them (the last bit of the fraction depends on it): the day's start from 1 January 2001,
      // plus the time of day with its fraction.
      let dayStart = (daysSince1970(year, month, day) - 11_323) * 86_400
      let timeOfDay = Double(hour * 3_600 + minute * 60 + second) + Double(nanoseconds) / 1_000_000_000
      return Date(timeIntervalSinceReferenceDate: Double(dayStart) + timeOfDay)
    }
  }

  private static func daysIn(_ month: Int, of year: Int) -> Int {
    switch month {
    case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days from 1 January 1970 to a day of the (proleptic) Gregorian calendar, counted in 400-year eras of
  /// 146 097 days with March as the first month, so that 29 February ends a year.
  private static func daysSince1970(_ year: Int, _ month: Int, _ day: Int) -> Int {
    let marchYear = month <= 2 ? year - 1 : year
    let era = marchYear / 400  // years 1583–9999 only: never negative
    let yearOfEra = marchYear - era * 400
    let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}

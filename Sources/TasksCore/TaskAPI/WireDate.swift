// WireDate: the task API's DateModified, read from its text. Any thread.

import FoundationEssentials
import TasksCalendar

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
      func number(_ range: Range<Int>) -> Int? { JSONScanner.number(bytes[range]) }
      guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
        let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
        (1583...9999).contains(year), let date = CalendarDate(year: year, month: month, day: day),
        hour < 24, minute < 60, second < 60
      else { return nil }
      var nanoseconds = 0
      if count > 20 {
        let digits = 20..<(count - 1)
        guard bytes[19] == UInt8(ascii: "."), !digits.isEmpty, let fraction = number(digits) else { return nil }
        nanoseconds = fraction
        for _ in digits.count..<9 { nanoseconds *= 10 }
      }
      return date.utcInstant(hour: hour, minute: minute, second: second, nanoseconds: nanoseconds)
    }
  }
}

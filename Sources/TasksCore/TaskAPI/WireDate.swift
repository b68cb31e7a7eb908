// WireDate: the task API's DateModified, read from its text. Any thread.

import FoundationEssentials
import TasksCalendar

/// Reads a task's `DateModified` ("2016-07-26T20:14:05.123Z"; PROTOCOL.md, the task API).
enum WireDate {
  /// The date `text` names, or nil if it is not an ISO 8601 date and time.
  ///
  /// The protocol's own form (UTC, whole seconds with up to nine fractional digits, years 1583–9999) is read
  /// directly, giving exactly the date Foundation's ISO 8601 parser gives (a test compares 60 000 generated dates
  /// bit for bit); anything else (offsets, lenient dates such as 31 February) goes to that parser, and is kept when it
  /// falls in those years. Every start reads the whole offline copy, so this is on the start-up path (figures in
  /// Tests/Benchmarks/RESULTS.md).
  static func parse(_ text: String) -> Date? {
    if let date = utc(text) { return date }
    // Another form read by Foundation: only to the protocol's years, as the direct reading (an offset could move a
    // time past 9999, and the writers write four digits of year; before 1583 Foundation reads the Julian calendar).
    guard let date = (try? withFraction.parse(text)) ?? (try? wholeSeconds.parse(text)), range.contains(date)
    else { return nil }
    return date
  }

  /// 1583-01-01T00:00:00Z up to the last nanosecond of 9999, as `utc` reads them.
  private static let range =
    CalendarDate(year: 1583, month: 1, day: 1)!.utcInstant(
      hour: 0, minute: 0, second: 0, nanoseconds: 0)...CalendarDate(year: 9999, month: 12, day: 31)!.utcInstant(
      hour: 23, minute: 59, second: 59, nanoseconds: 999_999_999)

  private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
  private static let wholeSeconds = Date.ISO8601FormatStyle()

  /// `YYYY-MM-DDTHH:MM:SS[.f…]Z` with a real day of the Gregorian calendar, or nil.
  static func utc(_ text: String) -> Date? {
    var text = text
    return text.withUTF8 { utc(bytes: $0) }
  }

  /// `utc` of the text whose UTF-8 is `bytes`.
  static func utc(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
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

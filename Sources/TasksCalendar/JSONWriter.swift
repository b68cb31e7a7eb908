// JSONWriter: JSON written straight into bytes — texts, ids, UTC times — by the service's answers and the app's kept
// copies and requests (JSONScanner reads them back). Pure functions; any thread.

import FoundationEssentials
import Glibc

/// The parts of a JSON document that the service's answers and the app's documents write field by field, with no
/// dictionary per object and no `JSONEncoder` (a tree of boxed values, a dictionary per object, then a writer: a
/// quarter of a 100-task answer's CPU in the service, and most of the app's first save of 10 000 tasks; see
/// Tests/Benchmarks/RESULTS.md). The output is plain RFC 8259 JSON. Inlinable: called across modules, a text's
/// writer would not be specialized for its `String` or `Substring`, as it was in the service's own module.
public enum JSONWriter {
  /// `"…"`: quote, backslash and control characters escaped (as JSON requires; those with a short escape by it, as
  /// JSONScanner reads without leaving the text to a slower reader), everything else as its UTF-8.
  @inlinable public static func appendString(_ text: some StringProtocol, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    // Most texts need no escape: one copy of their bytes.
    guard text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
      out.append(contentsOf: text.utf8)
      out.append(UInt8(ascii: "\""))
      return
    }
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
      case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
      case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
      case UInt8(ascii: "\r"): out.append(contentsOf: #"\r"#.utf8)
      case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
      case 0x08: out.append(contentsOf: #"\b"#.utf8)
      case 0x0C: out.append(contentsOf: #"\f"#.utf8)
      case 0..<0x20:
        out.append(contentsOf: #"\u00"#.utf8)
        out.append(hexDigits[Int(byte >> 4)])
        out.append(hexDigits[Int(byte & 0xF)])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  /// `"…"`, lower case (as every id the API writes).
  @inlinable public static func appendID(_ id: UUID, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    withUnsafeBytes(of: id.uuid) { bytes in
      for (index, byte) in bytes.enumerated() {
        if index == 4 || index == 6 || index == 8 || index == 10 { out.append(UInt8(ascii: "-")) }
        out.append(hexDigits[Int(byte >> 4)])
        out.append(hexDigits[Int(byte & 0xF)])
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  /// `appendID`, or null.
  @inlinable public static func appendID(_ id: UUID?, to out: inout [UInt8]) {
    if let id { appendID(id, to: &out) } else { appendNull(to: &out) }
  }

  /// `null`.
  @inlinable public static func appendNull(to out: inout [UInt8]) { out.append(contentsOf: "null".utf8) }

  /// `"2026-11-25T09:00:00.000Z"` (`appendTimestamp`), or null.
  @inlinable public static func appendTime(_ date: Date?, to out: inout [UInt8]) {
    guard let date else { return appendNull(to: &out) }
    out.append(UInt8(ascii: "\""))
    appendTimestamp(date, to: &out)
    out.append(UInt8(ascii: "\""))
  }

  /// `appendTimestamp`'s text: how the service and the app write a time wherever a `String` is wanted.
  public static func timestamp(_ date: Date) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(24)
    appendTimestamp(date, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// `2016-07-26T20:14:05.123Z` (UTC, to the nearest millisecond, no quotes), as the original API wrote dates. A
  /// time read from such a text is written back as that text: few milliseconds are exact in binary, and rounded down
  /// (as Foundation's ISO8601FormatStyle does) some came out one less (JSONWriterTests).
  @inlinable public static func appendTimestamp(_ date: Date, to out: inout [UInt8]) {
    // Within years 0…9999 (a later or earlier time is not one the readers take), never a trap converting.
    let milliseconds = Int64(
      min(max((date.timeIntervalSince1970 * 1000).rounded(), -62_167_219_200_000), 253_402_300_799_999))
    var seconds = time_t(milliseconds.quotientAndRemainder(dividingBy: 1000).quotient)
    var millis = Int(milliseconds % 1000)
    if millis < 0 {  // before 1970: the remainder is negative
      millis += 1000
      seconds -= 1
    }
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func digits(_ value: Int, _ width: Int) {
      var divisor = 1
      for _ in 1..<width { divisor *= 10 }
      var rest = value
      while divisor > 0 {
        out.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
        rest %= divisor
        divisor /= 10
      }
    }
    digits(Int(parts.tm_year) + 1900, 4)
    out.append(UInt8(ascii: "-"))
    digits(Int(parts.tm_mon) + 1, 2)
    out.append(UInt8(ascii: "-"))
    digits(Int(parts.tm_mday), 2)
    out.append(UInt8(ascii: "T"))
    digits(Int(parts.tm_hour), 2)
    out.append(UInt8(ascii: ":"))
    digits(Int(parts.tm_min), 2)
    out.append(UInt8(ascii: ":"))
    digits(Int(parts.tm_sec), 2)
    out.append(UInt8(ascii: "."))
    digits(millis, 3)
    out.append(UInt8(ascii: "Z"))
  }

  /// A task's due date as the API writes it, `{"date":"2026-12-01","time":"09:00","timeZone":null}`, or null.
  @inlinable public static func appendDue(_ due: TaskDue?, to out: inout [UInt8]) {
    guard let due else { return appendNull(to: &out) }
    out.append(contentsOf: #"{"date":"#.utf8)
    appendString(due.date.description, to: &out)
    out.append(contentsOf: #","time":"#.utf8)
    if let time = due.time { appendString(time.description, to: &out) } else { appendNull(to: &out) }
    out.append(contentsOf: #","timeZone":"#.utf8)
    if let zone = due.timeZone { appendString(zone, to: &out) } else { appendNull(to: &out) }
    out.append(UInt8(ascii: "}"))
  }

  /// A task's repeat as the API writes it, `{"rrule":"FREQ=WEEKLY","from":"due"}`, or null.
  @inlinable public static func appendRecurrence(_ recurrence: TaskRecurrence?, to out: inout [UInt8]) {
    guard let recurrence else { return appendNull(to: &out) }
    out.append(contentsOf: #"{"rrule":"#.utf8)
    appendString(recurrence.rule.rrule, to: &out)
    out.append(contentsOf: #","from":"#.utf8)
    appendString(recurrence.from.rawValue, to: &out)
    out.append(UInt8(ascii: "}"))
  }

  /// A task's reminders as the API writes them: `[{"at":…` or `{"before":…`, then `"acknowledgedAt"` and
  /// `"snoozedUntil"`.
  @inlinable public static func appendReminders(_ reminders: [TaskReminder], to out: inout [UInt8]) {
    out.append(UInt8(ascii: "["))
    for (index, reminder) in reminders.enumerated() {
      out.append(contentsOf: (index == 0 ? "{" : ",{").utf8)
      switch reminder.when {
      case .at(let time):
        out.append(contentsOf: #""at":"#.utf8)
        appendTime(time, to: &out)
      case .before(let minutes):
        out.append(contentsOf: #""before":"#.utf8)
        out.append(contentsOf: String(minutes).utf8)
      }
      out.append(contentsOf: #","acknowledgedAt":"#.utf8)
      appendTime(reminder.acknowledgedAt, to: &out)
      out.append(contentsOf: #","snoozedUntil":"#.utf8)
      appendTime(reminder.snoozedUntil, to: &out)
      out.append(UInt8(ascii: "}"))
    }
    out.append(UInt8(ascii: "]"))
  }

  /// `["…",…]`.
  @inlinable public static func appendStrings(_ texts: [String], to out: inout [UInt8]) {
    out.append(UInt8(ascii: "["))
    for (index, text) in texts.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      appendString(text, to: &out)
    }
    out.append(UInt8(ascii: "]"))
  }

  @usableFromInline static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}

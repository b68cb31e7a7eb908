// TaskListJSON: the answer to GET /api/tasks, written straight into bytes. Pure functions.

import Foundation

/// The sample's JSON for a list of tasks, `[{"Id":1,"Owner":"…","Text":"…","Completed":false,"DateModified":
/// "2016-07-26T20:14:05.123Z"}]`, keys in the original API's order; `Owner` is the user's id at their issuer (the
/// stored owner without its issuer, `TaskOwner`).
///
/// Written by hand because it is the task API's hot path: Foundation's `JSONEncoder` (a tree of boxed values, a
/// dictionary per object, then a writer) took a quarter of the CPU time of a 100-task answer in a profile
/// (Tests/Benchmarks/RESULTS.md). The output is plain RFC 8259 JSON: strings escaped as JSON requires (quote,
/// backslash, control characters), everything else as UTF-8; the tests parse it back with a JSON parser.
public enum TaskListJSON {
  /// The JSON array of `tasks`.
  public static func encode(_ tasks: [TaskRecord]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(64 + tasks.reduce(0) { $0 + $1.owner.utf8.count + $1.text.utf8.count + 100 })
    out.append(UInt8(ascii: "["))
    for task in tasks {
      if out.count > 1 { out.append(UInt8(ascii: ",")) }
      out.append(contentsOf: #"{"Id":"#.utf8)
      out.append(contentsOf: String(task.id ?? 0).utf8)
      out.append(contentsOf: #","Owner":"#.utf8)
      appendString(TaskOwner.subject(ofKey: task.owner), to: &out)
      out.append(contentsOf: #","Text":"#.utf8)
      appendString(task.text, to: &out)
      out.append(
        contentsOf: (task.completed ? #","Completed":true,"DateModified":""# : #","Completed":false,"DateModified":""#)
          .utf8)
      appendTimestamp(task.dateModified, to: &out)
      out.append(contentsOf: #""}"#.utf8)
    }
    out.append(UInt8(ascii: "]"))
    return out
  }

  /// `"text"` with JSON's escapes.
  static func appendString(_ text: some StringProtocol, to out: inout [UInt8]) {
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
      case 0..<0x20:
        out.append(contentsOf: #"\u00"#.utf8)
        out.append(hexDigits[Int(byte >> 4)])
        out.append(hexDigits[Int(byte & 0xF)])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// `2016-07-26T20:14:05.123Z` (UTC, milliseconds rounded down), as the original API wrote dates.
  static func appendTimestamp(_ date: Date, to out: inout [UInt8]) {
    let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
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
}

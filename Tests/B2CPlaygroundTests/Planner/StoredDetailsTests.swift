// The details column's own reader (StoredDetails) against JSONSerialization: on what the service writes it reads the
// same object; on damaged or foreign text it either reads the same object or leaves the text to JSONSerialization.

import Foundation
import TasksCalendar
import TasksTestSupport
import Testing

@testable import TaskService

@Suite("Task API v2: the details column's reader")
struct StoredDetailsTests {
  /// Text that tries the escapes: quotes, backslashes, slashes, line breaks, tabs, control characters (written as
  /// \u escapes, left to JSONSerialization), bidi overrides, emoji and combining marks.
  static let pieces = [
    "a note", "\"quoted\"", "back\\slash", "https://example.com/a?b=c", "line\nbreak", "cr\r\n", "tab\t",
    "\u{1}bell", "\u{202E}evil", "👩‍👩‍👧", "e\u{301}", "{\"json\": [1, 2]}", "\\u0041", "",
  ]

  static func randomTask(_ random: inout SeededGenerator) throws -> PlannerTask {
    func text(_ random: inout SeededGenerator) -> String {
      (0..<Int.random(in: 0...3, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }
    var task = PlannerTask(title: "t")
    task.notes = text(&random)
    task.priority = Int.random(in: 0...9, using: &random)
    task.categories = (0..<Int.random(in: 0...3, using: &random)).map { index in
      // A category is one line.
      "c\(index) " + String(String.UnicodeScalarView(text(&random).unicodeScalars.filter { $0 != "\n" && $0 != "\r" }))
    }
    task.sortKey = Bool.random(using: &random) ? "a\(Int.random(in: 0...999, using: &random))" : ""
    task.occurrencesDone = Int.random(in: 0...40, using: &random)
    if Bool.random(using: &random) {
      task.due = TaskDue(
        date: CalendarDate("2026-12-\(String(format: "%02d", Int.random(in: 1...31, using: &random)))")!,
        time: Bool.random(using: &random) ? TimeOfDay("09:30") : nil,
        timeZone: Bool.random(using: &random) ? "America/Argentina/Buenos_Aires" : nil)
    }
    if Bool.random(using: &random) {
      task.recurrence = TaskRecurrence(
        rule: try RecurrenceRule(rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE"),
        from: Bool.random(using: &random) ? .due : .completion)
      task.lastOccurrenceDone = Bool.random(using: &random) ? CalendarDate("2026-11-30") : nil
    }
    task.reminders = (0..<Int.random(in: 0...3, using: &random)).map { _ in
      let time = Date(timeIntervalSince1970: 1_795_000_000 + Double(Int.random(in: 0...99_999, using: &random)) / 8)
      return TaskReminder(
        Bool.random(using: &random) ? .at(time) : .before(minutes: Int.random(in: 0...10_080, using: &random)),
        acknowledgedAt: Bool.random(using: &random) ? time : nil,
        snoozedUntil: Bool.random(using: &random) ? time.addingTimeInterval(600) : nil)
    }
    return task
  }

  /// JSONSerialization's reading of `text`, when it is an object.
  static func foundation(_ text: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
  }

  /// Whether two JSON values hold the same: the same kinds (a boolean is not a number), keys, elements and values.
  static func same(_ a: Any, _ b: Any) -> Bool {
    if a is NSNull || b is NSNull { return a is NSNull && b is NSNull }
    if let x = a as? String, let y = b as? String { return x == y }
    if let x = a as? [String: Any], let y = b as? [String: Any] {
      return Set(x.keys) == Set(y.keys) && x.allSatisfy { key, value in same(value, y[key]!) }
    }
    if let x = a as? [Any], let y = b as? [Any] { return x.count == y.count && zip(x, y).allSatisfy(same) }
    if let x = a as? NSNumber, let y = b as? NSNumber {
      let isBool = { (n: NSNumber) in String(cString: n.objCType) == "c" }
      return isBool(x) == isBool(y) && x == y
    }
    return false
  }

  @Test("what the service writes is read as JSONSerialization reads it; only text with a \\u escape is left to it")
  func writtenDetails() throws {
    var random = SeededGenerator(seed: 66)
    var readHere = 0
    for _ in 0..<3_000 {
      let task = try Self.randomTask(&random)
      let details = task.details
      let expected = try #require(Self.foundation(details))
      guard let object = StoredDetails.object(details) else {
        #expect(details.contains("\\u"), "left to JSONSerialization without a \\u escape: \(details)")
        continue
      }
      readHere += 1
      #expect(Self.same(object, expected), "\(details)")
      let stored = try PlannerTask(title: "t", completed: false, completedAt: nil, parentID: nil, details: details)
      #expect(stored == task, "\(details)")
    }
    #expect(readHere > 1_000, "most details are read here: \(readHere) of 3 000")
  }

  @Test("damaged details: read as JSONSerialization reads them, or left to it; never a different object")
  func damagedDetails() throws {
    var random = SeededGenerator(seed: 6_606)
    let alphabet = Array(#"{}[]":,\/ 0123456789-.eEnulltrufas"#.utf8) + [0x0A, 0x01, 0xC3, 0xA9]
    var readHere = 0
    for _ in 0..<20_000 {
      var bytes = Array(try Self.randomTask(&random).details.utf8)
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        let at = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0...2, using: &random) {
        case 0: bytes.remove(at: at)
        case 1: bytes.insert(alphabet.randomElement(using: &random)!, at: at)
        default: bytes[at] = alphabet.randomElement(using: &random)!
        }
        if bytes.isEmpty { bytes = [UInt8(ascii: "{")] }
      }
      let text = String(decoding: bytes, as: UTF8.self)
      guard let object = StoredDetails.object(text) else { continue }
      readHere += 1
      let expected = Self.foundation(text)
      #expect(expected.map { Self.same(object, $0) } == true, "read here, not so by JSONSerialization: \(text)")
    }
    #expect(readHere > 100, "some damaged details are still JSON objects: \(readHere)")
  }

  @Test(
    "foreign JSON is left to JSONSerialization",
    arguments: [
      "", " ", "{", "}", "[]", "null", "\"text\"", "{\"a\":1,}", "{\"a\":01}", "{\"a\":1.5}", "{\"a\":1e3}",
      "{\"a\":\"\\u0041\"}", "{\"a\":1,\"a\":2}", "{\"a\":1} x", "{\"a\":[[[[[1]]]]]}", "{\"a\":\"\u{1}\"}",
      "{\"a\":\"x\\q\"}", "{\"a\":1234567890123456}", "{\"a\":tru}", "{a:1}", "{\"a\" 1}",
    ])
  func foreign(_ text: String) {
    #expect(StoredDetails.object(text) == nil)
  }

  @Test("a damaged details column still makes the task unreadable, named, whichever reader refused it")
  func unreadable() {
    for details in [
      "{\"notes\":\"\u{7F}\"}", "{\"priority\":true}", "{\"due\":{\"date\":\"2026-02-30\"}}", "[1]",
      "{\"notes\":\"\\u0000\"}",
    ] {
      #expect(throws: FieldError.self, "\(details)") {
        try PlannerTask(title: "t", completed: false, completedAt: nil, parentID: nil, details: details)
      }
    }
  }
}

// The details column's typed reader (StoredDetails) against the general one (JSONSerialization, then the checks of
// TaskChanges(object:)): whatever the typed reader reads, the general one reads as the same task; what the general
// one refuses, the typed one leaves to it. On what the service writes, on damaged text and on hostile values.

import Foundation
import TasksCalendar
import TasksTestSupport
import Testing

@testable import TaskService

@Suite("Task API v2: the details column's typed reader")
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

  /// The typed reader's task, or nil when it leaves the text to the general reader.
  static func typed(_ text: String) -> PlannerTask? {
    var task = PlannerTask(title: "t")
    return StoredDetails.read(text, into: &task) ? task : nil
  }

  /// The general reader's task or error; nil when the text is not a JSON object.
  static func general(_ text: String) -> Result<PlannerTask, FieldError>? {
    guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
      return nil
    }
    var task = PlannerTask(title: "t")
    do throws(FieldError) { try task.readDetails(object) } catch { return .failure(error) }
    return .success(task)
  }

  /// Checks that what the typed reader read, the general reader read the same; answers whether it was read.
  @discardableResult
  static func agree(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    guard let typed = typed(text) else { return false }
    #expect(
      general(text) == .success(typed), "read by the typed reader only, or differently: \(text)",
      sourceLocation: sourceLocation)
    return true
  }

  @Test("what the service writes is read to the same task; only text with a \\u escape is left to the general reader")
  func writtenDetails() throws {
    var random = SeededGenerator(seed: 66)
    var readHere = 0
    for _ in 0..<3_000 {
      let task = try Self.randomTask(&random)
      let details = task.details
      guard Self.agree(details) else {
        #expect(details.contains("\\u"), "left to the general reader without a \\u escape: \(details)")
        continue
      }
      readHere += 1
      #expect(Self.typed(details) == task, "\(details)")
      let stored = try PlannerTask(title: "t", completed: false, completedAt: nil, parentID: nil, details: details)
      #expect(stored == task, "\(details)")
    }
    #expect(readHere > 1_000, "most details are read here: \(readHere) of 3 000")
  }

  @Test("damaged details: read to the task the general reader reads, or left to it")
  func damagedDetails() throws {
    var random = SeededGenerator(seed: 6_606)
    let alphabet = Array(#"{}[]":,\/ 0123456789-.eEnulltrufasTZ"#.utf8) + [0x0A, 0x01, 0x7F, 0xC2, 0x85, 0xC3, 0xA9]
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
      if Self.agree(String(decoding: bytes, as: UTF8.self)) { readHere += 1 }
    }
    #expect(readHere > 300, "many damaged details still read (a digit or a letter of text changed): \(readHere)")
  }

  /// Details with `key` set to the JSON text `value` (the other fields as a task with a due date writes them).
  static func details(_ key: String, _ value: String) -> String {
    var task = PlannerTask(title: "t")
    task.due = TaskDue(date: CalendarDate("2026-12-01")!, time: TimeOfDay("09:00"))
    var object = task.detailsObject
    object[key] = nil
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    let rest = String(decoding: data, as: UTF8.self)
    return "{\"\(key)\":\(value)," + rest.dropFirst()
  }

  static let at = #""2026-11-25T09:00:00.000Z""#

  /// Values the service writes, at the edges of what a field holds: the typed reader reads each.
  static let edges: [(String, String)] = [
    ("notes", #""tab\tline\nreturn\r""#), ("notes", "\"" + String(repeating: "é", count: 100_000) + "\""),
    ("notes", #""\"\\\/""#), ("notes", "null"), ("priority", "9"), ("priority", "0"), ("priority", "null"),
    ("sortKey", "\"" + String(repeating: "k", count: 100) + "\""),
    ("categories", "[" + (0..<50).map { "\"c\($0)\"" }.joined(separator: ",") + "]"), ("categories", #"["a","a"]"#),
    ("categories", "[\"" + String(repeating: "👩‍👩‍👧", count: 14) + "\"]"),
    ("due", #"{"date":"2026-02-28","time":"23:59","timeZone":"Europe/Helsinki"}"#),
    ("due", #"{"date":"2024-02-29","time":null,"timeZone":null}"#), ("due", #"{"date":"0001-01-01"}"#),
    ("due", #"{"time":"00:00","date":"9999-12-31","timeZone":"UTC"}"#),
    ("recurrence", #"{"rrule":"FREQ=WEEKLY"}"#), ("recurrence", #"{"from":"completion","rrule":"FREQ=DAILY"}"#),
    ("reminders", "[{\"at\":\(at)}]"), ("reminders", #"[{"at":"1970-01-01T00:00:00.000Z"}]"#),
    ("reminders", #"[{"at":"9999-12-31T23:59:59.999Z","acknowledgedAt":null,"snoozedUntil":null}]"#),
    ("reminders", #"[{"before":525600,"acknowledgedAt":"2000-02-29T12:34:56.789Z"}]"#), ("reminders", "[]"),
    ("reminders", "[" + Array(repeating: #"{"before":0}"#, count: 20).joined(separator: ",") + "]"),
    ("lastOccurrenceDone", #""2026-11-30""#), ("occurrencesDone", "999999999"), ("occurrencesDone", "0"),
  ]

  @Test("values at the edges of what a field holds are read here, as the general reader reads them")
  func edgeValues() {
    for (key, value) in Self.edges {
      let text = Self.details(key, value)
      #expect(Self.agree(text), "left to the general reader: \(key): \(value.prefix(80))")
    }
  }

  /// What another member, a damaged database or an older release could leave: each is read as the general reader
  /// reads it, or left to it.
  static let hostile: [(String, String)] = [
    ("notes", "\"\u{7F}\""), ("notes", "\"a\u{85}b\""), ("notes", "\"\u{9F}\""), ("notes", "\"\u{A0}\""),
    ("notes", #""\b""#), ("notes", #""\f""#), ("notes", #""\u0000""#), ("notes", "\"\u{2028}\u{202E}\""),
    ("notes", "\"" + String(repeating: "é", count: 100_001) + "\""), ("notes", "1"), ("notes", "true"),
    ("notes", "[]"), ("notes", "{}"), ("priority", "10"), ("priority", "-1"), ("priority", "-0"), ("priority", "1.0"),
    ("priority", "1e0"), ("priority", "true"), ("priority", #""1""#), ("priority", "01"), ("priority", "1000000000"),
    ("sortKey", #""a\nb""#), ("sortKey", "\"" + String(repeating: "k", count: 101) + "\""), ("sortKey", "\"\u{85}\""),
    ("categories", #"[""]"#), ("categories", #"["a\n"]"#), ("categories", #"["a\r"]"#), ("categories", "[1]"),
    ("categories", "[null]"), ("categories", #""a""#), ("categories", "{}"),
    ("categories", "[" + (0..<51).map { "\"c\($0)\"" }.joined(separator: ",") + "]"),
    ("categories", "[\"" + String(repeating: "x", count: 101) + "\"]"),
    ("due", #"{"date":"2026-02-30"}"#), ("due", #"{"date":"2026-2-28"}"#), ("due", #"{"date":"+026-02-28"}"#),
    ("due", #"{"date":"2026-02-28","time":"24:00"}"#), ("due", #"{"date":"2026-02-28","time":"9:00"}"#),
    ("due", #"{"date":"2026-02-28","time":"09:00:30"}"#), ("due", #"{"date":"2026-02-28","time":"+9:00"}"#),
    ("due", #"{"date":"2026-02-28","time":"09:00","timeZone":"Mars/Base"}"#),
    ("due", #"{"date":"2026-02-28","time":"09:00","timeZone":"utc"}"#),
    ("due", #"{"date":"2026-02-28","timeZone":"Europe/Helsinki"}"#), ("due", #"{"date":"2026-02-28","x":1}"#),
    ("due", #"{"time":"09:00"}"#), ("due", #"{"date":null}"#), ("due", "[]"), ("due", #""2026-02-28""#),
    ("due", #"{"date":"2026-02-28","date":"2026-03-01"}"#),
    ("recurrence", #"{"rrule":"FREQ=WEEKLY","from":null}"#), ("recurrence", #"{"rrule":"FREQ=SECONDLY"}"#),
    ("recurrence", #"{"rrule":1}"#), ("recurrence", #"{"from":"due"}"#),
    ("recurrence", #"{"rrule":"FREQ=WEEKLY","from":"x"}"#),
    ("reminders", #"[{"at":"2026-11-25T09:00:00Z"}]"#), ("reminders", #"[{"at":"2026-11-25T09:00:00.000+02:00"}]"#),
    ("reminders", #"[{"at":"2026-11-25T09:00:00.1234Z"}]"#), ("reminders", #"[{"at":"1969-12-31T23:59:59.999Z"}]"#),
    ("reminders", #"[{"at":"2026-11-25T24:00:00.000Z"}]"#), ("reminders", #"[{"at":"2026-11-25T23:59:60.000Z"}]"#),
    ("reminders", #"[{"at":"2026-02-30T09:00:00.000Z"}]"#), ("reminders", #"[{"at":"2026-11-25 09:00:00.000Z"}]"#),
    ("reminders", #"[{"at":"2026-11-25t09:00:00.000z"}]"#), ("reminders", #"[{"before":525601}]"#),
    ("reminders", #"[{"before":-1}]"#), ("reminders", "[{\"at\":\(at),\"before\":5}]"), ("reminders", "[{}]"),
    ("reminders", #"[{"at":null,"before":null}]"#), ("reminders", #"[{"before":5,"acknowledgedAt":"garbage"}]"#),
    ("reminders", #"[{"before":5,"snoozedUntil":5}]"#), ("reminders", #"[{"before":5,"x":1}]"#),
    ("reminders", #"[{"before":5,"before":6}]"#), ("reminders", "[1]"), ("reminders", "{}"),
    ("reminders", "[" + Array(repeating: #"{"before":0}"#, count: 21).joined(separator: ",") + "]"),
    ("lastOccurrenceDone", #""2026-02-30""#), ("lastOccurrenceDone", "5"), ("occurrencesDone", "-1"),
    ("occurrencesDone", "1000000000"), ("occurrencesDone", "true"), ("occurrencesDone", "2.5"),
    ("title", #""""#), ("title", #""x""#), ("status", #""x""#), ("completedAt", #""x""#), ("parentId", #""x""#),
    ("listId", "1"), ("foo", "1"), (#"notes\u0000"#, "1"),
  ]

  @Test("hostile values are read as the general reader reads them, or left to it")
  func hostileValues() {
    var refused = 0
    for (key, value) in Self.hostile {
      let text = Self.details(key, value)
      Self.agree(text)
      if case .failure = Self.general(text) { refused += 1 }
    }
    // The list is mostly values a check refuses: the typed reader must have left every one of them alone.
    #expect(refused > 60, "\(refused) of \(Self.hostile.count) refused by the general reader")
  }

  @Test("a reminder's time anywhere from 1970 to 9999, and every millisecond near 2001, is the ISO 8601 parser's")
  func times() {
    var random = SeededGenerator(seed: 1_970)
    // Near 1 January 2001 (Foundation's reference date) the sum is small and the order of the additions shows in
    // its last bit (a reviewer found 2 % of them read otherwise): 20 000 milliseconds from mid-November 2000 to
    // mid-February 2001.
    let near2001 = stride(from: 974_000_000_000, through: 982_000_000_000, by: 399_997).map { $0 }
    let anywhere = (0..<20_000).map { _ in Int.random(in: 0...253_402_300_799_999, using: &random) }
    for milliseconds in near2001 + anywhere {
      let time = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
      let text = Self.details("reminders", "[{\"at\":\"\(JSONWriter.timestamp(time))\"}]")
      #expect(Self.agree(text), "\(text)")
    }
  }

  @Test(
    "foreign JSON is left to the general reader",
    arguments: [
      "", " ", "{", "}", "[]", "null", "\"text\"", "{\"notes\":\"a\",}", "{\"priority\":01}",
      "{\"priority\":1.5}", "{\"priority\":1e3}", "{\"notes\":\"\\u0041\"}", "{\"notes\":\"a\",\"notes\":\"b\"}",
      "{\"notes\":\"a\"} x", "{\"a\":[[[[[1]]]]]}", "{\"notes\":\"\u{1}\"}", "{\"notes\":\"x\\q\"}",
      "{\"priority\":1234567890123456}", "{\"priority\":tru}", "{notes:1}", "{\"notes\" \"a\"}",
    ])
  func foreign(_ text: String) {
    #expect(Self.typed(text) == nil)
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

// The app's typed reader of the change feed (PlannerFeedReader) against its Codable reader: whatever the typed
// reader reads, the Codable one reads the same; what the Codable one refuses, the typed one leaves to it. On pages
// as the copy writes them, on damaged pages and on hostile values.

import Foundation
import TasksCalendar
import TasksTestSupport
import Testing

@testable import TasksCore

@Suite("Task API v2 in the app: the change feed's typed reader")
struct PlannerFeedReaderTests {
  /// Text that tries the escapes: quotes, backslashes, slashes, line breaks, tabs, control characters (written as
  /// \u escapes, left to the Codable reader), DEL and C1, bidi overrides, emoji and combining marks.
  static let pieces = [
    "a note", "\"quoted\"", "back\\slash", "https://example.com/a?b=c", "line\nbreak", "cr\r\n", "tab\t",
    "\u{1}bell", "\u{7F}del", "c1\u{85}", "\u{202E}evil", "👩‍👩‍👧", "e\u{301}", "{\"json\": [1, 2]}", "\\u0041", "",
  ]

  static func text(_ random: inout SeededGenerator) -> String {
    (0..<Int.random(in: 0...3, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
  }

  static func id(_ random: inout SeededGenerator) -> UUID {
    var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &bytes) { out in
      for index in out.indices { out[index] = UInt8.random(in: 0...255, using: &random) }
    }
    return UUID(uuid: bytes)
  }

  /// A time in milliseconds between 1970 and 9999 (what the copy keeps).
  static func time(_ random: inout SeededGenerator) -> Date {
    Date(timeIntervalSince1970: Double(Int.random(in: 0...253_402_300_799_999, using: &random)) / 1000)
  }

  static func randomTask(_ random: inout SeededGenerator) throws -> PlannerItem {
    var task = PlannerItem(
      id: id(&random), listID: id(&random), title: "t" + text(&random), createdAt: time(&random),
      version: Int64.random(in: 0...999_999, using: &random))
    task.updatedAt = time(&random)
    task.notes = text(&random)
    task.priority = Int.random(in: 0...9, using: &random)
    task.categories = (0..<Int.random(in: 0...3, using: &random)).map { _ in text(&random) }
    task.sortKey = Bool.random(using: &random) ? "a\(Int.random(in: 0...999, using: &random))" : ""
    if Bool.random(using: &random) { task.parentID = id(&random) }
    if Bool.random(using: &random) { task.changedBy = id(&random) }
    if Bool.random(using: &random) {
      task.status = .completed
      task.completedAt = time(&random)
    }
    if Bool.random(using: &random) {
      task.due = TaskDue(
        date: CalendarDate(dayNumber: Int.random(in: -719_162...2_932_896, using: &random)),
        time: Bool.random(using: &random) ? TimeOfDay(hour: Int.random(in: 0...23, using: &random), minute: 7) : nil,
        timeZone: Bool.random(using: &random) ? "America/Argentina/Buenos_Aires" : nil)
    }
    if Bool.random(using: &random) {
      task.recurrence = TaskRecurrence(
        rule: try RecurrenceRule(rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE"),
        from: Bool.random(using: &random) ? .due : .completion)
      if Bool.random(using: &random) {
        task.occurrencesDone = Int.random(in: 1...999, using: &random)
        task.lastOccurrenceDone = CalendarDate(dayNumber: Int.random(in: -719_162...2_932_896, using: &random))
      }
    }
    task.reminders = (0..<Int.random(in: 0...3, using: &random)).map { _ in
      TaskReminder(
        Bool.random(using: &random)
          ? .at(time(&random)) : .before(minutes: Int.random(in: 0...525_600, using: &random)),
        acknowledgedAt: Bool.random(using: &random) ? time(&random) : nil,
        snoozedUntil: Bool.random(using: &random) ? time(&random) : nil)
    }
    return task
  }

  /// A page as the kept copy writes one (JSONEncoder of the service's fields).
  static func page(_ random: inout SeededGenerator, tasks: Int) throws -> (Data, PlannerChanges) {
    var list = PlannerListItem(id: id(&random), name: "L" + text(&random))
    list.sortKey = text(&random)
    list.isDefault = Bool.random(using: &random)
    list.shared = Bool.random(using: &random)
    list.role = Bool.random(using: &random) ? .owner : .member
    list.version = Int64.random(in: 0...99, using: &random)
    // The service writes a list's times too; the app does not keep them.
    let listObject: [String: JSONValue] = [
      "id": .string(list.id.uuidString.lowercased()), "name": .string(list.name), "sortKey": .string(list.sortKey),
      "isDefault": .boolean(list.isDefault), "role": .string(list.role.rawValue), "shared": .boolean(list.shared),
      "version": .integer(list.version), "createdAt": .string("2026-11-20T08:00:00.000Z"), "updatedAt": .null,
    ]
    let items = try (0..<tasks).map { _ in try randomTask(&random) }
    let changes = PlannerChanges(
      lists: [list], tasks: items, deletedLists: [id(&random)], deletedTasks: [id(&random), id(&random)],
      next: "c\(Int.random(in: 0...99_999, using: &random))", more: Bool.random(using: &random))
    let document = JSONValue.object([
      "next": .string(changes.next), "more": .boolean(changes.more), "lists": .array([.object(listObject)]),
      "tasks": .array(items.map(\.jsonValue)),
      "deleted": .object([
        "lists": .array(changes.deletedLists.map { .string($0.uuidString.lowercased()) }),
        "tasks": .array(changes.deletedTasks.map { .string($0.uuidString) }),
      ]),
    ])
    return (try JSONEncoder().encode(document), changes)
  }

  static func general(_ data: Data) -> Result<PlannerChanges, PlannerJSONError> {
    do throws(PlannerJSONError) { return .success(try PlannerJSONReader.decode(PlannerChanges.self, from: data)) } catch
    {
      return .failure(error)
    }
  }

  /// Checks that what the typed reader read, the Codable reader read the same; answers whether it was read.
  @discardableResult
  static func agree(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    guard let typed = PlannerFeedReader.changes(data) else { return false }
    #expect(
      general(data) == .success(typed),
      "read by the typed reader only, or differently: \(String(decoding: data.prefix(600), as: UTF8.self))",
      sourceLocation: sourceLocation)
    return true
  }

  @Test("pages as the copy writes them are read to the same lists and tasks; only \\u escapes are left")
  func written() throws {
    var random = SeededGenerator(seed: 66)
    var readHere = 0
    for _ in 0..<1_000 {
      let (data, changes) = try Self.page(&random, tasks: Int.random(in: 0...3, using: &random))
      guard Self.agree(data) else {
        #expect(String(decoding: data, as: UTF8.self).contains("\\u"), "left without a \\u escape")
        continue
      }
      readHere += 1
      // The copy keeps times to the millisecond: the rest is kept as it was.
      let read = try #require(PlannerFeedReader.changes(data))
      #expect(read.lists == changes.lists && read.next == changes.next && read.more == changes.more)
      #expect(read.deletedLists == changes.deletedLists && read.deletedTasks == changes.deletedTasks)
      #expect(read.tasks.map(\.id) == changes.tasks.map(\.id) && read.tasks.map(\.title) == changes.tasks.map(\.title))
      #expect(read.tasks.map(\.categories) == changes.tasks.map(\.categories))
      #expect(read.tasks.map(\.occurrencesDone) == changes.tasks.map(\.occurrencesDone))
      #expect(read.tasks.map(\.lastOccurrenceDone) == changes.tasks.map(\.lastOccurrenceDone))
      #expect(
        read.tasks.map(\.due) == changes.tasks.map(\.due) && read.tasks.map(\.notes) == changes.tasks.map(\.notes))
      #expect(PlannerFeedReader.head(data)! == (changes.more, changes.next))
    }
    #expect(readHere > 150, "pages without a control character are read here: \(readHere) of 1 000")
  }

  @Test("damaged pages: read to what the Codable reader reads, or left to it; a head read agrees with the page's")
  func damaged() throws {
    var random = SeededGenerator(seed: 6_606)
    let alphabet = Array(#"{}[]":,\/ 0123456789-.eEnulltrufasTZ"#.utf8) + [0x0A, 0x01, 0x7F, 0xC2, 0x85, 0xC3, 0xFF]
    var readHere = 0
    for _ in 0..<10_000 {
      var bytes = Array(try Self.page(&random, tasks: 1).0)
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        let at = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0...2, using: &random) {
        case 0: bytes.remove(at: at)
        case 1: bytes.insert(alphabet.randomElement(using: &random)!, at: at)
        default: bytes[at] = alphabet.randomElement(using: &random)!
        }
      }
      let data = Data(bytes)
      if Self.agree(data) { readHere += 1 }
      // A head read from a page that does not decode is allowed: the page is refused when it is decoded.
      if let head = PlannerFeedReader.head(data), case .success(let page) = Self.general(data) {
        #expect(head == (page.more, page.next), "\(String(decoding: data, as: UTF8.self))")
      }
    }
    #expect(readHere > 100, "many damaged pages still read (a letter of text changed): \(readHere)")
  }

  /// A page whose one task has `key` set to the JSON text `value` (the other members as the copy writes them).
  static func page(_ key: String, _ value: String) throws -> Data {
    var task = PlannerItem(id: UUID(), listID: UUID(), title: "t", createdAt: Date(timeIntervalSince1970: 1e9))
    task.due = TaskDue(date: CalendarDate(year: 2026, month: 12, day: 1)!)
    guard case .object(var object) = task.jsonValue else { return Data() }
    object[key] = nil
    let rest = String(decoding: try JSONEncoder().encode(JSONValue.object(object)), as: UTF8.self)
    let item = "{\"\(key)\":\(value)," + rest.dropFirst()
    return Data(#"{"next":"c1","more":false,"lists":[],"deleted":{"lists":[],"tasks":[]},"tasks":[\#(item)]}"#.utf8)
  }

  static let at = #""2026-11-25T09:00:00.000Z""#

  /// Values at the edges of what the Codable reader takes: the typed reader reads each.
  static let edges: [(String, String)] = [
    ("title", #""""#), ("title", #""\"\\\/\b\f\n\r\t""#), ("notes", "\"\u{7F}\u{85}\u{202E}\""), ("priority", "9"),
    ("priority", "0"), ("priority", "null"), ("version", "999999999999999"), ("parentId", "null"),
    ("changedBy", #""6F1C3A52-93B4-4C1E-9A57-2D8E0B7C4F10""#), ("completedAt", #""1583-01-01T00:00:00Z""#),
    ("completedAt", #""9999-12-31T23:59:59.999999999Z""#), ("createdAt", #""2026-11-25T09:00:00.1Z""#),
    ("due", #"{"date":"2024-02-29","time":"23:59","timeZone":"Mars/Base"}"#), ("due", #"{"date":"0001-01-01"}"#),
    ("recurrence", #"{"from":"completion","rrule":"FREQ=DAILY"}"#), ("reminders", "[{\"at\":\(at)}]"),
    ("reminders", #"[{"before":525600,"acknowledgedAt":null,"snoozedUntil":"2026-11-25T09:00:00Z"}]"#),
    ("reminders", "[]"), ("reminders", "null"), ("categories", #"["", "a", "a"]"#), ("sortKey", "null"),
    ("notes", "\"" + String(repeating: "é", count: 100_001) + "\""), ("occurrencesDone", "999999999"),
    ("occurrencesDone", "0"), ("occurrencesDone", "null"), ("lastOccurrenceDone", #""2026-12-01""#),
    ("lastOccurrenceDone", "null"),
  ]

  @Test("values at the edges of what a field holds are read here, as the Codable reader reads them")
  func edgeValues() throws {
    for (key, value) in Self.edges {
      #expect(Self.agree(try Self.page(key, value)), "left to the Codable reader: \(key): \(value.prefix(80))")
    }
  }

  /// What a hostile or broken service could send: each is read as the Codable reader reads it, or left to it.
  static let hostile: [(String, String)] = [
    ("id", #""x""#), ("id", "null"), ("id", "1"), ("listId", #""6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f1""#),
    ("title", "null"), ("title", "1"), ("title", #""\u0041""#), ("title", "\"\u{1}\""), ("title", #""\q""#),
    ("status", #""done""#), ("status", "null"), ("priority", "10"), ("priority", "-1"), ("priority", "5.0"),
    ("priority", "5.5"), ("priority", "true"), ("priority", #""1""#), ("priority", "01"), ("priority", "1e0"),
    ("version", "-1"), ("version", "null"), ("version", "1e3"), ("version", "1234567890123456"),
    ("completedAt", #""yesterday""#), ("completedAt", #""2026-11-25T09:00:00+02:00""#),
    ("completedAt", #""2026-02-30T09:00:00Z""#), ("completedAt", #""2026-11-25T24:00:00Z""#),
    ("completedAt", #""1582-12-31T23:59:59Z""#), ("createdAt", "null"), ("updatedAt", #""2026-11-25""#),
    ("due", #"{"date":"2026-02-30"}"#), ("due", #"{"date":"2026-02-28","time":"24:00"}"#),
    ("due", #"{"date":"2026-02-28","time":"9:00"}"#), ("due", #"{"date":"2026-02-28","time":"09:00:30"}"#),
    ("due", #"{"date":"2026-02-28","time":"+9:00"}"#), ("due", #"{"date":"2026-02-28","timeZone":1}"#),
    ("due", #"{"date":"2026-02-28","x":1}"#), ("due", #"{"time":"09:00"}"#), ("due", "[]"), ("due", #""x""#),
    ("recurrence", #"{"rrule":"FREQ=WEEKLY"}"#), ("recurrence", #"{"rrule":"FREQ=SECONDLY","from":"due"}"#),
    ("recurrence", #"{"rrule":"FREQ=WEEKLY","from":null}"#), ("reminders", #"[{"at":"2026-11-25T09:00:00"}]"#),
    ("reminders", #"[{"before":525601}]"#), ("reminders", #"[{"before":-1}]"#), ("reminders", #"[{"before":1.0}]"#),
    ("reminders", "[{\"at\":\(at),\"before\":5}]"), ("reminders", "[{}]"), ("reminders", #"[{"before":5,"x":1}]"#),
    ("reminders", #"[{"before":5,"before":6}]"#), ("reminders", "[1]"), ("reminders", "{}"),
    ("categories", "[null]"), ("categories", "[1]"), ("categories", #""a""#), ("parentId", #""x""#),
    ("changedBy", "1"), ("somethingNewer", #"{"ignored":true}"#), ("title\u{0}", "1"),
    // A count a broken service says past what `finish` can add one to (it stopped the app at each start while a
    // completion of the task waited), fractions, signs; a date that is none.
    ("occurrencesDone", "9223372036854775807"), ("occurrencesDone", "1000000000"), ("occurrencesDone", "-1"),
    ("occurrencesDone", "2.0"), ("occurrencesDone", #""2""#), ("lastOccurrenceDone", #""2026-02-30""#),
    ("lastOccurrenceDone", #""2026-12-01T00:00:00Z""#), ("lastOccurrenceDone", "20261201"),
  ]

  @Test("hostile values are read as the Codable reader reads them, or left to it")
  func hostileValues() throws {
    var refused = 0
    for (key, value) in Self.hostile {
      let data = try Self.page(key, value)
      Self.agree(data)
      if case .failure = Self.general(data) { refused += 1 }
    }
    #expect(refused > 40, "\(refused) of \(Self.hostile.count) refused by the Codable reader")
    for huge in ["9223372036854775807", "1000000000"] {
      guard case .failure = Self.general(try Self.page("occurrencesDone", huge)) else {
        Issue.record("a count of \(huge) was taken")
        continue
      }
    }
  }

  @Test("a page as the service writes it, lists with their times, is read here")
  func servicePage() {
    let list =
      #"{"id":"6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f10","name":"L","sortKey":"","isDefault":true,"createdAt":"2026-11-20T08:00:00.000Z","updatedAt":"2026-11-21T08:00:00.000Z","version":1,"role":"owner","shared":false}"#
    let page = #"{"deleted":{"lists":[],"tasks":[]},"lists":[\#(list)],"more":true,"next":"c.1.AA","tasks":[]}"#
    #expect(Self.agree(Data(page.utf8)))
    #expect(PlannerFeedReader.head(Data(page.utf8))! == (true, "c.1.AA"))
  }

  @Test(
    "a page's own members: hostile ones are read as the Codable reader reads them, or left to it",
    arguments: [
      #"{"next":"c1","deleted":{"lists":[],"tasks":[]}}"#, #"{"next":"c1","more":null,"deleted":{}}"#,
      #"{"next":"","deleted":{}}"#, #"{"next":"c 1","deleted":{}}"#, #"{"next":null,"deleted":{}}"#,
      #"{"next":"c1"}"#, #"{"next":"c1","deleted":null}"#, #"{"next":"c1","deleted":{"tasks":["x"]}}"#,
      #"{"next":"c1","deleted":{"x":[]}}"#, #"{"next":"c1","more":1,"deleted":{}}"#,
      #"{"next":"c1","next":"c2","deleted":{}}"#, #"{"next":"c1","deleted":{}} x"#, #"[{"next":"c1"}]"#,
      #"{"next":"c1","lists":[{"id":"6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f10","name":"L","role":"x","version":1}],"deleted":{}}"#,
      #"{"next":"c1","lists":[{"id":"6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f10","name":"L","role":"owner"}],"deleted":{}}"#,
      #"{"next":"c1","lists":[{"id":"6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f10","name":"L","role":"owner","version":1,"shared":1}],"deleted":{}}"#,
      #"{"next":"c1","lists":[{"id":"6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f10","name":"L","role":"owner","version":1}],"deleted":{}}"#,
      "{\"next\":\"c1\",\"deleted\":{},\"lists\":[],\"tasks\":[]}\u{FEFF}",
    ])
  func pageMembers(_ text: String) {
    Self.agree(Data(text.utf8))
  }
}

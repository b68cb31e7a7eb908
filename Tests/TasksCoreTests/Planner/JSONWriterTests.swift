// JSONWriter (the bytes the service's answers and the app's kept copies and requests are written in) against
// Foundation: its texts read back by JSONDecoder, its times against Foundation's whole seconds and read back by
// WireDate, and the app's kept copy (PlannerChanges.document) read back to what was written.

import Foundation
import TasksCalendar
import TasksTestSupport
import Testing

@testable import TasksCore

@Suite("JSON written straight into bytes")
struct JSONWriterTests {
  static func written(_ write: (inout [UInt8]) -> Void) -> String {
    var out: [UInt8] = []
    write(&out)
    return String(decoding: out, as: UTF8.self)
  }

  @Test("texts: every escape JSON needs, read back by JSONDecoder to the same text, hostile ones included")
  func texts() throws {
    var random = SeededGenerator(seed: 61)
    let pieces = PlannerFeedReaderTests.pieces + ["\u{0}", "\u{1F}", "\u{2028}", "\u{FEFF}", "</script>", "\\\"\\"]
    for _ in 0..<5_000 {
      let text = (0..<Int.random(in: 0...5, using: &random)).map { _ in pieces.randomElement(using: &random)! }
        .joined()
      let json = Self.written { JSONWriter.appendString(text, to: &$0) }
      let read = try JSONDecoder().decode([String].self, from: Data(("[" + json + "]").utf8))
      #expect(read == [text], "\(json)")
      #expect(!json.utf8.dropFirst().dropLast().contains { $0 < 0x20 }, "a control character written as it is")
    }
  }

  @Test("ids: lower case, as UUID writes them")
  func ids() {
    for _ in 0..<1_000 {
      let id = UUID()
      #expect(Self.written { JSONWriter.appendID(id, to: &$0) } == "\"\(id.uuidString.lowercased())\"")
    }
    #expect(Self.written { JSONWriter.appendID(nil, to: &$0) } == "null")
  }

  @Test("times: every time to the millisecond written as that millisecond, and read back to what was written")
  func times() throws {
    var random = SeededGenerator(seed: 62)
    for index in 0..<40_000 {
      // Around 1970 and 2001 (the two epochs' sums), then anywhere up to 9999.
      let milliseconds =
        switch index % 3 {
        case 0: Int64.random(in: -20_000...20_000, using: &random) + (index % 2 == 0 ? 0 : 978_307_200_000)
        default: Int64.random(in: 0...253_402_300_799_999, using: &random)
        }
      for date in [
        Date(timeIntervalSince1970: Double(milliseconds) / 1000),
        Date(timeIntervalSinceReferenceDate: Double(milliseconds - 978_307_200_000) / 1000),
      ] where date.timeIntervalSince1970 >= 0 {
        let text = Self.written { JSONWriter.appendTimestamp(date, to: &$0) }
        // The second from Foundation (whole seconds are exact), the milliseconds from the number they were made of.
        let (second, millisecond) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let whole = Date(timeIntervalSince1970: Double(second)).formatted(Date.ISO8601FormatStyle())
        let expected = whole.dropLast() + "." + String(millisecond + 1000).dropFirst() + "Z"
        #expect(text == expected, "\(milliseconds)")
        let read = try #require(WireDate.parse(text))
        #expect(Self.written { JSONWriter.appendTimestamp(read, to: &$0) } == text, "\(milliseconds): not stable")
      }
    }
  }

  @Test("the app's kept copy: read back by both readers to the lists and tasks written, hostile texts included")
  func keptCopy() throws {
    var random = SeededGenerator(seed: 63)
    var typed = 0
    for _ in 0..<1_000 {
      let lists = (0..<Int.random(in: 0...3, using: &random)).map { _ in
        var list = PlannerListItem(
          id: PlannerFeedReaderTests.id(&random), name: "L" + PlannerFeedReaderTests.text(&random))
        list.sortKey = PlannerFeedReaderTests.text(&random)
        list.isDefault = Bool.random(using: &random)
        list.shared = Bool.random(using: &random)
        list.role = Bool.random(using: &random) ? .owner : .member
        list.version = Int64.random(in: 0...99, using: &random)
        return list
      }
      let tasks = try (0..<Int.random(in: 0...4, using: &random)).map { _ in
        try PlannerFeedReaderTests.randomTask(&random)
      }
      let next = "c\(Int.random(in: 0...99_999, using: &random))"
      let data = PlannerChanges.document(next: next, lists: lists, tasks: tasks)
      let read = try PlannerFeedReaderTests.general(data).get()
      #expect(read.lists == lists && read.next == next && !read.more)
      #expect(read.tasks.count == tasks.count)
      // Times to the millisecond (the copy's), read as WireDate sums them: compared as written.
      #expect(read.tasks.map(\.json) == tasks.map(\.json))
      #expect(read.deletedLists.isEmpty && read.deletedTasks.isEmpty)
      if PlannerFeedReaderTests.agree(data) {
        typed += 1
      } else {
        #expect(String(decoding: data, as: UTF8.self).contains("\\u"), "left to the Codable reader without a \\u")
      }
    }
    #expect(typed > 200, "copies without a control character are read by the typed reader: \(typed) of 1 000")
  }

  @Test("a PATCH body: the fields asked for, each once, and nothing else")
  func patch() throws {
    var random = SeededGenerator(seed: 64)
    for _ in 0..<2_000 {
      let task = try PlannerFeedReaderTests.randomTask(&random)
      let fields = (0..<Int.random(in: 0...12, using: &random)).map { _ in
        PlannerItem.Field.allCases.randomElement(using: &random)!
      }
      let object = try #require(JSONValue.object(task.patch(fields)))
      let keys = Set(
        Set(fields).flatMap { field -> [String] in
          switch field {
          case .status: ["status", "completedAt"]
          case .parentID: ["parentId"]
          case .listID: ["listId"]
          default: [field.rawValue]
          }
        })
      #expect(Set(object.keys) == keys)
    }
  }

  @Test("backspace and form feed have JSON's short escapes: a kept copy holding them is read by the typed reader")
  func shortEscapes() throws {
    #expect(Self.written { JSONWriter.appendString("a\u{8}b\u{C}c", to: &$0) } == #""a\bb\fc""#)
    var task = PlannerItem(
      id: UUID(), listID: UUID(), title: "pasted\u{8}\u{C}", createdAt: Date(timeIntervalSince1970: 1e9))
    task.notes = "\u{C}"
    let data = PlannerChanges.document(next: "c1", lists: [], tasks: [task])
    #expect(PlannerFeedReaderTests.agree(data), "left to the Codable reader")
    #expect(try PlannerFeedReaderTests.general(data).get().tasks.map(\.title) == ["pasted\u{8}\u{C}"])
  }

  @Test("a hostile time beyond 9999 or before 1583, through an offset Foundation reads: refused, never written wrong")
  func hostileTimes() {
    #expect(WireDate.parse("9999-12-31T23:00:00-05:00") == nil)
    #expect(WireDate.parse("1500-06-01T00:00:00+01:00") == nil)
    #expect(WireDate.parse("2026-06-01T10:00:00+02:00") == WireDate.parse("2026-06-01T08:00:00Z"))
    // Whatever reaches the writer, it does not trap: the last millisecond of 9999 at most, year 0 at least.
    #expect(
      Self.written { JSONWriter.appendTimestamp(Date(timeIntervalSince1970: 1e15), to: &$0) }
        == "9999-12-31T23:59:59.999Z")
    #expect(
      Self.written { JSONWriter.appendTimestamp(Date(timeIntervalSince1970: -1e15), to: &$0) }
        == "0000-01-01T00:00:00.000Z")
  }
}

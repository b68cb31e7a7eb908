// Tests of reading the change feed's answer and of reminder phrases: garbage from a hostile or broken service is a
// typed error naming the part, never a made-up list or task.

import Foundation
import TasksCore
import Testing

@Suite("Task API v2 in the app: the change feed's answer, reminder phrases")
struct PlannerFeedReadingTests {
  static let list =
    #"{"id": "6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f10", "name": "Home", "sortKey": "", "isDefault": false, "role": "member", "shared": true, "version": 2}"#

  static func page(lists: String = "[\(list)]", tasks: String = "[\(PlannerMergeTests.json)]", next: String = #""c42""#)
    -> Data
  {
    Data(
      #"{"lists": \#(lists), "tasks": \#(tasks), "deleted": {"lists": [], "tasks": ["0b1e2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"]}, "next": \#(next)}"#
        .utf8)
  }

  @Test("a page is read: lists, tasks, deletions and the next token")
  func read() throws {
    let changes = try PlannerChanges(json: Self.page())
    #expect(changes.lists.map(\.name) == ["Home"] && changes.lists.first?.role == .member)
    #expect(changes.lists.first?.shared == true && changes.tasks.map(\.title) == ["Pay rent"])
    #expect(changes.deletedTasks.count == 1 && changes.next == "c42")
    #expect(changes.tasks.first?.changedBy == nil, "not said: not known")
    let bob = "2c9d0e1f-3a4b-4c5d-8e6f-7a8b9c0d1e2f"
    let named = try PlannerChanges(json: Self.page(tasks: "[\(Self.task(#""changedBy": "\#(bob)""#))]"))
    let task = try #require(named.tasks.first)
    #expect(task.changedBy == UUID(uuidString: bob))
    #expect(try PlannerItem(json: task.json) == task, "the copy keeps who changed it")
  }

  @Test("whole numbers may be written 3.0; a list's flags must be true or false")
  func numbers() throws {
    let text = PlannerMergeTests.json.replacing(#""version": 3"#, with: #""version": 3.0"#)
      .replacing(#""priority": 1"#, with: #""priority": 5.0"#)
    let task = try PlannerItem(json: Data(text.utf8))
    #expect(task.version == 3 && task.priority == 5)
    #expect(throws: PlannerJSONError(field: "priority", expected: "a whole number")) {
      try PlannerItem(json: Data(text.replacing("5.0", with: "5.5").utf8))
    }
    #expect(throws: PlannerJSONError(field: "lists[0].shared", expected: "true or false")) {
      try PlannerChanges(json: Self.page(lists: "[\(Self.list.replacing("\"shared\": true", with: "\"shared\": 1"))]"))
    }
  }

  /// The merge tests' task with `member` added.
  static func task(_ member: String) -> String {
    PlannerMergeTests.json.replacing("{", with: "{\(member), ", maxReplacements: 1)
  }

  @Test(
    "garbage is a typed error naming the part",
    arguments: [
      (page(next: #""c4\r\nX-Evil: 1""#), "next"),
      (page(next: "null"), "next"),
      (page(next: "\"\(String(repeating: "9", count: 100))\""), "next"),
      (page(lists: #"[{"id": "x", "name": "Home", "role": "owner", "version": 1}]"#), "lists[0].id"),
      (
        page(
          lists: #"[{"id": "6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f10", "name": "Home", "role": "admin", "version": 1}]"#),
        "lists[0].role"
      ),
      (
        page(lists: #"[{"id": "6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f10", "name": "Home", "role": "owner"}]"#),
        "lists[0].version"
      ),
      (page(tasks: #"[{"id": "0b1e2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"}]"#), "tasks[0].listId"),
      (page(tasks: "7"), "tasks"),
      (page(tasks: "[\(task(#""changedBy": "Ann Example""#))]"), "tasks[0].changedBy"),
      (page(tasks: "[\(task(#""changedBy": 7"#))]"), "tasks[0].changedBy"),
      (
        page(tasks: "[\(PlannerMergeTests.json), \(task(#""due": {"date": "2026-12-01", "time": "9 am"}"#))]"),
        "tasks[1].due.time"
      ),
      (page(tasks: "[\(task(#""reminders": [{"before": 5}, {}]"#))]"), "tasks[0].reminders[1]"),
      (
        Data(#"{"lists": [], "tasks": [], "deleted": {"lists": [], "tasks": [7]}, "next": "c1"}"#.utf8),
        "deleted.tasks[0]"
      ),
      (Data(#"{"lists": [], "tasks": [], "deleted": {}, "next": "c1", "more": "yes"}"#.utf8), "more"),
      (Data("[]".utf8), "body"),
      (Data(#"{"next": "c1", "tasks": ["#.utf8), "body"),
      (Data(#"{"lists": [], "tasks": [], "next": "c1"}"#.utf8), "deleted"),
    ])
  func garbage(body: Data, field: String) {
    #expect {
      try PlannerChanges(json: body)
    } throws: { error in
      (error as? PlannerJSONError)?.field == field
    }
  }

  @Test(
    "reminder phrases in English and the app's languages",
    arguments: [
      ("in 10 minutes", "en", ReminderPhrase.fromNow(minutes: 10)),
      ("1 hour before", "en", .beforeDue(minutes: 60)),
      ("2 days before", "en", .beforeDue(minutes: 2880)),
      ("at the due time", "en", .beforeDue(minutes: 0)),
      ("at 17:00", "en", .at(date: nil, time: TimeOfDay(hour: 17)!)),
      ("tomorrow 9am", "en", .at(date: CalendarDate("2026-11-28"), time: TimeOfDay(hour: 9)!)),
      ("in 2 Stunden", "de", .fromNow(minutes: 120)),
      ("30 Minuten vorher", "de", .beforeDue(minutes: 30)),
      ("1 uur van tevoren", "nl", .beforeDue(minutes: 60)),
      ("tra 5 minuti", "it", .fromNow(minutes: 5)),
      ("1 tunti ennen", "fi", .beforeDue(minutes: 60)),
      ("10 分钟后", "zh", .fromNow(minutes: 10)),
    ])
  func reminders(text: String, language: String, expected: ReminderPhrase) {
    let parser = DatePhraseParser(language: language, today: CalendarDate("2026-11-27")!)
    #expect(ReminderPhrase.read(text, language: language, parser: parser) == expected)
  }

  @Test(
    "what is not a reminder is nil", arguments: ["", "whenever", "in many minutes", "tomorrow", "10 parsecs before"])
  func notReminders(text: String) {
    let parser = DatePhraseParser(language: "en", today: CalendarDate("2026-11-27")!)
    #expect(ReminderPhrase.read(text, language: "en", parser: parser) == nil)
  }
}

// Tests of the task API v2's task fields: what a PUT or PATCH body sets, clears or keeps, and each bad field refused
// with its name (a date that does not exist, an RRULE outside the subset, a reminder before 1970, too many
// categories, …), as the 400 answer will say it.

import Foundation
import TaskService
import TasksCalendar
import Testing

@Suite("Task API v2: a task's fields")
struct PlannerTaskTests {
  static let now = Date(timeIntervalSince1970: 1_795_000_000)

  static func changes(_ json: String) throws(FieldError) -> TaskChanges {
    try TaskChanges(json: Data(json.utf8))
  }

  @Test("a full task is read, field by field")
  func fullTask() throws {
    let changes = try Self.changes(
      """
      {"title": "Pay rent", "notes": "IBAN in the e-mail\\nsecond line", "priority": 1,
       "due": {"date": "2026-12-01", "time": "09:00", "timeZone": "Europe/Helsinki"},
       "recurrence": {"rrule": "FREQ=MONTHLY", "from": "due"},
       "reminders": [{"before": 60}, {"at": "2026-11-30T18:00:00Z", "snoozedUntil": "2026-11-30T18:10:00.5Z"}],
       "categories": ["home", "money", "home"], "sortKey": "a0", "id": "ignored", "version": 7}
      """)
    let task = try PlannerTask(title: "x").applying(changes, now: Self.now)
    #expect(task.title == "Pay rent" && task.notes.contains("\n") && task.priority == 1)
    #expect(
      task.due == TaskDue(date: CalendarDate("2026-12-01")!, time: TimeOfDay("09:00"), timeZone: "Europe/Helsinki"))
    #expect(task.recurrence?.rule.rrule == "FREQ=MONTHLY" && task.recurrence?.from == .due)
    #expect(task.reminders.count == 2 && task.reminders[0].when == .before(minutes: 60))
    #expect(task.reminders[1].snoozedUntil == Date(timeIntervalSince1970: 1_796_062_200.5))
    #expect(task.categories == ["home", "money"], "a category named twice is kept once")
  }

  @Test("PATCH: an absent field stays, null clears it, a value replaces it; finishing and reopening set completedAt")
  func mergePatch() throws {
    var task = try PlannerTask(title: "x").applying(
      try Self.changes(#"{"notes": "n", "priority": 5, "due": {"date": "2026-12-01"}, "categories": ["a"]}"#),
      now: Self.now)
    task = try task.applying(try Self.changes(#"{"notes": null, "priority": 2}"#), now: Self.now)
    #expect(task.notes == "" && task.priority == 2 && task.due != nil && task.categories == ["a"])
    task = try task.applying(try Self.changes(#"{"status": "completed"}"#), now: Self.now)
    #expect(task.status == .completed && task.completedAt == Self.now)
    task = try task.applying(try Self.changes(#"{"status": "needsAction"}"#), now: Self.now)
    #expect(task.completedAt == nil)
    task = try task.applying(try Self.changes(#"{"due": null}"#), now: Self.now)
    #expect(task.due == nil)
  }

  @Test(
    "each bad field is refused with its name, and nothing is changed",
    arguments: [
      (#"{"title": ""}"#, "title"),
      (#"{"title": "   "}"#, "title"),
      (#"{"title": null}"#, "title"),
      (#"{"title": 5}"#, "title"),
      (#"{"title": "a\u0000b"}"#, "title"),
      (#"{"due": {"date": "2026-02-30"}}"#, "due.date"),
      (#"{"due": {"date": "2026-12-01T09:00:00Z"}}"#, "due.date"),
      (#"{"due": {"date": "2026-12-01", "time": "25:00"}}"#, "due.time"),
      (#"{"due": {"date": "2026-12-01", "time": "09:00", "timeZone": "Mars/Olympus"}}"#, "due.timeZone"),
      (#"{"due": {"date": "2026-12-01", "timeZone": "Europe/Helsinki"}}"#, "due.timeZone"),
      (#"{"due": {"date": "2026-12-01"}, "recurrence": {"rrule": "FREQ=HOURLY"}}"#, "recurrence.rrule"),
      (#"{"due": {"date": "2026-12-01"}, "recurrence": {"rrule": "FREQ=DAILY;BYSETPOS=1"}}"#, "recurrence.rrule"),
      (#"{"due": {"date": "2026-12-01"}, "recurrence": {"rrule": "FREQ=DAILY", "from": "later"}}"#, "recurrence.from"),
      (#"{"recurrence": {"rrule": "FREQ=DAILY"}}"#, "recurrence"),
      (#"{"reminders": [{"at": "1969-12-31T23:59:59Z"}]}"#, "reminders[0].at"),
      (#"{"reminders": [{"at": "2026-12-01T09:00:00+02:00"}]}"#, "reminders[0].at"),
      (#"{"due": {"date": "2026-12-01"}, "reminders": [{"before": -5}]}"#, "reminders[0].before"),
      (#"{"reminders": [{"before": 10}]}"#, "reminders[0].before"),
      (#"{"reminders": [{"at": "2026-12-01T09:00:00Z", "before": 10}]}"#, "reminders[0]"),
      (#"{"priority": 10}"#, "priority"),
      (#"{"priority": 1.5}"#, "priority"),
      (#"{"priority": "high"}"#, "priority"),
      (#"{"priority": true}"#, "priority"),
      (#"{"status": "done"}"#, "status"),
      (#"{"parentId": "not-a-uuid"}"#, "parentId"),
      (#"{"categories": [""]}"#, "categories[0]"),
      (#"{"completedAt": "yesterday"}"#, "completedAt"),
      ("[1, 2]", "body"),
      ("{", "body"),
    ])
  func badField(json: String, field: String) throws {
    let task = try PlannerTask(title: "kept").applying(TaskChanges(), now: Self.now)
    do {
      let changes = try Self.changes(json)
      let changed = try task.applying(changes, now: Self.now)
      Issue.record("accepted: \(changed)")
    } catch {
      #expect(error.field == field, "\(error)")
    }
  }

  @Test("10 000 categories, 21 reminders or 100 001 characters of notes are refused, naming the field")
  func tooMany() throws {
    let categories = (0..<10_000).map { "\"c\($0)\"" }.joined(separator: ",")
    #expect(throws: FieldError("categories", "at most 50")) { try Self.changes(#"{"categories": [\#(categories)]}"#) }
    let reminders = (0..<21).map { _ in #"{"before": 5}"# }.joined(separator: ",")
    #expect(throws: FieldError("reminders", "at most 20")) { try Self.changes(#"{"reminders": [\#(reminders)]}"#) }
    let notes = String(repeating: "n", count: 100_001)
    #expect(throws: FieldError("notes", "at most 100000 characters")) { try Self.changes(#"{"notes": "\#(notes)"}"#) }
  }
}

@Suite("Task API v2: finishing a repeating task")
struct CompletingTests {
  static let now = PlannerTaskTests.now

  static func task(_ json: String) throws -> PlannerTask {
    try PlannerTask(title: "t").applying(try TaskChanges(json: Data(json.utf8)), now: now)
  }

  static func day(_ text: String) -> CalendarDate { CalendarDate(text)! }

  @Test("monthly from its due date: the next month, its time kept, reminders due again and moved; twice moves once")
  func fromDue() throws {
    let task = try Self.task(
      #"{"due": {"date": "2026-11-25", "time": "09:00"}, "recurrence": {"rrule": "FREQ=MONTHLY", "from": "due"},"#
        + #" "reminders": [{"before": 30}, {"at": "2026-11-24T18:00:00Z", "acknowledgedAt": "2026-11-24T18:01:00Z"}]}"#)
    let done = try task.completing(occurrence: Self.day("2026-11-25"), today: Self.day("2026-11-27"), now: Self.now)
    #expect(done.due == TaskDue(date: Self.day("2026-12-25"), time: TimeOfDay("09:00")))
    #expect(done.status == .needsAction && done.occurrencesDone == 1)
    #expect(done.reminders[0] == TaskReminder(.before(minutes: 30)))
    #expect(done.reminders[1] == TaskReminder(.at(Date(timeIntervalSince1970: 1_798_135_200))), "a month later, again")
    let again = try done.completing(occurrence: Self.day("2026-11-25"), today: Self.day("2026-11-27"), now: Self.now)
    #expect(again == done, "the same occurrence sent twice moves once")
    #expect(throws: FieldError("occurrence", "the task is due on 2026-12-25, not 2026-11-20")) {
      try done.completing(occurrence: Self.day("2026-11-20"), today: Self.day("2026-11-27"), now: Self.now)
    }
  }

  @Test("undone: the date put back (or the ended series reopened), finishing it again moves it again, counted once")
  func undone() throws {
    let task = try Self.task(#"{"due": {"date": "2026-11-25"}, "recurrence": {"rrule": "FREQ=DAILY;COUNT=2"}}"#)
    let today = Self.day("2026-11-25")
    let done = try task.completing(occurrence: today, today: today, now: Self.now)
    // What the window's Undo sends: the date as it was.
    let undone = try done.applying(try TaskChanges(json: Data(#"{"due": {"date": "2026-11-25"}}"#.utf8)), now: Self.now)
    let again = try undone.completing(occurrence: today, today: today, now: Self.now)
    #expect(again == done, "finished again, as the first time: not answered as a replay, not counted twice")
    // The series' last occurrence finished, then reopened (Undo), then finished again: it ends again.
    let ended = try again.completing(occurrence: Self.day("2026-11-26"), today: today, now: Self.now)
    #expect(ended.status == .completed && ended.occurrencesDone == 2)
    let reopened = try ended.applying(try TaskChanges(json: Data(#"{"status": "needsAction"}"#.utf8)), now: Self.now)
    #expect(reopened.status == .needsAction)
    let endedAgain = try reopened.completing(occurrence: Self.day("2026-11-26"), today: today, now: Self.now)
    #expect(endedAgain == ended)
    // An edit of anything else keeps the finishing: a late copy of it is still a replay.
    let renamed = try done.applying(try TaskChanges(json: Data(#"{"title": "u"}"#.utf8)), now: Self.now)
    #expect(try renamed.completing(occurrence: today, today: today, now: Self.now) == renamed)
  }

  @Test("every two weeks from completion: two weeks after the day it was finished, late or not")
  func fromCompletion() throws {
    let task = try Self.task(
      #"{"due": {"date": "2026-11-20"}, "recurrence": {"rrule": "FREQ=WEEKLY;INTERVAL=2", "from": "completion"}}"#)
    let done = try task.completing(occurrence: Self.day("2026-11-20"), today: Self.day("2026-11-25"), now: Self.now)
    #expect(done.due?.date == Self.day("2026-12-09"))
  }

  @Test("COUNT and UNTIL end the series: the task is then completed; a task that does not repeat just is")
  func seriesEnds() throws {
    var twice = try Self.task(#"{"due": {"date": "2026-11-25"}, "recurrence": {"rrule": "FREQ=DAILY;COUNT=2"}}"#)
    twice = try twice.completing(occurrence: Self.day("2026-11-25"), today: Self.day("2026-11-25"), now: Self.now)
    #expect(twice.status == .needsAction && twice.due?.date == Self.day("2026-11-26"))
    twice = try twice.completing(occurrence: Self.day("2026-11-26"), today: Self.day("2026-11-26"), now: Self.now)
    #expect(twice.status == .completed && twice.completedAt == Self.now && twice.due?.date == Self.day("2026-11-26"))
    let until = try Self.task(
      #"{"due": {"date": "2026-12-28"}, "recurrence": {"rrule": "FREQ=WEEKLY;UNTIL=20261231"}}"#)
    let ended = try until.completing(occurrence: Self.day("2026-12-28"), today: Self.day("2026-12-28"), now: Self.now)
    #expect(ended.status == .completed)
    let once = try Self.task(#"{"due": {"date": "2026-11-25"}}"#)
    let finished = try once.completing(occurrence: Self.day("2026-11-25"), today: Self.day("2026-11-25"), now: Self.now)
    #expect(finished.status == .completed && finished.due == once.due)
  }
}

// Property tests of the dates a task can hold: whatever rule, start, reminders and day of finishing a client (or
// another member of a shared list) sends, the task is refused with a 400 naming a field, or it is one the service
// can store and read back, finish after finish. Seeded, so that a failure names the case that can be run again.

import Foundation
import TaskService
import TasksCalendar
import TasksTestSupport
import Testing

@Suite("Task API v2: every date computed can be stored and read")
struct PlannerDateBoundsTests {

  /// Days near the calendar's ends and its leap days weigh as much as any other.
  static func day(_ random: inout SeededGenerator) -> CalendarDate {
    let edges = [
      "0001-01-01", "0001-12-31", "1970-01-01", "2024-02-29", "9996-02-29", "9999-02-28", "9999-12-25",
      "9999-12-30", "9999-12-31",
    ]
    if Bool.random(using: &random) { return CalendarDate(edges.randomElement(using: &random)!)! }
    return CalendarDate(
      dayNumber: Int.random(in: CalendarDate.first.dayNumber...CalendarDate.last.dayNumber, using: &random))
  }

  static func rule(_ random: inout SeededGenerator) -> String {
    let frequency = RecurrenceRule.Frequency.allCases.randomElement(using: &random)!
    var parts = ["FREQ=\(frequency.rawValue)"]
    if Bool.random(using: &random) {
      parts.append(
        "INTERVAL=\([1, 2, 7, 12, 400, 999, 1000, Int.random(in: 1...1000, using: &random)].randomElement(using: &random)!)"
      )
    }
    if frequency == .weekly || frequency == .daily, Bool.random(using: &random) {
      let days = Weekday.allCases.filter { _ in Bool.random(using: &random) }
      if !days.isEmpty { parts.append("BYDAY=" + days.map(\.code).joined(separator: ",")) }
    }
    if frequency == .monthly, Bool.random(using: &random) {
      let days = (0..<Int.random(in: 1...3, using: &random)).map { _ in
        [1, 28, 29, 30, 31, -1, -31].randomElement(using: &random)!
      }
      parts.append("BYMONTHDAY=" + days.map(String.init).joined(separator: ","))
    }
    switch Int.random(in: 0..<4, using: &random) {
    case 0: parts.append("COUNT=\(Int.random(in: 1...10000, using: &random))")
    case 1: parts.append("UNTIL=" + day(&random).description.filter { $0 != "-" })
    default: break
    }
    return parts.joined(separator: ";")
  }

  /// A time from 1970 to the last second of 9999, near the end as often as not.
  static func time(_ random: inout SeededGenerator) -> String {
    let end = 253_402_300_799.0
    let seconds =
      Bool.random(using: &random)
      ? end - Double(Int.random(in: 0...(86_400 * 40), using: &random))
      : Double(Int.random(in: 0...Int(end), using: &random))
    return Date(timeIntervalSince1970: seconds).formatted(Date.ISO8601FormatStyle())
  }

  static func body(_ random: inout SeededGenerator) -> [String: Any] {
    var due: [String: Any] = ["date": day(&random).description]
    if Bool.random(using: &random) { due["time"] = "23:59" }
    var reminders: [[String: Any]] = []
    for _ in 0..<Int.random(in: 0...2, using: &random) {
      var reminder: [String: Any] =
        Bool.random(using: &random)
        ? ["at": time(&random)] : ["before": Int.random(in: 0...PlannerTask.maxReminderOffset, using: &random)]
      if Bool.random(using: &random) { reminder["snoozedUntil"] = time(&random) }
      reminders.append(reminder)
    }
    return [
      "title": "t", "due": due, "reminders": reminders,
      "recurrence": ["rrule": rule(&random), "from": Bool.random(using: &random) ? "due" : "completion"],
    ]
  }

  /// What a store does with `task`: its columns and details written, then read back.
  static func storedAndRead(_ task: PlannerTask) throws(FieldError) -> PlannerTask {
    var read = try PlannerTask(
      title: task.title, completed: task.status == .completed, completedAt: task.completedAt,
      parentID: task.parentID, details: task.details)
    read.completedAt = task.completedAt
    return read
  }

  @Test("any rule, start, reminders and day of finishing: a 400, or a task stored and read back, finish after finish")
  func anyRuleAnyDay() throws {
    let seed = UInt64(Date().timeIntervalSince1970)
    var random = SeededGenerator(seed: seed)
    let now = Date()
    var (refused, finished, ended) = (0, 0, 0)
    for index in 0..<4_000 {
      let body = Self.body(&random)
      let data = try JSONSerialization.data(withJSONObject: body)
      var task: PlannerTask
      do throws(FieldError) {
        task = try PlannerTask(title: "t").applying(try TaskChanges(json: data), now: now)
      } catch {
        refused += 1
        continue
      }
      for _ in 0..<3 where task.status == .needsAction {
        let today = Self.day(&random)
        let occurrence = try #require(task.due?.date)
        do throws(FieldError) {
          task = try task.completing(occurrence: occurrence, today: today, now: now)
          finished += 1
        } catch {
          Issue.record("seed \(seed), case \(index): finishing the due occurrence was refused: \(error)")
          return
        }
        do throws(FieldError) {
          try task.validate()
          let read = try Self.storedAndRead(task)
          #expect(read == task, "seed \(seed), case \(index): \(String(describing: body)) read back differently")
          // And as the API answers it: the JSON a client (or the service itself) reads again.
          let json = StoredTask(
            id: UUID(), listID: UUID(), task: task, createdAt: now, updatedAt: now, version: 1
          ).json
          _ = try TaskChanges(json: json)
        } catch {
          Issue.record(
            "seed \(seed), case \(index): \(String(describing: body)) gave a task that cannot be read: \(error)")
          return
        }
      }
      if task.status == .completed { ended += 1 }
    }
    #expect(finished > 2_000 && refused < 2_000 && ended > 0, "the cases reach every outcome")
  }

  @Test("the calendar's arithmetic saturates at its ends; a series ends there instead of leaving it")
  func calendarEnds() throws {
    #expect(CalendarDate.first.description == "0001-01-01" && CalendarDate.last.description == "9999-12-31")
    #expect(CalendarDate.last.adding(days: 1) == .last && CalendarDate.first.adding(days: -1) == .first)
    #expect(CalendarDate.last.adding(days: .max) == .last && CalendarDate.first.adding(days: .min) == .first)
    #expect(CalendarDate.last.adding(months: 1) == .last && CalendarDate.first.adding(months: -1) == .first)
    #expect(
      CalendarDate(dayNumber: .max) == .last && CalendarDate(exactDayNumber: CalendarDate.last.dayNumber + 1) == nil)
    for rule in [
      "FREQ=DAILY", "FREQ=WEEKLY", "FREQ=WEEKLY;BYDAY=MO", "FREQ=MONTHLY", "FREQ=MONTHLY;BYMONTHDAY=-1",
      "FREQ=YEARLY", "FREQ=DAILY;INTERVAL=1000;BYDAY=SU",
    ] {
      let parsed = try RecurrenceRule(rrule: rule)
      #expect(parsed.occurrence(after: .last) == nil, "\(rule) after 9999-12-31")
    }
    #expect(try RecurrenceRule(rrule: "FREQ=WEEKLY").occurrence(after: CalendarDate("9999-12-27")!) == nil)
    #expect(
      try RecurrenceRule(rrule: "FREQ=WEEKLY").occurrence(after: CalendarDate("9999-12-24")!)
        == CalendarDate("9999-12-31"))
  }

  @Test("a reminder that would move past 9999 ends the series; a time past 9999 is refused where it enters")
  func reminderPastTheEnd() throws {
    let now = Date()
    let task = try PlannerTask(title: "t").applying(
      try TaskChanges(
        json: Data(
          #"{"due": {"date": "9999-12-30"}, "recurrence": {"rrule": "FREQ=DAILY"}, "reminders": [{"at": "9999-12-31T12:00:00Z"}]}"#
            .utf8)), now: now)
    let done = try task.completing(
      occurrence: CalendarDate("9999-12-30")!, today: CalendarDate("2026-12-02")!, now: now)
    #expect(done.status == .completed && done.due?.date == CalendarDate("9999-12-30"))
    #expect(throws: FieldError.self) {
      try TaskChanges(json: Data(#"{"completedAt": "+10000-01-01T00:00:00Z"}"#.utf8))
    }
  }
}

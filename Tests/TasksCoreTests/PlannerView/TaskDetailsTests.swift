// Tests of what a task's details pane edits, without a window: the repeat's form read from and written to RRULEs,
// reminders in words and from typed phrases, the time field, and the subtasks' order.

import Foundation
import Testing

@testable import TasksCore

@Suite("Planner view: a task's details")
struct TaskDetailsTests {
  static let today = CalendarDate(year: 2026, month: 11, day: 27)!

  private func recurrence(_ rrule: String, from: TaskRecurrence.From = .due) throws -> TaskRecurrence {
    TaskRecurrence(rule: try RecurrenceRule(rrule: rrule), from: from)
  }

  @Test(
    "each rule the form can say is read into its choice and written back unchanged",
    arguments: [
      "FREQ=DAILY", "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR", "FREQ=WEEKLY;BYDAY=TU,TH", "FREQ=WEEKLY;INTERVAL=2",
      "FREQ=MONTHLY;BYMONTHDAY=-1", "FREQ=YEARLY;COUNT=3", "FREQ=MONTHLY;INTERVAL=3;UNTIL=20271231",
    ])
  func roundTrip(rrule: String) throws {
    let original = try recurrence(rrule, from: .completion)
    #expect(RepeatForm(original).recurrence == original)
  }

  @Test("the choices: none, weekdays (which has no interval), weekly days in order, the end, from completion")
  func choices() throws {
    #expect(RepeatForm(nil).kind == .none && RepeatForm(nil).recurrence == nil)
    let weekdays = RepeatForm(try recurrence("FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR"))
    #expect(weekdays.kind == .weekdays && !weekdays.hasInterval && weekdays.days.isEmpty)
    #expect(RepeatForm(try recurrence("FREQ=DAILY;BYDAY=SA,SU")).kind == .daily, "other days stay daily on them")

    var form = RepeatForm(nil)
    form.kind = .weekly
    form.days = [.thursday, .tuesday]
    form.end = .count(10)
    form.from = .completion
    #expect(form.recurrence == (try recurrence("FREQ=WEEKLY;BYDAY=TU,TH;COUNT=10", from: .completion)))
    form.kind = .monthly
    form.interval = 2
    form.end = .until(Self.today)
    #expect(form.recurrence == (try recurrence("FREQ=MONTHLY;INTERVAL=2;UNTIL=20261127", from: .completion)))
    form.interval = 0
    #expect(form.recurrence?.rule.interval == 1, "an interval is at least 1")
    form.kind = .weekdays
    form.interval = 5
    #expect(form.recurrence?.rule == (try RecurrenceRule(rrule: "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;UNTIL=20261127")))
    #expect(RepeatForm.weekdayNames.map(\.day) == Weekday.allCases)
  }

  @Test("the unit after Every N follows the kind and the number")
  func unit() {
    var form = RepeatForm(nil)
    form.kind = .weekly
    form.interval = 1
    #expect(form.unit == "week")
    form.interval = 3
    #expect(form.unit == "weeks")
    form.kind = .yearly
    #expect(form.unit == "years")
  }

  @Test("reminders in words")
  func reminderText() {
    let text = { (minutes: Int) in ReminderText.text(TaskReminder(.before(minutes: minutes)), today: Self.today) }
    #expect(text(0) == "At the due time")
    #expect(text(10) == "10 minutes before")
    #expect(text(1) == "1 minute before")
    #expect(text(60) == "1 hour before")
    #expect(text(120) == "2 hours before")
    #expect(text(1440) == "1 day before")
    #expect(text(90) == "90 minutes before")
    let tomorrowNine = ReminderText.localMoment(Self.today.adding(days: 1), TimeOfDay(hour: 9)!)!
    #expect(ReminderText.text(TaskReminder(.at(tomorrowNine)), today: Self.today) == "Tomorrow 09:00")
  }

  @Test("a typed reminder: before the due time needs one; from now; at a time on the due date, else today")
  func typedReminders() throws {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let due = TaskDue(date: Self.today.adding(days: 3))
    #expect(
      try ReminderText.reminder(.beforeDue(minutes: 60), due: due, today: Self.today, now: now) == .before(minutes: 60))
    #expect(throws: ReminderText.Problem.needsDueDate) {
      try ReminderText.reminder(.beforeDue(minutes: 60), due: nil, today: Self.today, now: now)
    }
    #expect(try ReminderText.reminder(.fromNow(minutes: 10), due: nil, today: Self.today, now: now) == .at(now + 600))
    #expect(
      try ReminderText.reminder(.fromNow(minutes: 10), due: nil, today: Self.today, now: now + 0.123_456_7)
        == .at(now + 600.123), "in milliseconds, as the service keeps it")
    let five = TimeOfDay(hour: 17)!
    #expect(
      try ReminderText.reminder(.at(date: nil, time: five), due: due, today: Self.today, now: now)
        == .at(ReminderText.localMoment(due.date, five)!))
    #expect(
      try ReminderText.reminder(.at(date: nil, time: five), due: nil, today: Self.today, now: now)
        == .at(ReminderText.localMoment(Self.today, five)!))
    // What the details' entry reads, end to end.
    let parser = DatePhraseParser(language: "en", today: Self.today)
    #expect(ReminderPhrase.read("1 hour before", language: "en", parser: parser) == .beforeDue(minutes: 60))
    #expect(ReminderPhrase.read("water the plants", language: "en", parser: parser) == nil)
  }

  @Test("the time field: HH:MM, H:MM, a spoken time, empty for none; anything else is refused")
  func timeField() throws {
    let english = DatePhraseParser(language: "en", today: Self.today)
    #expect(try TimeField.read("09:00", parser: english) == TimeOfDay(hour: 9))
    #expect(try TimeField.read(" 9:30 ", parser: english) == TimeOfDay(hour: 9, minute: 30))
    #expect(try TimeField.read("5pm", parser: english) == TimeOfDay(hour: 17))
    #expect(try TimeField.read("", parser: english) == nil)
    #expect(try TimeField.read("   ", parser: english) == nil)
    let german = DatePhraseParser(language: "de", today: Self.today)
    #expect(try TimeField.read("17 Uhr", parser: german) == TimeOfDay(hour: 17))
    for garbage in ["25:00", "9:5", "9:60", "tomorrow", "tomorrow 9am", "soon", "-1:00", "9:00 and more"] {
      #expect(throws: ReminderText.Problem.unreadable, "\(garbage)") { try TimeField.read(garbage, parser: english) }
    }
  }

  private func subtasks(_ keys: [String]) -> [PlannerItem] {
    let list = UUID()
    return keys.enumerated().map { index, key in
      var item = PlannerItem(id: UUID(), listID: list, title: "s\(index)", createdAt: Date())
      item.sortKey = key
      return item
    }
  }

  @Test("subtasks: a new one goes last; a move changes one key when there is room, else renumbers all")
  func subtaskOrder() {
    #expect(ManualOrder.keyAfter([]) == "00001000")
    #expect(ManualOrder.keyAfter(subtasks(["00001000", "00002000"])) == "00003000")

    let spaced = subtasks(["00001000", "00002000", "00003000"])
    let up = ManualOrder.move(spaced, from: 2, to: 1)
    #expect(up.map(\.id) == [spaced[2].id] && up.first?.sortKey == "00001500")
    let first = ManualOrder.move(spaced, from: 1, to: 0)
    #expect(first.map(\.sortKey) == ["00000500"])
    let last = ManualOrder.move(spaced, from: 0, to: 2)
    #expect(last.map(\.sortKey) == ["00004000"])
    #expect(ManualOrder.move(spaced, from: 1, to: 1).isEmpty && ManualOrder.move(spaced, from: 0, to: 5).isEmpty)

    // No room (keys from another client, or none): every subtask gets a key in the new order; unchanged ones are
    // not sent again.
    let crowded = subtasks(["00001000", "", "00003000"])
    let renumbered = ManualOrder.move(crowded, from: 0, to: 1)
    let keys = Dictionary(uniqueKeysWithValues: renumbered.map { ($0.id, $0.sortKey) })
    #expect(keys == [crowded[1].id: "00001000", crowded[0].id: "00002000"], "the third keeps 00003000")
    let adjacent = subtasks(["00001000", "00001001", "00002000"])
    let between = ManualOrder.move(adjacent, from: 2, to: 1)
    #expect(between.map(\.id) == [adjacent[1].id] && between.first?.sortKey == "00003000")
  }

  @Test("a list's tasks: those without a key come last; a move numbers only the tasks up to its new place")
  func listOrder() {
    #expect(ManualOrder.precedes("00001000", "") && !ManualOrder.precedes("", "00001000"))
    #expect(ManualOrder.precedes("00001000", "00002000") && !ManualOrder.precedes("", ""))
    #expect(ManualOrder.keyAfter(subtasks(["00003000", "", "00001000"])) == "00004000")

    // None numbered: moving the third up numbers the first and itself; the last keeps no key, and its place.
    let fresh = subtasks(["", "", "", ""])
    let up = ManualOrder.move(fresh, from: 2, to: 1)
    #expect(up.map(\.id) == [fresh[0].id, fresh[2].id] && up.map(\.sortKey) == ["00001000", "00002000"])
    // Moving the first down numbers the one it passes and itself.
    let down = ManualOrder.move(fresh, from: 0, to: 1)
    #expect(down.map(\.id) == [fresh[1].id, fresh[0].id] && down.map(\.sortKey) == ["00001000", "00002000"])

    // Numbered ones first: one moving among them changes its key alone; one moving up from the others into
    // them, too (after the last numbered one, its key is the next step).
    let mixed = subtasks(["00001000", "00002000", "", ""])
    #expect(ManualOrder.move(mixed, from: 0, to: 1).map(\.sortKey) == ["00003000"])
    let joining = ManualOrder.move(mixed, from: 2, to: 1)
    #expect(joining.map(\.id) == [mixed[2].id] && joining.first?.sortKey == "00001500")
    let after = ManualOrder.move(mixed, from: 3, to: 2)
    #expect(after.map(\.id) == [mixed[3].id] && after.first?.sortKey == "00003000")
    // A numbered one moving down past an unnumbered one: that one is numbered before it.
    let past = ManualOrder.move(mixed, from: 1, to: 2)
    #expect(past.map(\.id) == [mixed[2].id, mixed[1].id] && past.map(\.sortKey) == ["00002000", "00003000"])
    // Moved to the end again and again, keys would outgrow eight digits (and sort as text before shorter ones):
    // the list is numbered afresh instead.
    let high = subtasks(["00001000", "99999000"])
    let afresh = ManualOrder.move(high, from: 0, to: 1)
    #expect(
      Dictionary(uniqueKeysWithValues: afresh.map { ($0.id, $0.sortKey) }) == [
        high[1].id: "00001000", high[0].id: "00002000",
      ])
  }
}

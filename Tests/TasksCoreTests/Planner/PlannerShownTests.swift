// Tests of what the window shows before the service answers: the replica's lists and tasks with the outbox's
// waiting edits made, in order, and a finished task as the service will have it.

import Foundation
import TasksTestSupport
import Testing

@testable import TasksCore

@Suite("Planner: waiting edits shown")
struct PlannerShownTests {
  static let today = CalendarDate(year: 2026, month: 11, day: 25)!
  private let list = PlannerListItem(id: UUID(), name: "Home")

  private func task(_ title: String, parent: PlannerItem? = nil) -> PlannerItem {
    var item = PlannerItem(id: UUID(), listID: list.id, title: title, createdAt: Date())
    item.parentID = parent?.id
    return item
  }

  @Test("edits are made in order; each task edited is marked waiting; a deleted task takes its subtasks")
  func order() {
    let kept = task("kept")
    let parent = task("parent")
    let child = task("child", parent: parent)
    var renamed = kept
    renamed.title = "renamed"
    let added = task("added")
    let shown = PlannerShown(
      lists: [list], tasks: [kept.id: kept, parent.id: parent, child.id: child],
      edits: [
        .changeTask(base: kept, mine: renamed), .createTask(added), .deleteTask(list: list.id, id: parent.id),
        .renameList(id: list.id, name: "House"),
      ])
    #expect(Set(shown.tasks.map(\.title)) == ["renamed", "added"])
    #expect(shown.waiting == [kept.id, added.id])
    #expect(shown.lists.map(\.name) == ["House"])
  }

  @Test("a list created and deleted; a deleted list takes its tasks")
  func lists() {
    let other = UUID()
    let shown = PlannerShown(
      lists: [list], tasks: [UUID(): task("t")],
      edits: [.createList(id: other, name: "Trip"), .deleteList(id: list.id)])
    #expect(shown.lists.map(\.name) == ["Trip"] && shown.tasks.isEmpty)
  }

  @Test("finishing: a plain task is done; a repeat moves to its next date, from due or from completion, once")
  func finishing() throws {
    var plain = task("plain")
    plain.finish(occurrence: Self.today, today: Self.today)
    #expect(plain.status == .completed && plain.completedAt != nil)

    var weekly = task("weekly")
    weekly.due = TaskDue(date: Self.today.adding(days: -3), time: TimeOfDay(hour: 8))
    weekly.recurrence = TaskRecurrence(rule: try RecurrenceRule(rrule: "FREQ=WEEKLY"), from: .due)
    var fromCompletion = weekly
    fromCompletion.recurrence?.from = .completion
    weekly.finish(occurrence: Self.today.adding(days: -3), today: Self.today)
    #expect(weekly.due == TaskDue(date: Self.today.adding(days: 4), time: TimeOfDay(hour: 8)))
    weekly.finish(occurrence: Self.today.adding(days: -3), today: Self.today)
    #expect(weekly.due?.date == Self.today.adding(days: 4), "the same occurrence twice moves it once")
    fromCompletion.finish(occurrence: Self.today.adding(days: -3), today: Self.today)
    #expect(fromCompletion.due?.date == Self.today.adding(days: 7), "a week after it was done")

    var ending = task("ending")
    ending.due = TaskDue(date: Self.today)
    ending.recurrence = TaskRecurrence(rule: try RecurrenceRule(rrule: "FREQ=DAILY;UNTIL=20261125"))
    ending.finish(occurrence: Self.today, today: Self.today)
    #expect(ending.status == .completed, "past its last occurrence")
  }

  @Test(
    "finishing a series of a COUNT counts as the service does: an Undo's date not twice, a COUNT changed, a date moved; reminders at a time move with it"
  )
  func finishingCounted() throws {
    var doses = task("doses")
    doses.due = TaskDue(date: Self.today)
    doses.recurrence = TaskRecurrence(rule: try RecurrenceRule(rrule: "FREQ=DAILY;COUNT=2"))
    let at = Date(timeIntervalSince1970: 1_800_000_000)
    doses.reminders = [
      TaskReminder(.at(at), acknowledgedAt: at), TaskReminder(.before(minutes: 10), snoozedUntil: at),
    ]
    let fresh = doses
    doses.finish(occurrence: Self.today, today: Self.today)
    #expect(doses.status == .needsAction && doses.due?.date == Self.today.adding(days: 1))
    #expect(doses.occurrencesDone == 1 && doses.lastOccurrenceDone == Self.today)
    #expect(
      doses.reminders == [TaskReminder(.at(at.addingTimeInterval(86_400))), TaskReminder(.before(minutes: 10))],
      "a day on, armed again")

    // The toast's Undo (PlannerUndo puts the fields back, not the count): due today again, finished again, it is
    // not counted twice and moves on (the service: the same).
    var undone = PlannerUndo.restoring(fresh, over: doses)
    undone.finish(occurrence: Self.today, today: Self.today)
    #expect(undone.status == .needsAction && undone.occurrencesDone == 1, "the second dose still to take")

    // The last: done, counted.
    doses.finish(occurrence: Self.today.adding(days: 1), today: Self.today)
    #expect(doses.status == .completed && doses.occurrencesDone == 2, "the last one: done")

    // The COUNT raised in the details before the second: it goes on; the repeat's end taken away: it goes on.
    var raised = fresh
    raised.finish(occurrence: Self.today, today: Self.today)
    raised.recurrence = TaskRecurrence(rule: try RecurrenceRule(rrule: "FREQ=DAILY;COUNT=3"))
    raised.finish(occurrence: Self.today.adding(days: 1), today: Self.today)
    #expect(raised.status == .needsAction && raised.due?.date == Self.today.adding(days: 2))
    var endless = fresh
    endless.finish(occurrence: Self.today, today: Self.today)
    endless.recurrence = TaskRecurrence(rule: try RecurrenceRule(rrule: "FREQ=DAILY"))
    endless.finish(occurrence: Self.today.adding(days: 1), today: Self.today)
    #expect(endless.status == .needsAction, "no end")
    // Moved by hand onto the day finished last: finishing it does not count it again.
    var moved = fresh
    moved.finish(occurrence: Self.today, today: Self.today)
    moved.due?.date = Self.today
    moved.finish(occurrence: Self.today, today: Self.today)
    #expect(moved.status == .needsAction && moved.occurrencesDone == 1)
    // A reminder the next occurrence would move past the last time a task holds ends the series, as on the service.
    var lastDay = task("last day")
    lastDay.due = TaskDue(date: try #require(CalendarDate("9999-12-30")))
    lastDay.recurrence = TaskRecurrence(rule: try RecurrenceRule(rrule: "FREQ=DAILY"))
    lastDay.reminders = [TaskReminder(.at(Date(timeIntervalSince1970: 253_402_257_600)))]  // 9999-12-31 12:00 UTC
    lastDay.finish(occurrence: lastDay.due!.date, today: Self.today)
    #expect(lastDay.status == .completed)
  }

  @Test("a change made on an older copy of a task takes back no edit shown before it: only its own fields change")
  func changeOnOlderCopy() throws {
    var weekly = task("bins out")
    weekly.due = TaskDue(date: Self.today)
    weekly.recurrence = TaskRecurrence(rule: try RecurrenceRule(rrule: "FREQ=WEEKLY"))
    var titled = weekly
    titled.title = "bins and recycling out"
    var noted = weekly
    noted.notes = "the green one too"
    var urgent = weekly
    urgent.priority = 1
    // Each change made on the copy from before the others (as one built while the edit before it was on its way).
    let shown = PlannerShown(
      lists: [list], tasks: [weekly.id: weekly],
      edits: [
        .changeTask(base: weekly, mine: titled),
        .complete(list: list.id, id: weekly.id, occurrence: Self.today, today: Self.today),
        .changeTask(base: weekly, mine: noted), .changeTask(base: weekly, mine: urgent),
      ])
    let item = try #require(shown.tasks.first)
    #expect(item.title == "bins and recycling out" && item.notes == "the green one too" && item.priority == 1)
    #expect(item.due?.date == Self.today.adding(days: 7) && item.occurrencesDone == 1, "still finished")
    #expect(shown.waiting == [weekly.id])
    // Its own fields are its: a change setting a field back to the older copy's value sets it.
    var untitled = titled
    untitled.title = weekly.title
    let back = PlannerShown(
      lists: [list], tasks: [weekly.id: weekly],
      edits: [.changeTask(base: weekly, mine: titled), .changeTask(base: titled, mine: untitled)])
    #expect(back.tasks.first?.title == "bins out")
    // A time set on the copy from before the task was finished: the finish stays shown, as the service keeps it
    // (the flush then names the date as the edit that lost); the stale copy's own other fields are made.
    var timed = weekly
    timed.due?.time = TimeOfDay(hour: 9)
    timed.notes = "before eight"
    let stale = PlannerShown(
      lists: [list], tasks: [weekly.id: weekly],
      edits: [
        .complete(list: list.id, id: weekly.id, occurrence: Self.today, today: Self.today),
        .changeTask(base: weekly, mine: timed),
      ])
    #expect(stale.tasks.first?.due?.date == Self.today.adding(days: 7) && stale.tasks.first?.notes == timed.notes)
  }

  @Test(
    "a task deleted: its subtasks' waiting edits go; a change or a finish made on a copy from before is neither kept nor shown"
  )
  func afterDeletion() async throws {
    var gone = task("gone")
    gone.version = 3  // the service's
    var renamed = gone
    renamed.title = "renamed"
    let deleted: PlannerEdit = .deleteTask(list: list.id, id: gone.id)
    let outbox = PlannerOutbox(file: try TestDesktop.temporaryFolder("shown").appending(path: "outbox.json"))
    // A subtask added and not sent yet goes with it (the service deletes a task's subtasks with it).
    try await outbox.record(.createTask(task("its subtask", parent: gone)))
    try await outbox.record(deleted)
    try await outbox.record(.changeTask(base: gone, mine: renamed))
    try await outbox.record(.complete(list: list.id, id: gone.id, occurrence: Self.today, today: Self.today))
    #expect(await outbox.pending.map(\.edit) == [deleted])
    // The same edits reaching the window's copy in that order (the task deleted by another device instead: gone
    // from the replica) do not bring it back.
    let shown = PlannerShown(
      lists: [list], tasks: [:], edits: [.changeTask(base: gone, mine: renamed)])
    #expect(shown.tasks.isEmpty && shown.waiting.isEmpty)
    // One made here, whose creation was acknowledged before the feed brought it: its change shows it.
    var made = task("made here")
    let named = made
    made.title = "made here, named"
    let acknowledged = PlannerShown(lists: [list], tasks: [:], edits: [.changeTask(base: named, mine: made)])
    #expect(acknowledged.tasks.map(\.title) == [made.title] && acknowledged.waiting == [made.id])
  }

}

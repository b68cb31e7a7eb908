// Tests of the planner's Undo without any UI: a deletion hidden until carried out, a completion (a repeating task's
// next date included) and a move to another list taken back as field edits, a toast's Undo taking back its own step.

import Foundation
import Testing

@testable import TasksCore

@Suite("Planner undo")
struct PlannerUndoTests {
  private static let today = CalendarDate(year: 2026, month: 11, day: 25)!
  private let home = UUID()
  private let work = UUID()

  private func task(_ title: String, in list: UUID, parent: UUID? = nil) -> PlannerItem {
    var item = PlannerItem(id: UUID(), listID: list, title: title, createdAt: Date(timeIntervalSince1970: 0))
    item.parentID = parent
    return item
  }

  private func shown(_ tasks: [PlannerItem]) -> PlannerShown {
    PlannerShown(lists: [], tasks: Dictionary(uniqueKeysWithValues: tasks.map { ($0.id, $0) }), edits: [])
  }

  @Test("a deletion hides the task and its subtasks; Undo shows them again and sends nothing; its end sends it once")
  func deletion() throws {
    var undo = PlannerUndo()
    let parent = task("Trip", in: home)
    let child = task("Pack", in: home, parent: parent.id)
    let other = task("Other", in: home)
    let all = shown([parent, child, other])
    let (step, carried) = undo.delete([parent])
    #expect(carried.isEmpty)
    #expect(undo.hiding(in: all).tasks.map(\.title) == ["Other"])
    #expect(undo.undo(current: { _ in parent }) == [], "taken back: nothing to send")
    #expect(undo.hiding(in: all).tasks.count == 3)
    #expect(undo.finish(step.id).isEmpty, "an undone deletion is not carried out later")

    let again = undo.delete([parent]).step
    #expect(undo.finish(again.id) == [.deleteTask(list: home, id: parent.id)])
    #expect(undo.finish(again.id).isEmpty, "carried out once")
    #expect(undo.undo(current: { _ in parent }) == nil, "nothing left to take back")
  }

  @Test("a completion, a repeating task's move to its next date and a move to another list are taken back as edits")
  func changes() throws {
    var undo = PlannerUndo()
    var rent = task("Pay rent", in: home)
    rent.due = TaskDue(date: Self.today)
    rent.recurrence = TaskRecurrence(rule: try RecurrenceRule(rrule: "FREQ=MONTHLY"))
    var finished = rent
    finished.finish(occurrence: Self.today, today: Self.today)
    undo.changed(before: [rent], after: [finished])
    // The service moved it to its next date (its version and time are the service's).
    var moved = rent
    moved.due = TaskDue(date: Self.today.adding(months: 1))
    moved.version = 7
    moved.updatedAt = Date(timeIntervalSince1970: 99)
    let undone = undo.undo(current: { $0 == rent.id ? moved : nil })
    let edits = try #require(undone)
    guard case .changeTask(let base, let mine) = try #require(edits.first) else {
      Issue.record("not a change: \(edits)")
      return
    }
    #expect(edits.count == 1 && base == moved)
    #expect(mine.due == rent.due && mine.version == 7 && mine.updatedAt == moved.updatedAt)

    var milk = task("Buy milk", in: home)
    let before = milk
    milk.listID = work
    milk.status = .completed
    milk.completedAt = Date(timeIntervalSince1970: 5)
    undo.changed(before: [before], after: [milk])
    let undoneMove = undo.undo(current: { _ in milk })
    let back = try #require(undoneMove)
    #expect(back.count == 1)
    if case .changeTask(_, let mine) = back[0] {
      #expect(mine.listID == home && mine.status == .needsAction && mine.completedAt == nil)
    }
  }

  @Test(
    "an Undo puts back only the fields its step changed: a rename since, or another device's edit, stays")
  func ownFields() throws {
    var undo = PlannerUndo()
    var weekly = task("bins out", in: home)
    weekly.due = TaskDue(date: Self.today, time: TimeOfDay(hour: 7))
    weekly.recurrence = TaskRecurrence(rule: try RecurrenceRule(rrule: "FREQ=WEEKLY"))
    weekly.reminders = [TaskReminder(.before(minutes: 30))]
    var ticked = weekly
    ticked.finish(occurrence: Self.today, today: Self.today)
    let step = undo.changed(before: [weekly], after: [ticked]).step
    // Renamed in the details since, and another device gave it notes and a priority.
    var now = ticked
    now.title = "bins and recycling out"
    now.notes = "the green one too"
    now.priority = 1
    let undone = undo.undo(step.id, current: { _ in now })
    let edits = try #require(undone)
    guard case .changeTask(let base, let back)? = edits.first, edits.count == 1 else {
      Issue.record("not one change: \(edits)")
      return
    }
    #expect(base == now && back.due == weekly.due, "the date back")
    #expect(back.title == now.title && back.notes == now.notes && back.priority == 1, "the rest stays")
    #expect(
      PlannerItem.Field.allCases.filter { !back.same($0, as: now) } == [.due], "only the date is sent")
  }

  @Test("a toast's Undo takes back its own step; a task deleted since, or unchanged, gives no edit")
  func ownStep() throws {
    var undo = PlannerUndo()
    let first = task("first", in: home)
    let second = task("second", in: home)
    var firstNow = first
    firstNow.title = "renamed"
    let toast = undo.changed(before: [first], after: [firstNow]).step
    undo.changed(before: [second], after: [])
    let undoneToast = undo.undo(toast.id, current: { $0 == first.id ? firstNow : second })
    let edits = try #require(undoneToast)
    #expect(edits.count == 1)
    #expect(undo.steps.count == 1, "the later step stays for Ctrl+Z")
    #expect(undo.undo(current: { $0 == second.id ? second : nil }) == [], "unchanged: nothing to send")
    undo.changed(before: [first], after: [])
    #expect(undo.undo(current: { _ in nil }) == [], "deleted since: left alone")
  }

  @Test("past the limit the oldest deletion is carried out; sign-out carries out every waiting deletion")
  func limitAndFinishAll() {
    var undo = PlannerUndo()
    let old = task("old", in: home)
    _ = undo.delete([old])
    var carried: [PlannerEdit] = []
    for index in 0..<PlannerUndo.limit {
      carried += undo.changed(before: [task("t\(index)", in: home)], after: []).carryOut
    }
    #expect(carried == [.deleteTask(list: home, id: old.id)])
    let waiting = task("waiting", in: work)
    _ = undo.delete([waiting])
    #expect(undo.finishAll() == [.deleteTask(list: work, id: waiting.id)])
    // (The last deletion pushed the oldest change out: the other changes stay to be taken back.)
    #expect(undo.hiddenTasks.isEmpty && undo.steps.count == PlannerUndo.limit - 1)
    undo.clear()
    #expect(undo.steps.isEmpty)
  }
}

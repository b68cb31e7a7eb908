// Tests of the reminder service's memory: when a task's reminders fire (due times in their zone, a day without a
// time, snoozes, acknowledgements), each firing once across feed reads and restarts, and notifications withdrawn
// when another device finished, snoozed or acknowledged the task.

import Foundation
import Testing

@testable import TasksCore

@Suite("Reminders: the agenda")
struct ReminderAgendaTests {
  private let list = PlannerListItem(id: UUID(), name: "Home")
  private let start = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15 08:00 UTC

  private func task(_ title: String, _ reminders: [TaskReminder], due: TaskDue? = nil) -> PlannerItem {
    var item = PlannerItem(id: UUID(), listID: list.id, title: title, createdAt: start)
    item.due = due
    item.reminders = reminders
    return item
  }

  private func changes(_ tasks: [PlannerItem], lists: [PlannerListItem] = [], deletedTasks: [UUID] = [])
    -> PlannerChanges
  {
    var changes = PlannerChanges(next: "t")
    changes.lists = lists
    changes.tasks = tasks
    changes.deletedTasks = deletedTasks
    return changes
  }

  @Test("a reminder fires at its time, before a due time in the task's zone, or before 09:00 local on a bare date")
  func times() throws {
    let at = task("at", [TaskReminder(.at(start))])
    #expect(at.reminderTimes.map(\.at) == [start])
    let zoned = task(
      "zoned", [TaskReminder(.before(minutes: 30))],
      due: TaskDue(
        date: CalendarDate(year: 2027, month: 1, day: 15)!, time: TimeOfDay(hour: 12), timeZone: "Asia/Tokyo"))
    // 12:00 in Tokyo is 03:00 UTC; 30 minutes before is 02:30 UTC.
    #expect(zoned.reminderTimes.map(\.at) == [Date(timeIntervalSince1970: 1_799_980_200)])
    let day = task(
      "day", [TaskReminder(.before(minutes: 0))], due: TaskDue(date: CalendarDate(year: 2027, month: 1, day: 15)!))
    let nine = try #require(
      TaskDue(date: CalendarDate(year: 2027, month: 1, day: 15)!, time: TimeOfDay(hour: 9)).moment)
    #expect(day.reminderTimes.map(\.at) == [nine])
    let none = task("no due", [TaskReminder(.before(minutes: 10))])
    #expect(none.reminderTimes.isEmpty)
  }

  @Test("a snooze moves a reminder later; an acknowledgement after it fired ends it, one before it does not")
  func snoozeAndAcknowledge() {
    let later = start.addingTimeInterval(600)
    #expect(task("s", [TaskReminder(.at(start), snoozedUntil: later)]).reminderTimes.map(\.at) == [later])
    #expect(task("s", [TaskReminder(.at(later), snoozedUntil: start)]).reminderTimes.map(\.at) == [later])
    #expect(task("a", [TaskReminder(.at(start), acknowledgedAt: later)]).reminderTimes.isEmpty)
    #expect(task("a", [TaskReminder(.at(later), acknowledgedAt: start)]).reminderTimes.map(\.at) == [later])
    #expect(
      task("both", [TaskReminder(.at(start), acknowledgedAt: start, snoozedUntil: later)]).reminderTimes.count == 1)
    var done = task("done", [TaskReminder(.at(start))])
    done.status = .completed
    #expect(done.reminderTimes.isEmpty)
  }

  @Test("a snooze is kept as the service gives it back: its end fires once, whatever the feed brings after")
  func snoozeAsSent() throws {
    let fired = task("f", [TaskReminder(.at(start))])
    var agenda = ReminderAgenda()
    _ = agenda.apply(changes([fired], lists: [list]), whole: true)
    #expect(agenda.due(at: start).count == 1)
    // Snoozed at moments finer than the wire's milliseconds, applied here before the service answers.
    let now = start.addingTimeInterval(5.123_456_7)
    let snoozed = ReminderAgenda.snoozed(fired, now: now, until: now.addingTimeInterval(600))
    let end = try #require(snoozed.reminderTimes.first?.at)
    #expect(abs(end.timeIntervalSince(now.addingTimeInterval(600))) < 0.001)
    _ = agenda.apply(changes([snoozed]), whole: false)
    #expect(agenda.due(at: end).count == 1)
    // The service's copy, read back from its JSON.
    var service = ReminderAgenda()
    _ = service.apply(changes([snoozed], lists: [list]), whole: true)
    let served = try PlannerChanges(json: service.document(token: "u"))
    #expect(agenda.apply(served, whole: false).isEmpty)
    #expect(agenda.due(at: end.addingTimeInterval(1)).isEmpty)
    // Snoozed again (`again`, as `b2c-tasks-cli snooze` does): the snoozed reminder moves; without it, it stays.
    let later = end.addingTimeInterval(300)
    #expect(ReminderAgenda.snoozed(snoozed, now: now, until: later, again: true).reminderTimes.first?.at == later)
    #expect(ReminderAgenda.snoozed(snoozed, now: now, until: later).reminders == snoozed.reminders)
  }

  @Test("each reminder fires once, the latest of a task's due ones; late ones say they were missed")
  func firesOnce() {
    let soon = task("soon", [TaskReminder(.at(start.addingTimeInterval(60)))])
    let two = task(
      "two", [TaskReminder(.at(start.addingTimeInterval(-7200))), TaskReminder(.at(start.addingTimeInterval(-3600)))])
    let done = task("done", [TaskReminder(.at(start))])
    var finished = done
    finished.status = .completed
    var agenda = ReminderAgenda()
    #expect(agenda.apply(changes([soon, two, finished], lists: [list]), whole: true).isEmpty)
    #expect(agenda.task(finished.id) == nil)
    #expect(agenda.next == start.addingTimeInterval(-7200))
    let now = agenda.due(at: start)
    #expect(now.map(\.task.title) == ["two"] && now[0].at == start.addingTimeInterval(-3600) && now[0].missed)
    #expect(now[0].listName == "Home")
    #expect(agenda.due(at: start).isEmpty)
    #expect(agenda.next == start.addingTimeInterval(60))
    // The same task read again, its title changed: nothing fires twice, nothing is withdrawn.
    var renamed = two
    renamed.title = "renamed"
    #expect(agenda.apply(changes([renamed]), whole: false).isEmpty)
    #expect(agenda.due(at: start.addingTimeInterval(30)).isEmpty)
    let on = agenda.due(at: start.addingTimeInterval(61))
    #expect(on.map(\.task.title) == ["soon"] && !on[0].missed)
    #expect(agenda.next == nil)
    // A restart with the ledger: nothing fires again.
    var restarted = ReminderAgenda(fired: agenda.fired)
    _ = restarted.apply(changes([soon, renamed], lists: [list]), whole: true)
    #expect(restarted.due(at: start.addingTimeInterval(120)).isEmpty && restarted.next == nil)
  }

  @Test("a notification is withdrawn when the task is finished, deleted, acknowledged or snoozed elsewhere")
  func withdrawals() {
    let a = task("a", [TaskReminder(.at(start))])
    let b = task("b", [TaskReminder(.at(start))])
    let c = task("c", [TaskReminder(.at(start))])
    let d = task("d", [TaskReminder(.at(start))])
    var agenda = ReminderAgenda()
    _ = agenda.apply(changes([a, b, c, d], lists: [list]), whole: true)
    #expect(agenda.due(at: start).count == 4)
    var finished = a
    finished.status = .completed
    var acknowledged = b
    acknowledged.reminders[0].acknowledgedAt = start.addingTimeInterval(5)
    let snoozed = ReminderAgenda.snoozed(c, now: start.addingTimeInterval(5), until: start.addingTimeInterval(605))
    let withdrawn = agenda.apply(changes([finished, acknowledged, snoozed], deletedTasks: [d.id]), whole: false)
    #expect(Set(withdrawn) == [a.id, b.id, c.id, d.id])
    #expect(agenda.due(at: start.addingTimeInterval(600)).isEmpty)
    #expect(agenda.next == start.addingTimeInterval(605))
    #expect(agenda.due(at: start.addingTimeInterval(606)).map(\.task.title) == ["c"])
    var signedOut = agenda
    #expect(signedOut.clear() == [c.id] && signedOut.next == nil)
  }

  @Test("a deleted list takes its tasks' reminders; a list renamed names the next notification")
  func lists() {
    let a = task("a", [TaskReminder(.at(start))])
    var agenda = ReminderAgenda()
    _ = agenda.apply(changes([a], lists: [list]), whole: true)
    var renamed = list
    renamed.name = "House"
    _ = agenda.apply(changes([], lists: [renamed]), whole: false)
    #expect(agenda.due(at: start).first?.listName == "House")
    var gone = PlannerChanges(next: "u")
    gone.deletedLists = [list.id]
    #expect(agenda.apply(gone, whole: false) == [a.id] && agenda.tasks.isEmpty)
  }

  @Test(
    "S3: the agenda keeps only what a notification shows: 300 tasks with 60 000 characters of notes and 4 000-character titles make a small agenda, in memory and on disk"
  )
  func keepsOnlyWhatItShows() throws {
    let notes = String(repeating: "n", count: 60_000)
    let tasks = (0..<300).map { index in
      var item = task(String(repeating: "t", count: 4_000) + "\(index)", [TaskReminder(.at(start))])
      item.notes = notes
      item.categories = [String(repeating: "c", count: 100)]
      return item
    }
    var agenda = ReminderAgenda()
    _ = agenda.apply(changes(tasks, lists: [list]), whole: true)
    #expect(agenda.tasks.count == 300)
    #expect(agenda.tasks.values.allSatisfy { $0.notes.isEmpty && $0.categories.isEmpty && $0.title.count == 200 })
    let document = agenda.document(token: "t")
    #expect(document.count < 300 * 1_000, "\(document.count) bytes on disk")
    let read = try #require(ReminderAgenda(document: document, fired: [:]))
    #expect(read.tasks == agenda.tasks)
    // Snooze sends back only the reminders: the notes it never had are not a change.
    let kept = try #require(agenda.task(tasks[0].id))
    let snoozed = ReminderAgenda.snoozed(kept, now: start, until: start.addingTimeInterval(600))
    #expect(snoozed.notes == kept.notes && snoozed.title == kept.title && snoozed.reminders != kept.reminders)
  }

  @Test(
    "S3: at most 3 notifications a minute on their own; the rest held and counted by one grouped notification, which starts afresh after a quiet minute"
  )
  func pacing() {
    let alerts = (0..<10).map { ReminderAlert(task: task("r\($0)", []), listName: "Home", at: start, shared: true) }
    var pacing = ReminderPacing()
    let first = pacing.admit(alerts, now: start)
    #expect(first.shown.map(\.task.title) == ["r0", "r1", "r2"] && first.held.count == 7)
    #expect(pacing.groupTitle == "7 more reminders" && pacing.groupBody == "r9 · r8 · r7")
    // Within the minute: no room; the group counts on.
    let second = pacing.admit([alerts[0]], now: start.addingTimeInterval(30))
    #expect(second.shown.isEmpty && pacing.held.count == 8)
    // A minute after the first three: room for three again.
    let third = pacing.admit(Array(alerts.prefix(4)), now: start.addingTimeInterval(61))
    #expect(third.shown.count == 3 && third.held.count == 1 && pacing.held.count == 9)
    // A minute with nothing held: the group starts afresh.
    let later = pacing.admit(Array(alerts.prefix(5)), now: start.addingTimeInterval(200))
    #expect(later.shown.count == 3 && pacing.held.count == 2)
    // The user's own lists' reminders are never held, however many of a shared list came first.
    let own = (0..<5).map { ReminderAlert(task: task("own \($0)", []), listName: "Mine", at: start) }
    let mixed = pacing.admit(Array(alerts.prefix(4)) + own, now: start.addingTimeInterval(201))
    #expect(mixed.shown.filter { !$0.shared }.count == 5 && mixed.held.count == 4)
  }

  @Test("the agenda kept on disk reads back with its token, for a start that cannot reach the service")
  func document() {
    let a = task("a", [TaskReminder(.at(start))], due: TaskDue(date: CalendarDate(year: 2027, month: 1, day: 15)!))
    var agenda = ReminderAgenda()
    _ = agenda.apply(changes([a, task("none", [])], lists: [list]), whole: true)
    let fired = [a.id: start]
    let read = ReminderAgenda(document: agenda.document(token: "t42"), fired: fired)
    #expect(read?.tasks == agenda.tasks && agenda.tasks.count == 1)
    #expect(read?.listNames == agenda.listNames && read?.token == "t42" && read?.fired == fired)
    #expect(ReminderAgenda(document: Data("{\"next\": 3}".utf8), fired: [:]) == nil)
    #expect(ReminderAgenda(document: Data("garbage".utf8), fired: [:]) == nil)
  }

  @Test("the ledger keeps what fired across starts; lines that do not read are left out")
  func ledger() throws {
    let folder = FileManager.default.temporaryDirectory.appending(path: "ledger-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let ledger = ReminderLedger(file: folder.appending(path: "fired"))
    let fired = [UUID(): start, UUID(): start.addingTimeInterval(0.5)]
    try ledger.write(fired)
    #expect(ledger.read() == fired)
    let mode = try FileManager.default.attributesOfItem(atPath: ledger.file.path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    let id = UUID()
    try Data("garbage\n\(id.uuidString) nan\n\(id.uuidString) 12\n\0\u{1}".utf8).write(to: ledger.file)
    #expect(ledger.read() == [id: Date(timeIntervalSince1970: 12)])
    try ledger.write([:])
    #expect(!FileManager.default.fileExists(atPath: ledger.file.path))

    // A moment with milliseconds, as the feed gives it (a snooze's end), read back from the ledger by a new start:
    // the same reminder, which neither fires again nor is withdrawn.
    var served = ReminderAgenda()
    let snoozeEnd = Date(timeIntervalSince1970: 1_795_938_378.195)
    _ = served.apply(changes([task("s", [TaskReminder(.at(snoozeEnd))])], lists: [list]), whole: true)
    let feed = try PlannerChanges(json: served.document(token: "t"))
    var first = ReminderAgenda()
    _ = first.apply(feed, whole: true)
    #expect(first.due(at: snoozeEnd.addingTimeInterval(1)).count == 1)
    try ledger.write(first.fired)
    var restarted = ReminderAgenda(fired: ledger.read())
    #expect(restarted.apply(feed, whole: true).isEmpty)
    #expect(restarted.due(at: snoozeEnd.addingTimeInterval(2)).isEmpty && restarted.next == nil)
  }
}

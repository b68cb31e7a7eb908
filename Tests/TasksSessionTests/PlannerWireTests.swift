// The task API v2's task as the service writes it and as the app reads it: two implementations that share no JSON
// code, checked against each other (every field, written by TaskService and read back by TasksCore's PlannerItem).

import Foundation
import TaskService
import TasksCore
import Testing

@Suite("Task API v2: the service's task JSON, read by the app")
struct PlannerWireTests {
  @Test("every field the service writes, the app reads back as it was")
  func roundTrip() throws {
    let now = Date(timeIntervalSince1970: 1_795_000_000.25)
    let changes = try TaskChanges(
      json: Data(
        """
        {"title": "Pay rent \\"now\\"\\n", "notes": "ü 買", "priority": 1, "categories": ["home", "money"],
         "due": {"date": "2026-12-01", "time": "09:00", "timeZone": "Europe/Helsinki"},
         "recurrence": {"rrule": "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH", "from": "completion"},
         "reminders": [{"before": 30}, {"at": "2026-11-30T18:00:00.125Z", "snoozedUntil": "2026-11-30T18:10:00Z"}],
         "parentId": "0B1E2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D", "sortKey": "a0", "status": "completed"}
        """.utf8))
    let task = try PlannerTask(title: "x").applying(changes, now: now)
    let stored = StoredTask(
      id: UUID(), listID: UUID(), task: task, createdAt: now.addingTimeInterval(-60), updatedAt: now, version: 12)
    let read = try PlannerItem(json: stored.json)
    #expect(read.id == stored.id && read.listID == stored.listID && read.version == 12)
    #expect(read.title == task.title && read.notes == task.notes && read.priority == 1)
    #expect(read.status == .completed && read.completedAt == now)
    #expect(read.due == task.due && read.recurrence == task.recurrence && read.reminders == task.reminders)
    #expect(read.categories == task.categories && read.parentID == task.parentID && read.sortKey == "a0")
    #expect(read.createdAt == stored.createdAt && read.updatedAt == stored.updatedAt)
    #expect(stored.etag == "\"12\"")
  }
}

// The task API v2's task as the service writes it and as the app reads it: two implementations that share no JSON
// code, checked against each other (every field, written by TaskService and read back by TasksCore's PlannerItem).

import Foundation
import TaskService
import TasksCore
import TasksTestSupport
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
    #expect(read.occurrencesDone == 0 && read.lastOccurrenceDone == nil, "nothing finished")
    // A series of five, two finished, the last on 2 December: read back as the service counts them.
    var doses = try PlannerTask(title: "doses").applying(
      TaskChanges(json: Data(#"{"due": {"date": "2026-12-03"}, "recurrence": {"rrule": "FREQ=DAILY;COUNT=5"}}"#.utf8)),
      now: now)
    doses.occurrencesDone = 2
    doses.lastOccurrenceDone = CalendarDate("2026-12-02")
    let counted = try PlannerItem(
      json: StoredTask(id: UUID(), listID: UUID(), task: doses, createdAt: now, updatedAt: now, version: 1).json)
    #expect(counted.occurrencesDone == 2 && counted.lastOccurrenceDone == doses.lastOccurrenceDone)
  }

  @Test(
    "what the service writes is a PlannerTask of openapi.yaml (checked by jsonschema-rs); a task that breaks it is not")
  func matchesTheDescription() async throws {
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    let bodies = [
      #"{"title": "minimal"}"#,
      #"{"title": "t", "due": {"date": "2026-12-01"}, "recurrence": {"rrule": "FREQ=DAILY;COUNT=3"}, "status": "completed"}"#,
      #"{"title": "t", "due": {"date": "2026-12-01", "time": "23:59", "timeZone": "America/New_York"},"#
        + #" "reminders": [{"before": 0}, {"at": "2026-12-01T09:00:00Z", "acknowledgedAt": "2026-12-01T09:00:01Z"}],"#
        + #" "categories": ["a", "b"], "priority": 9, "notes": "n", "parentId": "0b1e2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"}"#,
    ]
    var lines: [String] = []
    for body in bodies {
      let task = try PlannerTask(title: "x").applying(try TaskChanges(json: Data(body.utf8)), now: now)
      let stored = StoredTask(id: UUID(), listID: UUID(), task: task, createdAt: now, updatedAt: now, version: 1)
      lines.append(String(decoding: stored.json, as: UTF8.self))
    }
    // Broken on purpose: each must be refused, or the check proves nothing.
    let sample = lines[2]
    let broken = [
      sample.replacingOccurrences(of: #""priority":9"#, with: #""priority":12"#),
      sample.replacingOccurrences(of: #""time":"23:59""#, with: #""time":"24:00""#),
      sample.replacingOccurrences(of: #""version":1"#, with: #""version":1,"extra":true"#),
      sample.replacingOccurrences(of: #""before":0"#, with: #""before":0,"at":"2026-12-01T09:00:00.000Z""#),
    ]
    try #require(broken.allSatisfy { $0 != sample })
    let openAPI = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../OpenAPI").standardized
    let venv = try await ChildProcess.run(openAPI.appending(path: "venv.sh"), timeout: .seconds(900))
    try #require(venv.status == 0, "the schemathesis virtualenv could not be made: \(venv.error)")
    let python = URL(filePath: venv.output.trimmingCharacters(in: .whitespacesAndNewlines)).appending(
      path: "bin/python")
    let file = FileManager.default.temporaryDirectory.appending(path: "planner-tasks-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: file) }
    try Data(((lines + broken).joined(separator: "\n") + "\n").utf8).write(to: file)
    let run = try await ChildProcess.run(
      python, [openAPI.appending(path: "validate.py").path, "PlannerTask", file.path], timeout: .seconds(120))
    try #require(run.status == 0, "validate.py failed: \(run.error.suffix(2000))")
    let verdicts = run.output.split(separator: "\n").map { String($0) }
    try #require(verdicts.count == lines.count + broken.count, "\(run.output)")
    for (index, verdict) in verdicts.enumerated() {
      let valid = verdict.contains(#""valid": true"#)
      #expect(valid == (index < lines.count), "line \(index): \(verdict)")
    }
  }

  @Test("a PATCH the app writes for the fields it changed, the service reads and applies to the same task")
  func patchRoundTrip() throws {
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    let original = try PlannerTask(title: "x").applying(
      try TaskChanges(
        json: Data(
          #"{"title": "Water plants", "due": {"date": "2026-12-01", "time": "08:00"}, "recurrence": {"rrule": "FREQ=WEEKLY"},"#
            .appending(#" "priority": 5, "categories": ["home"], "notes": "kept"}"#).utf8)), now: now)
    var stored = StoredTask(id: UUID(), listID: UUID(), task: original, createdAt: now, updatedAt: now, version: 2)
    let base = try PlannerItem(json: stored.json)
    var mine = base
    mine.title = "Water the plants"
    mine.due = TaskDue(date: CalendarDate("2026-12-03")!)
    mine.recurrence = nil
    mine.priority = 1
    mine.categories = ["home", "garden"]
    mine.reminders = [TaskReminder(.at(now.addingTimeInterval(3_600)), snoozedUntil: now.addingTimeInterval(4_200))]
    mine.status = .completed
    mine.completedAt = now.addingTimeInterval(60)
    let fields: [PlannerItem.Field] = [.title, .due, .recurrence, .priority, .categories, .reminders, .status]
    let changes = try TaskChanges(json: mine.patch(fields))
    stored.task = try stored.task.applying(changes, now: now.addingTimeInterval(120))
    let applied = try PlannerItem(json: stored.json)
    for field in PlannerItem.Field.allCases {
      #expect(applied.same(field, as: mine), "\(field): the service has \(applied), the app sent \(mine)")
    }
    #expect(applied.notes == "kept", "a field not sent stays")
  }
}

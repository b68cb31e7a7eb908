// PlannerFeedJSON: the change feed's answer (`GET /api/v2/changes`) written straight into bytes from the stored
// tasks' fields. Pure functions.

import Foundation

/// The feed's JSON, `{"deleted":{"lists":[…],"tasks":[…]},"lists":[…],"more":…,"next":"…","tasks":[…]}`, and every
/// task the API answers (a task, a list's tasks, a write's answer): each task written field by field as `TaskListJSON`
/// writes the sample's list (no dictionary per task, no `JSONSerialization`, no date formatter). A first sync of
/// 10 000 tasks spent most of its time in those (Tests/Benchmarks/RESULTS.md). Lists (a few per answer) go through
/// their `jsonObject`. What is written is checked against openapi.yaml and against the app's own reader
/// (PlannerWireTests).
enum PlannerFeedJSON {
  static func encode(_ page: PlannerFeedPage, tasks: [StoredTask]) throws -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(
      256 + tasks.reduce(0) { $0 + $1.task.title.utf8.count + $1.task.notes.utf8.count + 420 }
        + (page.deletedLists.count + page.deletedTasks.count) * 39)
    out.append(contentsOf: #"{"deleted":{"lists":"#.utf8)
    appendIDs(page.deletedLists, to: &out)
    out.append(contentsOf: #","tasks":"#.utf8)
    appendIDs(page.deletedTasks, to: &out)
    out.append(contentsOf: #"},"lists":"#.utf8)
    out.append(contentsOf: try JSONSerialization.data(withJSONObject: page.lists.map(\.jsonObject)))
    out.append(contentsOf: page.more != nil ? #","more":true,"next":"#.utf8 : #","more":false,"next":"#.utf8)
    TaskListJSON.appendString(page.nextToken, to: &out)
    out.append(contentsOf: #","tasks":["#.utf8)
    for (index, task) in tasks.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      append(task, to: &out)
    }
    out.append(contentsOf: "]}".utf8)
    return out
  }

  /// A JSON array of `tasks`.
  static func encode(tasks: [StoredTask]) -> [UInt8] {
    var out: [UInt8] = [UInt8(ascii: "[")]
    out.reserveCapacity(tasks.reduce(2) { $0 + $1.task.title.utf8.count + $1.task.notes.utf8.count + 420 })
    for (index, task) in tasks.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      append(task, to: &out)
    }
    out.append(UInt8(ascii: "]"))
    return out
  }

  /// One task: its id, list and parent, its fields, and the service's own (times, version, who changed it).
  static func append(_ stored: StoredTask, to out: inout [UInt8]) {
    let task = stored.task
    out.append(contentsOf: #"{"id":"#.utf8)
    appendID(stored.id, to: &out)
    out.append(contentsOf: #","listId":"#.utf8)
    appendID(stored.listID, to: &out)
    out.append(contentsOf: #","parentId":"#.utf8)
    appendOptionalID(task.parentID, to: &out)
    out.append(contentsOf: #","title":"#.utf8)
    TaskListJSON.appendString(task.title, to: &out)
    out.append(contentsOf: #","notes":"#.utf8)
    TaskListJSON.appendString(task.notes, to: &out)
    out.append(contentsOf: #","status":""#.utf8)
    out.append(contentsOf: task.status.rawValue.utf8)
    out.append(contentsOf: #"","completedAt":"#.utf8)
    appendOptionalTime(task.completedAt, to: &out)
    out.append(contentsOf: #","priority":"#.utf8)
    out.append(contentsOf: String(task.priority).utf8)
    out.append(contentsOf: #","due":"#.utf8)
    if let due = task.due {
      out.append(contentsOf: #"{"date":""#.utf8)
      out.append(contentsOf: due.date.description.utf8)
      out.append(contentsOf: #"","time":"#.utf8)
      if let time = due.time { TaskListJSON.appendString(time.description, to: &out) } else { appendNull(&out) }
      out.append(contentsOf: #","timeZone":"#.utf8)
      if let zone = due.timeZone { TaskListJSON.appendString(zone, to: &out) } else { appendNull(&out) }
      out.append(UInt8(ascii: "}"))
    } else {
      appendNull(&out)
    }
    out.append(contentsOf: #","recurrence":"#.utf8)
    if let recurrence = task.recurrence {
      out.append(contentsOf: #"{"rrule":"#.utf8)
      TaskListJSON.appendString(recurrence.rule.rrule, to: &out)
      out.append(contentsOf: #","from":""#.utf8)
      out.append(contentsOf: recurrence.from.rawValue.utf8)
      out.append(contentsOf: #""}"#.utf8)
    } else {
      appendNull(&out)
    }
    out.append(contentsOf: #","reminders":["#.utf8)
    for (index, reminder) in task.reminders.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      switch reminder.when {
      case .at(let time):
        out.append(contentsOf: #"{"at":"#.utf8)
        appendOptionalTime(time, to: &out)
      case .before(let minutes):
        out.append(contentsOf: #"{"before":"#.utf8)
        out.append(contentsOf: String(minutes).utf8)
      }
      out.append(contentsOf: #","acknowledgedAt":"#.utf8)
      appendOptionalTime(reminder.acknowledgedAt, to: &out)
      out.append(contentsOf: #","snoozedUntil":"#.utf8)
      appendOptionalTime(reminder.snoozedUntil, to: &out)
      out.append(UInt8(ascii: "}"))
    }
    out.append(contentsOf: #"],"categories":["#.utf8)
    for (index, category) in task.categories.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      TaskListJSON.appendString(category, to: &out)
    }
    out.append(contentsOf: #"],"sortKey":"#.utf8)
    TaskListJSON.appendString(task.sortKey, to: &out)
    out.append(contentsOf: #","createdAt":"#.utf8)
    appendOptionalTime(stored.createdAt, to: &out)
    out.append(contentsOf: #","updatedAt":"#.utf8)
    appendOptionalTime(stored.updatedAt, to: &out)
    out.append(contentsOf: #","version":"#.utf8)
    out.append(contentsOf: String(stored.version).utf8)
    out.append(contentsOf: #","changedBy":"#.utf8)
    appendOptionalID(stored.changedBy, to: &out)
    out.append(UInt8(ascii: "}"))
  }

  private static func appendNull(_ out: inout [UInt8]) { out.append(contentsOf: "null".utf8) }

  private static func appendIDs(_ ids: [UUID], to out: inout [UInt8]) {
    out.append(UInt8(ascii: "["))
    for (index, id) in ids.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      appendID(id, to: &out)
    }
    out.append(UInt8(ascii: "]"))
  }

  private static func appendOptionalID(_ id: UUID?, to out: inout [UInt8]) {
    if let id { appendID(id, to: &out) } else { appendNull(&out) }
  }

  /// `"…"`, lower case (as every id the API writes).
  private static func appendID(_ id: UUID, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    withUnsafeBytes(of: id.uuid) { bytes in
      for (index, byte) in bytes.enumerated() {
        if index == 4 || index == 6 || index == 8 || index == 10 { out.append(UInt8(ascii: "-")) }
        out.append(hexDigits[Int(byte >> 4)])
        out.append(hexDigits[Int(byte & 0xF)])
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// `"2026-11-25T09:00:00.000Z"` (as `PlannerTask.time`: UTC, milliseconds), or null.
  private static func appendOptionalTime(_ date: Date?, to out: inout [UInt8]) {
    guard let date else { return appendNull(&out) }
    out.append(UInt8(ascii: "\""))
    TaskListJSON.appendTimestamp(date, to: &out)
    out.append(UInt8(ascii: "\""))
  }
}

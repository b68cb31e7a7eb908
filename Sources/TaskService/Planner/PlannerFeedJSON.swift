// PlannerFeedJSON: the change feed's answer (`GET /api/v2/changes`) written straight into bytes from the stored
// tasks' fields. Pure functions.

import Foundation
import TasksCalendar

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
    JSONWriter.appendString(page.nextToken, to: &out)
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
    JSONWriter.appendID(stored.id, to: &out)
    out.append(contentsOf: #","listId":"#.utf8)
    JSONWriter.appendID(stored.listID, to: &out)
    out.append(contentsOf: #","parentId":"#.utf8)
    JSONWriter.appendID(task.parentID, to: &out)
    out.append(contentsOf: #","title":"#.utf8)
    JSONWriter.appendString(task.title, to: &out)
    out.append(contentsOf: #","notes":"#.utf8)
    JSONWriter.appendString(task.notes, to: &out)
    out.append(contentsOf: #","status":""#.utf8)
    out.append(contentsOf: task.status.rawValue.utf8)
    out.append(contentsOf: #"","completedAt":"#.utf8)
    JSONWriter.appendTime(task.completedAt, to: &out)
    out.append(contentsOf: #","priority":"#.utf8)
    out.append(contentsOf: String(task.priority).utf8)
    out.append(contentsOf: #","due":"#.utf8)
    JSONWriter.appendDue(task.due, to: &out)
    out.append(contentsOf: #","recurrence":"#.utf8)
    JSONWriter.appendRecurrence(task.recurrence, to: &out)
    // What `completing` counts by, for an app to finish the task offline as the service will; only a task finished
    // as a repeat has them (10 000 tasks would carry some 400 kB of zeros and nulls).
    if task.occurrencesDone > 0 {
      out.append(contentsOf: #","occurrencesDone":"#.utf8)
      out.append(contentsOf: String(task.occurrencesDone).utf8)
    }
    if let last = task.lastOccurrenceDone {
      out.append(contentsOf: #","lastOccurrenceDone":"#.utf8)
      JSONWriter.appendString(last.description, to: &out)
    }
    out.append(contentsOf: #","reminders":"#.utf8)
    JSONWriter.appendReminders(task.reminders, to: &out)
    out.append(contentsOf: #","categories":"#.utf8)
    JSONWriter.appendStrings(task.categories, to: &out)
    out.append(contentsOf: #","sortKey":"#.utf8)
    JSONWriter.appendString(task.sortKey, to: &out)
    out.append(contentsOf: #","createdAt":"#.utf8)
    JSONWriter.appendTime(stored.createdAt, to: &out)
    out.append(contentsOf: #","updatedAt":"#.utf8)
    JSONWriter.appendTime(stored.updatedAt, to: &out)
    out.append(contentsOf: #","version":"#.utf8)
    out.append(contentsOf: String(stored.version).utf8)
    out.append(contentsOf: #","changedBy":"#.utf8)
    JSONWriter.appendID(stored.changedBy, to: &out)
    out.append(UInt8(ascii: "}"))
  }

  private static func appendIDs(_ ids: [UUID], to out: inout [UInt8]) {
    out.append(UInt8(ascii: "["))
    for (index, id) in ids.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      JSONWriter.appendID(id, to: &out)
    }
    out.append(UInt8(ascii: "]"))
  }
}

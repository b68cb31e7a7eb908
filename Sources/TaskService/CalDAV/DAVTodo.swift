// DAVTodo: between a resource's text and a task write: a PUT body read (or refused with CalDAV's precondition), the
// write it makes (finishing a repeating task's occurrence the way the window does, whichever of the clients' three
// ways said it), and a task's text for GET. Values; any thread.

import Foundation
import TasksCalendar

package enum DAVTodo {
  /// A PUT body, read.
  package struct Incoming {
    let resource: TodoResource
    package let text: String
    package var uid: String { resource.uid }
    package var parentUID: String? { resource.fields.parentUID }
    /// The UIDs the write needs to look up (its parent's).
    var parentUIDs: [String] { parentUID.map { [$0] } ?? [] }
  }

  package static func read(_ data: Data) throws(DAVRefusal) -> Incoming {
    guard let text = String(validating: data, as: UTF8.self) else {
      throw DAVRefusal.precondition(.badRequest, DAVXML.caldav, "valid-calendar-data", "The body is not UTF-8.")
    }
    do throws(TodoResourceError) {
      return Incoming(resource: try TodoResource(parsing: text), text: text)
    } catch {
      switch error {
      case .syntax:
        throw DAVRefusal.precondition(.badRequest, DAVXML.caldav, "valid-calendar-data", error.description)
      case .unsupportedComponent:
        throw DAVRefusal.precondition(.forbidden, DAVXML.caldav, "supported-calendar-component", error.description)
      case .severalUIDs, .invalidTask:
        throw DAVRefusal.precondition(.forbidden, DAVXML.caldav, "valid-calendar-object-resource", error.description)
      }
    }
  }

  /// What a PUT does: `changes`, then, while the task's open occurrence is one of `finished`, that occurrence
  /// finished (on `today`).
  package struct Plan {
    package var changes: TaskChanges
    /// The occurrences the text says are done (a COMPLETED master's date, completed overrides' RECURRENCE-IDs).
    package var finished: [CalendarDate] = []
    package var today: CalendarDate

    /// At most this many occurrences are finished by one PUT (each is a write of its own; a client finishes a few).
    package static let maxFinished = 16

    /// The occurrence to finish next on `task` as written so far, after `count` finished by this PUT: its open one,
    /// when the text says it is done; or nil. Past the first, only a task repeating from its due date goes on: one
    /// repeating from completion moves to a date reckoned from today, which an override naming the same date did not
    /// mean. (A GET leaves out the overrides of occurrences the task has taken in, the open one too when an Undo put
    /// the task back on it: a text naming it done again means it.)
    package func nextFinished(on task: PlannerTask, after count: Int) -> CalendarDate? {
      guard count < Self.maxFinished, let recurrence = task.recurrence, count == 0 || recurrence.from == .due,
        task.status == .needsAction, let due = task.due?.date, finished.contains(due)
      else { return nil }
      return due
    }
  }

  /// The write of `incoming` over `current` (nil: a new task), the parent resolved to `parentID`.
  ///
  /// A repeating task is finished one occurrence at a time, as the window does, so that exactly one stays open:
  /// a master marked done on its open occurrence's date (python-caldav, Thunderbird), or an override with that
  /// RECURRENCE-ID marked done, finishes that occurrence and the task moves to its next date; a client that moved
  /// DUE on itself (Tasks.org) or closed a copy and moved the master (Evolution) wrote an open task at a new date,
  /// which is a change like any other. Overrides that finish the occurrences after it finish those too, one after
  /// the other, and a new task's overrides as well: the same text makes the same task whether it creates the task or
  /// is saved over it (found by fuzzing: a GET's text saved back unchanged moved on a task its first PUT had left at a
  /// date the text said was done).
  package static func plan(_ incoming: Incoming, current: StoredTask?, parentID: UUID?, now: Date) -> Plan {
    let fields = incoming.resource.fields
    var changes = fields.changes(over: current?.task)
    if current == nil, case .keep = changes.title { changes.title = .set("Untitled task") }
    if let parentID {
      changes.parentID = .set(parentID)
    } else if fields.parentUID == nil {
      changes.parentID = .clear
    }
    var plan = Plan(
      changes: changes, today: CalendarDate(dayNumber: Int((now.timeIntervalSince1970 / 86_400).rounded(.down))))
    guard fields.rule != nil, let due = fields.due?.date else { return plan }
    guard let current else {
      if fields.status == .needsAction, fields.completedOccurrences.contains(due) {
        plan.finished = fields.completedOccurrences
      }
      return plan
    }
    guard current.task.recurrence != nil, current.task.status == .needsAction else { return plan }
    var done = fields.completedOccurrences
    if fields.status == .completed, !done.contains(due) { done.append(due) }
    if done.contains(due) {
      plan.changes.status = .keep
      plan.changes.completedAt = .keep
      plan.finished = done
    }
    return plan
  }

  /// The text GET answers for `task`.
  package static func render(_ task: DAVTask) -> String {
    TodoResource.render(
      stored: task.record.ical, task: task.stored.task, uid: task.uid,
      parentUID: task.parentUID ?? task.record.ical.flatMap { try? TodoResource(parsing: $0) }?.fields.parentUID,
      createdAt: task.stored.createdAt, updatedAt: task.stored.updatedAt)
  }
}

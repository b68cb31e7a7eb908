// TaskDue, TaskRecurrence, TaskReminder: when a task is due, how it repeats and when it reminds, as values the core
// and the task service share (each reads and writes them in its own JSON code). Pure values; any thread.

import FoundationEssentials

/// When a task is due: a day, or a day and a time (in a time zone, or floating: the same clock time wherever the
/// user is). A day without a time stays a day: never midnight, never moved by a time zone.
public struct TaskDue: Equatable, Sendable {
  public var date: CalendarDate
  public var time: TimeOfDay?
  /// An IANA time zone (`Europe/Helsinki`), only with a time.
  public var timeZone: String?

  public init(date: CalendarDate, time: TimeOfDay? = nil, timeZone: String? = nil) {
    self.date = date
    self.time = time
    self.timeZone = timeZone
  }
}

/// How a task repeats: its rule, counted from its due date or from the day it was finished.
public struct TaskRecurrence: Equatable, Sendable {
  public enum From: String, Sendable { case due, completion }
  public var rule: RecurrenceRule
  public var from: From

  public init(rule: RecurrenceRule, from: From = .due) {
    self.rule = rule
    self.from = from
  }
}

/// A reminder: at a time, or some minutes before the task is due; acknowledged or snoozed on any device.
public struct TaskReminder: Equatable, Sendable {
  public enum When: Equatable, Sendable {
    case at(Date)
    case before(minutes: Int)
  }
  public var when: When
  public var acknowledgedAt: Date?
  public var snoozedUntil: Date?

  public init(_ when: When, acknowledgedAt: Date? = nil, snoozedUntil: Date? = nil) {
    self.when = when
    self.acknowledgedAt = acknowledgedAt
    self.snoozedUntil = snoozedUntil
  }
}

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
  public enum When: Hashable, Sendable {
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

extension TaskReminder {
  /// The times a task holds lie from 1970 to the end of 9999 (RFC 3339 writes four-digit years).
  public static let timeRange = Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 253_402_300_799.999)

  /// Whether each of its times lies in `timeRange`.
  public var timesFit: Bool {
    var times = [acknowledgedAt, snoozedUntil].compactMap { $0 }
    if case .at(let time) = when { times.append(time) }
    return times.allSatisfy(Self.timeRange.contains)
  }

  /// The reminder of the occurrence `days` days on (a finished repeat's next one): at a time, moved by as many days;
  /// armed again (neither acknowledged nor snoozed). The service's finishing and the app's copy of it both make it so.
  public func armed(movedBy days: Int) -> TaskReminder {
    guard case .at(let time) = when else { return TaskReminder(when) }
    return TaskReminder(.at(time.addingTimeInterval(TimeInterval(days) * 86_400)))
  }
}

extension CalendarDate {
  /// The instant `hour:minute:second` and `nanoseconds` into this day in UTC, summed as Foundation's ISO 8601 parser
  /// sums it: the day's start counted from 1 January 2001, plus the time of day with its fraction (adding the
  /// fraction last differs in the last bit near 2001, where the sum is small). The readers of the API's times that
  /// do not go through that parser (the app's `WireDate`, the service's details) give its date to the bit this way.
  public func utcInstant(hour: Int, minute: Int, second: Int, nanoseconds: Int) -> Date {
    let dayStart = (dayNumber - 11_323) * 86_400
    let timeOfDay = Double(hour * 3_600 + minute * 60 + second) + Double(nanoseconds) / 1_000_000_000
    return Date(timeIntervalSinceReferenceDate: Double(dayStart) + timeOfDay)
  }
}

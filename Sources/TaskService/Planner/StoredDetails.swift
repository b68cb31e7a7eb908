// StoredDetails: a task's details column read straight into the task's typed fields, each checked as a client's
// change is checked, for the JSON the service itself writes there; anything else is left to JSONSerialization and
// `TaskChanges(object:)`. Pure functions.

import Foundation
import TasksCalendar

/// Reads the details column (`PlannerTask.details`) into a task's fields without a dictionary.
///
/// Why: a first sync of 10 000 tasks spent most of the service's time reading the details (perf,
/// Tests/Benchmarks/RESULTS.md): JSONSerialization builds Foundation objects, and checking them
/// (`TaskChanges(object:)`) casts every value out of `Any`, reads numbers through `NSNumber` and times through a date
/// parser; 40 % of the PostgreSQL feed's samples after a first reader that still built a dictionary. This one reads
/// only what the service writes — the fields it knows, each once, in any order: strings with the escapes
/// JSONSerialization writes, whole numbers under 10⁹, null, times as `JSONWriter.timestamp` writes them (UTC,
/// milliseconds), dates and times of day as their types write them — and checks each value as
/// `TaskChanges(object:)` would. It answers false for anything else (a `\u` escape, a field it does not know, a
/// fraction, a boolean, a value a check refuses, any syntax error), and the caller then reads the text the general
/// way, which reads it or names what is wrong with it. StoredDetailsTests holds the two readers to the same task on
/// written, damaged and hostile details.
package enum StoredDetails {
  /// Reads `text` into `task`'s details fields (notes, priority, due, recurrence, reminders, categories, sort key,
  /// the series' progress), which must hold their defaults; false (and `task` unchanged) when it leaves `text` to
  /// the general reader.
  package static func read(_ text: String, into task: inout PlannerTask) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      var reader = JSONScanner(bytes: bytes)
      var read = task
      guard reader.details(into: &read), reader.atEnd() else { return false }
      task = read
      return true
    }
  }
}

extension JSONScanner.Text {
  /// `FieldReader.text`'s checks: at most `max` scalars, no control characters but tabs (and line breaks where
  /// allowed).
  fileprivate func checked(max: Int, lineBreaks: Bool) -> String? {
    guard scalars <= max, !hasOtherControl, lineBreaks || !hasLineBreak else { return nil }
    return string
  }
}

/// A field of the details, named by its key's bytes (`Field(rawValue: key.string)` made a string of every key read:
/// 4 % of the service's samples in a full read of the feed).
private enum Field {
  case notes, priority, due, recurrence, reminders, categories, sortKey, lastOccurrenceDone, occurrencesDone

  init?(_ key: JSONScanner.Key) {
    switch key {
    case "notes": self = .notes
    case "priority": self = .priority
    case "due": self = .due
    case "recurrence": self = .recurrence
    case "reminders": self = .reminders
    case "categories": self = .categories
    case "sortKey": self = .sortKey
    case "lastOccurrenceDone": self = .lastOccurrenceDone
    case "occurrencesDone": self = .occurrencesDone
    default: return nil
    }
  }
}

private enum ReminderField {
  case at, before, acknowledgedAt, snoozedUntil

  init?(_ key: JSONScanner.Key) {
    switch key {
    case "at": self = .at
    case "before": self = .before
    case "acknowledgedAt": self = .acknowledgedAt
    case "snoozedUntil": self = .snoozedUntil
    default: return nil
    }
  }
}

extension JSONScanner {
  fileprivate mutating func details(into task: inout PlannerTask) -> Bool {
    object { reader, key in
      guard let field = Field(key) else { return false }
      if reader.takeNull() { return true }
      switch field {
      case .notes:
        guard let notes = reader.text()?.checked(max: PlannerTask.maxNotesLength, lineBreaks: true) else {
          return false
        }
        task.notes = notes
      case .priority:
        guard let priority = reader.integer(maxDigits: 9), priority <= 9 else { return false }
        task.priority = priority
      case .due:
        guard let due = reader.taskDue(acceptsZone: TaskChanges.isTimeZone) else { return false }
        task.due = due
      case .recurrence:
        guard let recurrence = reader.recurrence() else { return false }
        task.recurrence = recurrence
      case .reminders:
        return reader.array(max: PlannerTask.maxReminders) { reader in
          guard let reminder = reader.reminder() else { return false }
          task.reminders.append(reminder)
          return true
        }
      case .categories:
        return reader.array(max: PlannerTask.maxCategories) { reader in
          guard let name = reader.text()?.checked(max: PlannerTask.maxCategoryLength, lineBreaks: false),
            !name.isEmpty
          else { return false }
          if !task.categories.contains(name) { task.categories.append(name) }
          return true
        }
      case .sortKey:
        guard let key = reader.text()?.checked(max: PlannerTask.maxSortKeyLength, lineBreaks: false) else {
          return false
        }
        task.sortKey = key
      case .lastOccurrenceDone:
        guard let date = reader.text().flatMap({ JSONScanner.bytes(of: $0.string) { CalendarDate(digits: $0) } }) else {
          return false
        }
        task.lastOccurrenceDone = date
      case .occurrencesDone:
        guard let count = reader.integer(maxDigits: 9) else { return false }
        task.occurrencesDone = count
      }
      return true
    }
  }

  /// `{"rrule": an RRULE of the supported subset, "from": "due" or "completion"}` (`from` may be left out: due).
  fileprivate mutating func recurrence() -> TaskRecurrence? {
    var rule: RecurrenceRule?
    var from = TaskRecurrence.From.due
    let read = object { reader, key in
      switch key {
      case "rrule":
        guard let text = reader.text() else { return false }
        rule = try? RecurrenceRule(rrule: text.string)
        return rule != nil
      case "from":
        guard let text = reader.text(), let counted = TaskRecurrence.From(rawValue: text.string) else {
          return false
        }
        from = counted
        return true
      default: return false
      }
    }
    guard read, let rule else { return nil }
    return TaskRecurrence(rule: rule, from: from)
  }

  /// `{"at": a time, or "before": minutes, "acknowledgedAt": a time or null, "snoozedUntil": a time or null}`.
  fileprivate mutating func reminder() -> TaskReminder? {
    var when: TaskReminder.When?
    var acknowledged: Date?
    var snoozed: Date?
    let read = object { reader, key in
      guard let field = ReminderField(key) else { return false }
      if reader.takeNull() { return true }
      switch field {
      case .at, .before:
        guard when == nil else { return false }
        if field == .at {
          when = reader.time().map { .at($0) }
        } else {
          when = reader.integer(maxDigits: 9).flatMap {
            $0 <= PlannerTask.maxReminderOffset ? .before(minutes: $0) : nil
          }
        }
        return when != nil
      case .acknowledgedAt:
        acknowledged = reader.time()
        return acknowledged != nil
      case .snoozedUntil:
        snoozed = reader.time()
        return snoozed != nil
      }
    }
    guard read, let when else { return nil }
    return TaskReminder(when, acknowledgedAt: acknowledged, snoozedUntil: snoozed)
  }

  /// `"YYYY-MM-DDTHH:MM:SS.mmmZ"` (as `JSONWriter.timestamp` writes it) from 1970 on, as `Date.ISO8601FormatStyle`
  /// reads it to the bit (`CalendarDate.utcInstant` sums as it does).
  fileprivate mutating func time() -> Date? {
    guard let text = text() else { return nil }
    return JSONScanner.bytes(of: text.string) { utf8 in
      guard utf8.count == 24, utf8[10] == UInt8(ascii: "T"), utf8[13] == UInt8(ascii: ":"),
        utf8[16] == UInt8(ascii: ":"), utf8[19] == UInt8(ascii: "."), utf8[23] == UInt8(ascii: "Z"),
        let date = CalendarDate(digits: utf8[0..<10]), let hour = JSONScanner.number(utf8[11..<13]), hour < 24,
        let minute = JSONScanner.number(utf8[14..<16]), minute < 60, let second = JSONScanner.number(utf8[17..<19]),
        second < 60,
        let milliseconds = JSONScanner.number(utf8[20..<23])
      else { return nil }
      let time = date.utcInstant(hour: hour, minute: minute, second: second, nanoseconds: milliseconds * 1_000_000)
      return PlannerTask.timeRange.contains(time) ? time : nil
    }
  }
}

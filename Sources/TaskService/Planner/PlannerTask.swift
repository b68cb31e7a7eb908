// PlannerTask: a task of the task API v2 (iCalendar's meaning, JSON names in camelCase, times RFC 3339 in UTC), the
// changes a client sends (PUT creates, PATCH changes: JSON merge patch, null clearing a field) read with an error
// naming the field, and the rules a whole task keeps. Pure values; any thread.

import Foundation
import TasksCalendar

/// A field a request got wrong: answered 400 with the field's name and what is wrong with it.
public struct FieldError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The field's path, `due.date`, `reminders[2].before`.
  public let field: String
  public let message: String

  public init(_ field: String, _ message: String) {
    self.field = field
    self.message = message
  }

  public var description: String { "\(field): \(message)" }
}

/// A task's fields a client writes.
public struct PlannerTask: Equatable, Sendable {
  public enum Status: String, Sendable { case needsAction, completed }

  public var title: String
  public var notes: String = ""
  public var status: Status = .needsAction
  public var completedAt: Date?
  /// 0 none, 1 highest … 9 lowest (RFC 5545).
  public var priority: Int = 0
  public var due: TaskDue?
  public var recurrence: TaskRecurrence?
  public var reminders: [TaskReminder] = []
  public var categories: [String] = []
  /// A subtask's parent (a task of the same list that is no subtask itself).
  public var parentID: UUID?
  public var sortKey: String = ""
  /// The last occurrence finished (`complete`), so that finishing it again changes nothing while the task has moved
  /// on from it. Answered (read-only) for an app to finish a task offline as this rule will.
  public var lastOccurrenceDone: CalendarDate?
  /// How many occurrences were finished (for a rule's COUNT). Answered (read-only) too.
  public var occurrencesDone = 0

  public init(title: String) {
    self.title = title
  }

  // MARK: Limits

  public static let maxTitleLength = 4000
  public static let maxNotesLength = 100_000
  public static let maxReminders = 20
  public static let maxCategories = 50
  public static let maxCategoryLength = 100
  public static let maxSortKeyLength = 100
  /// A reminder's offset before the due time: at most a year.
  public static let maxReminderOffset = 525_600

  /// The rules a whole task keeps, whatever changed: a repeat or an offset reminder needs a due date; a time zone
  /// needs a time; a finished task has a finishing time and an open one has none.
  public func validate() throws(FieldError) {
    if due?.timeZone != nil && due?.time == nil { throw FieldError("due.timeZone", "a time zone needs a time") }
    if recurrence != nil && due == nil { throw FieldError("recurrence", "a repeating task needs a due date") }
    for (index, reminder) in reminders.enumerated() {
      if case .before = reminder.when, due == nil {
        throw FieldError("reminders[\(index)].before", "a reminder before the due time needs a due date")
      }
    }
    if status == .completed && completedAt == nil { throw FieldError("completedAt", "a finished task has one") }
    if let completedAt, !Self.timeRange.contains(completedAt) {
      throw FieldError("completedAt", "a time from 1970 to 9999")
    }
    if let index = reminders.firstIndex(where: { !$0.timesFit }) {
      throw FieldError("reminders[\(index)]", "times from 1970 to 9999")
    }
  }

  /// `changes` applied: what they set replaces, what they clear goes back to its default (a title cannot be cleared);
  /// the result is validated. Finishing sets `completedAt` to `now` unless given; reopening clears it.
  public func applying(_ changes: TaskChanges, now: Date) throws(FieldError) -> PlannerTask {
    var task = self
    if case .set(let title) = changes.title { task.title = title }
    task.notes = changes.notes.value(or: task.notes, default: "")
    task.priority = changes.priority.value(or: task.priority, default: 0)
    task.due = changes.due.optional(or: task.due)
    task.recurrence = changes.recurrence.optional(or: task.recurrence)
    task.reminders = changes.reminders.value(or: task.reminders, default: [])
    task.categories = changes.categories.value(or: task.categories, default: [])
    task.parentID = changes.parentID.optional(or: task.parentID)
    task.sortKey = changes.sortKey.value(or: task.sortKey, default: "")
    let status = changes.status.value(or: task.status, default: .needsAction)
    if status != task.status {
      task.completedAt = status == .completed ? now : nil
    }
    task.status = status
    if case .set(let completedAt) = changes.completedAt, task.status == .completed { task.completedAt = completedAt }
    try task.validate()
    return task
  }
}

extension PlannerTask {
  /// Finishes the occurrence due on `occurrence`, on the day `today` (the user's), at `now`.
  ///
  /// A task that does not repeat is completed. A repeating one moves to its next occurrence — after the one
  /// finished, or after `today` when it repeats from completion — keeping its time; reminders at a fixed time move by
  /// as many days, and every reminder is due again. The series ends (the task is completed) after its COUNT or past
  /// its UNTIL. Finishing an occurrence already finished changes nothing (a replay, or another device's finishing
  /// it too) unless the task is due on it again (an Undo put its date back, or the ended series was reopened): it is
  /// then finished again, counted once. One that is not the task's due date is an error naming `occurrence`.
  public func completing(
    occurrence: CalendarDate, today: CalendarDate, now: Date
  ) throws(FieldError) -> PlannerTask {
    guard let recurrence, let due else {
      var done = self
      if status != .completed {
        done.status = .completed
        done.completedAt = now
      }
      return done
    }
    if status == .completed { return self }
    // A replay: the task has moved on from the occurrence.
    if occurrence == lastOccurrenceDone && occurrence != due.date { return self }
    guard occurrence == due.date else {
      throw FieldError("occurrence", "the task is due on \(due.date), not \(occurrence)")
    }
    var next = self
    // Due again on the occurrence last finished (an Undo put its date back; a series that had ended was reopened):
    // it is finished again, counted once towards COUNT.
    if occurrence != lastOccurrenceDone { next.occurrencesDone += 1 }
    next.lastOccurrenceDone = occurrence
    let following = recurrence.rule.occurrence(after: recurrence.from == .due ? occurrence : max(today, occurrence))
    let moved = reminders.map { $0.armed(movedBy: following.map { $0.dayNumber - due.date.dayNumber } ?? 0) }
    // The series also ends where a reminder would move past the last time a task can hold.
    guard let following, recurrence.rule.count.map({ next.occurrencesDone < $0 }) ?? true,
      moved.allSatisfy(\.timesFit)
    else {
      next.status = .completed
      next.completedAt = now
      return next
    }
    next.due?.date = following
    next.reminders = moved
    return next
  }

  /// The times a task holds lie from 1970 to the end of 9999 (RFC 3339 writes four-digit years).
  public static let timeRange = TaskReminder.timeRange
}

/// A change to one field: keep it, clear it (JSON null), or set it.
public enum FieldChange<Value: Equatable & Sendable>: Equatable, Sendable {
  case keep, clear, set(Value)

  func value(or current: Value, default empty: Value) -> Value {
    switch self {
    case .keep: current
    case .clear: empty
    case .set(let value): value
    }
  }

  func optional(or current: Value?) -> Value? {
    switch self {
    case .keep: current
    case .clear: nil
    case .set(let value): value
    }
  }
}

/// The fields a PUT or PATCH body sets or clears. Fields it does not know, and the server's own (`id`, `version`,
/// `createdAt`, `updatedAt`), are ignored. `listId` moves the task (a PATCH; a PUT's list is its address).
public struct TaskChanges: Equatable, Sendable {
  public var title: FieldChange<String> = .keep
  public var notes: FieldChange<String> = .keep
  public var status: FieldChange<PlannerTask.Status> = .keep
  public var completedAt: FieldChange<Date> = .keep
  public var priority: FieldChange<Int> = .keep
  public var due: FieldChange<TaskDue> = .keep
  public var recurrence: FieldChange<TaskRecurrence> = .keep
  public var reminders: FieldChange<[TaskReminder]> = .keep
  public var categories: FieldChange<[String]> = .keep
  public var parentID: FieldChange<UUID> = .keep
  /// The list to move the task to (with its subtasks).
  public var listID: UUID?
  public var sortKey: FieldChange<String> = .keep

  public init() {}

  /// Reads a JSON body (`Data`), each field checked; the first wrong one is the error.
  public init(json data: Data) throws(FieldError) {
    let parsed: Any
    do { parsed = try JSONSerialization.jsonObject(with: data) } catch {
      throw FieldError("body", "not JSON")
    }
    guard let object = parsed as? [String: Any] else { throw FieldError("body", "not a JSON object") }
    try self.init(object: object)
  }

  init(object: [String: Any]) throws(FieldError) {
    let read = FieldReader(object)
    title = try read.change("title") { value throws(FieldError) in try Self.title(value, read) }
    if title == .clear { throw FieldError("title", "a task needs a title") }
    notes = try read.change("notes") { value throws(FieldError) in
      try read.text(value, "notes", max: PlannerTask.maxNotesLength, lineBreaks: true)
    }
    status = try read.change("status") { value throws(FieldError) in
      guard let text = value as? String, let status = PlannerTask.Status(rawValue: text) else {
        throw FieldError("status", "needsAction or completed")
      }
      return status
    }
    completedAt = try read.change("completedAt") { value throws(FieldError) in try read.time(value, "completedAt") }
    priority = try read.change("priority") { value throws(FieldError) in
      guard let number = read.integer(value), (0...9).contains(number) else {
        throw FieldError("priority", "a whole number from 0 (none) to 9 (lowest); 1 is the highest")
      }
      return number
    }
    due = try read.change("due") { value throws(FieldError) in try Self.due(value) }
    recurrence = try read.change("recurrence") { value throws(FieldError) in try Self.recurrence(value) }
    reminders = try read.change("reminders") { value throws(FieldError) in try Self.reminders(value, read) }
    categories = try read.change("categories") { value throws(FieldError) in try Self.categories(value, read) }
    parentID = try read.change("parentId") { value throws(FieldError) in
      guard let text = value as? String, let id = UUID(uuidString: text) else {
        throw FieldError("parentId", "a task id (a UUID)")
      }
      return id
    }
    sortKey = try read.change("sortKey") { value throws(FieldError) in
      try read.text(value, "sortKey", max: PlannerTask.maxSortKeyLength, lineBreaks: false)
    }
    if let value = object["listId"] {
      guard let text = value as? String, let id = UUID(uuidString: text) else {
        throw FieldError("listId", "a list id (a UUID): a task is always in a list")
      }
      listID = id
    }
  }

  private static func title(_ value: Any, _ read: FieldReader) throws(FieldError) -> String {
    let text = try read.text(value, "title", max: PlannerTask.maxTitleLength, lineBreaks: true)
    guard text.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else {
      throw FieldError("title", "a task needs a title")
    }
    return text
  }

  private static func due(_ value: Any) throws(FieldError) -> TaskDue {
    guard let object = value as? [String: Any] else { throw FieldError("due", "an object with date, time, timeZone") }
    guard let text = object["date"] as? String, let date = CalendarDate(text) else {
      throw FieldError("due.date", "a date that exists, as YYYY-MM-DD")
    }
    var due = TaskDue(date: date)
    if let time = object["time"], !(time is NSNull) {
      guard let text = time as? String, let parsed = TimeOfDay(text) else {
        throw FieldError("due.time", "a time of day, as HH:MM (24 hours)")
      }
      due.time = parsed
    }
    if let zone = object["timeZone"], !(zone is NSNull) {
      guard let name = zone as? String, isTimeZone(name) else {
        throw FieldError("due.timeZone", "an IANA time zone, as Europe/Helsinki")
      }
      due.timeZone = name
    }
    return due
  }

  /// Whether `name` is an IANA time zone's (`Europe/Helsinki`, `UTC`) this system knows.
  static func isTimeZone(_ name: String) -> Bool {
    name.count <= 64 && (name.contains("/") || name == "UTC") && TimeZone(identifier: name) != nil
  }

  private static func recurrence(_ value: Any) throws(FieldError) -> TaskRecurrence {
    guard let object = value as? [String: Any] else { throw FieldError("recurrence", "an object with rrule and from") }
    guard let text = object["rrule"] as? String else { throw FieldError("recurrence.rrule", "an RRULE") }
    let rule: RecurrenceRule
    do throws(RecurrenceRule.ParseError) { rule = try RecurrenceRule(rrule: text) } catch {
      throw FieldError("recurrence.rrule", "\(error.part) is not in the supported subset")
    }
    let from = object["from"].map { $0 as? String } ?? "due"
    guard let from, let counted = TaskRecurrence.From(rawValue: from) else {
      throw FieldError("recurrence.from", "due or completion")
    }
    return TaskRecurrence(rule: rule, from: counted)
  }

  private static func reminders(_ value: Any, _ read: FieldReader) throws(FieldError) -> [TaskReminder] {
    guard let list = value as? [Any] else { throw FieldError("reminders", "a list") }
    guard list.count <= PlannerTask.maxReminders else {
      throw FieldError("reminders", "at most \(PlannerTask.maxReminders)")
    }
    var reminders: [TaskReminder] = []
    for (index, item) in list.enumerated() {
      let path = "reminders[\(index)]"
      guard let object = item as? [String: Any] else { throw FieldError(path, "an object with at or before") }
      let at = object["at"].flatMap { $0 is NSNull ? nil : $0 }
      let before = object["before"].flatMap { $0 is NSNull ? nil : $0 }
      let when: TaskReminder.When
      switch (at, before) {
      case (let at?, nil): when = .at(try read.time(at, "\(path).at"))
      case (nil, let before?):
        guard let minutes = read.integer(before), (0...PlannerTask.maxReminderOffset).contains(minutes) else {
          throw FieldError("\(path).before", "minutes before the due time, 0 to \(PlannerTask.maxReminderOffset)")
        }
        when = .before(minutes: minutes)
      default: throw FieldError(path, "either at (a time) or before (minutes), not both")
      }
      var reminder = TaskReminder(when)
      if let acknowledged = object["acknowledgedAt"], !(acknowledged is NSNull) {
        reminder.acknowledgedAt = try read.time(acknowledged, "\(path).acknowledgedAt")
      }
      if let snoozed = object["snoozedUntil"], !(snoozed is NSNull) {
        reminder.snoozedUntil = try read.time(snoozed, "\(path).snoozedUntil")
      }
      reminders.append(reminder)
    }
    return reminders
  }

  private static func categories(_ value: Any, _ read: FieldReader) throws(FieldError) -> [String] {
    guard let list = value as? [Any] else { throw FieldError("categories", "a list of names") }
    guard list.count <= PlannerTask.maxCategories else {
      throw FieldError("categories", "at most \(PlannerTask.maxCategories)")
    }
    var names: [String] = []
    for (index, item) in list.enumerated() {
      let name = try read.text(item, "categories[\(index)]", max: PlannerTask.maxCategoryLength, lineBreaks: false)
      guard !name.isEmpty else { throw FieldError("categories[\(index)]", "a name") }
      if !names.contains(name) { names.append(name) }
    }
    return names
  }
}

/// Reads the values of a JSON object's fields.
struct FieldReader {
  let object: [String: Any]

  init(_ object: [String: Any]) {
    self.object = object
  }

  /// Absent: keep; null: clear; otherwise `read` it.
  func change<Value>(_ name: String, _ read: (Any) throws(FieldError) -> Value) throws(FieldError) -> FieldChange<
    Value
  > {
    guard let value = object[name] else { return .keep }
    if value is NSNull { return .clear }
    return .set(try read(value))
  }

  /// A string of at most `max` code points without control characters (tab and, where `lineBreaks`, line breaks
  /// allowed).
  func text(_ value: Any, _ field: String, max: Int, lineBreaks: Bool) throws(FieldError) -> String {
    guard let text = value as? String else { throw FieldError(field, "a string") }
    guard text.unicodeScalars.count <= max else { throw FieldError(field, "at most \(max) characters") }
    let allowed: Set<Unicode.Scalar> = lineBreaks ? ["\t", "\n", "\r"] : ["\t"]
    if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && !allowed.contains($0) }) {
      throw FieldError(field, "no control characters")
    }
    return text
  }

  /// A JSON number that is a whole number (not true or false).
  func integer(_ value: Any) -> Int? {
    // JSONSerialization gives true and false as NSNumbers too, of ObjC type "c"; numbers are never that small type.
    guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
    let double = number.doubleValue
    guard double.rounded() == double, abs(double) < 1e9 else { return nil }
    return Int(double)
  }

  /// An RFC 3339 time in UTC (`2026-11-25T09:00:00Z`, fractions allowed), from 1970 to 9999.
  func time(_ value: Any, _ field: String) throws(FieldError) -> Date {
    guard let text = value as? String, text.hasSuffix("Z"), let date = Self.parse(text),
      PlannerTask.timeRange.contains(date)
    else { throw FieldError(field, "a time from 1970 on, as RFC 3339 in UTC (2026-11-25T09:00:00Z)") }
    return date
  }

  private static func parse(_ text: String) -> Date? {
    if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
    return try? Date.ISO8601FormatStyle().parse(text)
  }
}

/// A stored task: its fields and the service's own (id, list, times, version).
public struct StoredTask: Equatable, Sendable {
  public var id: UUID
  public var listID: UUID
  public var task: PlannerTask
  public var createdAt: Date
  public var updatedAt: Date
  public var version: Int64
  /// The member id, in its list, of whoever changed it last (nil: no one still a member of it).
  public var changedBy: UUID?
  /// Why its stored fields cannot be read (written by a release with a bug, or changed by hand): such a task is
  /// left out of every read and reported, and can only be deleted; `task` then holds only its title and status.
  public var unreadable: FieldError?

  public init(
    id: UUID, listID: UUID, task: PlannerTask, createdAt: Date, updatedAt: Date, version: Int64,
    changedBy: UUID? = nil
  ) {
    self.id = id
    self.listID = listID
    self.task = task
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.version = version
    self.changedBy = changedBy
  }

  /// A stored task from a database's columns; details that do not read make it `unreadable`, never a task made up.
  public init(
    id: UUID, listID: UUID, title: String, completed: Bool, completedAt: Date?, parentID: UUID?, details: String,
    createdAt: Date, updatedAt: Date, version: Int64, changedBy: UUID?
  ) {
    var task = PlannerTask(title: title)
    var unreadable: FieldError?
    do throws(FieldError) {
      task = try PlannerTask(
        title: title, completed: completed, completedAt: completedAt, parentID: parentID, details: details)
    } catch {
      task.status = completed ? .completed : .needsAction
      unreadable = error
    }
    self.init(
      id: id, listID: listID, task: task, createdAt: createdAt, updatedAt: updatedAt, version: version,
      changedBy: changedBy)
    self.unreadable = unreadable
  }

  /// The `ETag` it is answered with: its version.
  public var etag: String { "\"\(version)\"" }

  /// The JSON the API answers (camelCase names, times RFC 3339 in UTC with milliseconds, ids lower-case), written
  /// straight into bytes (`PlannerFeedJSON`).
  public var json: Data {
    var out: [UInt8] = []
    PlannerFeedJSON.append(self, to: &out)
    return Data(out)
  }

}

extension PlannerTask {
  /// The fields kept beside the title, status, finishing time and parent (which the databases keep in columns of
  /// their own): the API's JSON names and values, and the series' count of what was finished.
  public var detailsObject: [String: Any] {
    var object: [String: Any] = [
      "notes": notes, "priority": priority, "categories": categories, "sortKey": sortKey,
      "occurrencesDone": occurrencesDone,
    ]
    object["lastOccurrenceDone"] = lastOccurrenceDone?.description ?? NSNull()
    object["due"] =
      due.map { due -> Any in
        var fields: [String: Any] = ["date": due.date.description]
        fields["time"] = due.time?.description ?? NSNull()
        fields["timeZone"] = due.timeZone ?? NSNull()
        return fields
      } ?? NSNull()
    object["recurrence"] =
      recurrence.map { ["rrule": $0.rule.rrule, "from": $0.from.rawValue] as [String: Any] } ?? NSNull()
    object["reminders"] = reminders.map { reminder -> [String: Any] in
      var fields: [String: Any] = [
        "acknowledgedAt": reminder.acknowledgedAt.map(JSONWriter.timestamp) ?? NSNull(),
        "snoozedUntil": reminder.snoozedUntil.map(JSONWriter.timestamp) ?? NSNull(),
      ]
      switch reminder.when {
      case .at(let time): fields["at"] = JSONWriter.timestamp(time)
      case .before(let minutes): fields["before"] = minutes
      }
      return fields
    }
    return object
  }

  /// `detailsObject` as the databases keep it.
  public var details: String {
    let data = (try? JSONSerialization.data(withJSONObject: detailsObject, options: [.sortedKeys])) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }

  /// A stored task from its columns and `details`; details that do not read (written by no release) are an error
  /// naming the field, never a task made up.
  public init(
    title: String, completed: Bool, completedAt: Date?, parentID: UUID?, details: String
  ) throws(FieldError) {
    self.init(title: title)
    if !StoredDetails.read(details, into: &self) {
      guard let object = (try? JSONSerialization.jsonObject(with: Data(details.utf8))) as? [String: Any] else {
        throw FieldError("details", "not a JSON object")
      }
      try readDetails(object)
    }
    status = completed ? .completed : .needsAction
    self.completedAt = completed ? (completedAt ?? Date(timeIntervalSince1970: 0)) : nil
    self.parentID = parentID
  }

  /// Sets the details fields from a details column's object read by JSONSerialization (the general reader: text
  /// `StoredDetails` does not read), each checked as a client's change is.
  package mutating func readDetails(_ object: [String: Any]) throws(FieldError) {
    let changes = try TaskChanges(object: object)
    notes = changes.notes.value(or: "", default: "")
    priority = changes.priority.value(or: 0, default: 0)
    due = changes.due.optional(or: nil)
    recurrence = changes.recurrence.optional(or: nil)
    reminders = changes.reminders.value(or: [], default: [])
    categories = changes.categories.value(or: [], default: [])
    sortKey = changes.sortKey.value(or: "", default: "")
    lastOccurrenceDone = (object["lastOccurrenceDone"] as? String).flatMap(CalendarDate.init)
    occurrencesDone = FieldReader(object).integer(object["occurrencesDone"] ?? 0) ?? 0
  }

}

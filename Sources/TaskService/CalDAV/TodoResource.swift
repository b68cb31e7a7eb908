// TodoResource: a task's CalDAV resource (a VCALENDAR holding one VTODO, and overrides of its occurrences) read as a
// PUT sends it, and the fields of the task model it carries. The text itself is kept by the service as the residual:
// what is not modelled here is given back as it came (TodoResource+Rendering). Pure values; any thread.

import Foundation
import TasksCalendar

/// A calendar object resource holding a task: its UID, and the task's fields read from its master VTODO.
public struct TodoResource: Sendable {
  /// The longest UID kept (in characters).
  public static let maxUIDLength = 255

  /// The parsed text.
  let calendar: ICalComponent
  /// The UID of the task's VTODOs, any shape (`5793411813658475826`, `A354E4C3-…`, `x@host`).
  public let uid: String
  /// The modelled fields of the master VTODO (the one without RECURRENCE-ID), with the overrides' completions.
  public let fields: TodoFields

  /// Reads a PUT body. Errors: not iCalendar (`.syntax`), no VTODO but an event or journal (`.unsupportedComponent`),
  /// VTODOs of several UIDs (`.severalUIDs`), or VTODOs that make no task (`.invalidTask`).
  public init(parsing bytes: some Collection<UInt8>) throws(TodoResourceError) {
    let calendar: ICalComponent
    do throws(ICalendarError) { calendar = try ICalendar.parse(bytes) } catch { throw .syntax(error) }
    let todos = calendar.components.filter { $0.is("VTODO") }
    let others = ["VEVENT", "VJOURNAL", "VFREEBUSY", "VAVAILABILITY"]
    if let other = calendar.components.first(where: { others.contains($0.name.uppercased()) }) {
      throw .unsupportedComponent(other.name)
    }
    guard !todos.isEmpty else { throw .invalidTask("no VTODO") }
    let uids = todos.map { $0.property("UID")?.text }
    guard let uid = uids[0], uids.allSatisfy({ $0 != nil }) else { throw .invalidTask("a VTODO without UID") }
    guard uids.allSatisfy({ $0 == uid }) else { throw .severalUIDs }
    guard !uid.isEmpty, uid.count <= Self.maxUIDLength,
      !uid.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else { throw .invalidTask("a UID of 1 to \(Self.maxUIDLength) characters without control characters") }
    let masters = todos.filter { $0.property("RECURRENCE-ID") == nil }
    guard masters.count == 1 else { throw .invalidTask("\(masters.count) VTODOs without RECURRENCE-ID, not one") }
    self.init(calendar: calendar, master: masters[0], uid: uid)
  }

  init(calendar: ICalComponent, master: ICalComponent, uid: String) {
    self.calendar = calendar
    self.uid = uid
    fields = TodoReader(calendar: calendar, master: master).fields
  }

  /// Reads a PUT body given as text.
  public init(parsing text: String) throws(TodoResourceError) {
    try self.init(parsing: Array(text.utf8))
  }
}

/// Why a PUT body is no task resource.
public enum TodoResourceError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Not iCalendar (answer 400).
  case syntax(ICalendarError)
  /// An event, a journal … and no VTODO (answer 403 `CALDAV:supported-calendar-component`).
  case unsupportedComponent(String)
  /// VTODOs of more than one UID (answer 403 `CALDAV:valid-calendar-object-resource`).
  case severalUIDs
  /// VTODOs that make no task: none, no UID or an unusable one, no master or two (answer 403
  /// `CALDAV:valid-calendar-object-resource`).
  case invalidTask(String)

  /// A one-line message for the answer's body.
  public var description: String {
    switch self {
    case .syntax(let error): "not iCalendar: \(error)"
    case .unsupportedComponent(let name): "\(name) is not supported here: a task list holds VTODOs"
    case .severalUIDs: "a resource holds the VTODOs of one UID"
    case .invalidTask(let message): "not a task: \(message)"
    }
  }
}

/// A task's fields as a VTODO says them. What the model cannot hold reads as not there (nil, empty) and stays in the
/// resource's text; every value read keeps the task model's limits.
public struct TodoFields: Equatable, Sendable {
  /// SUMMARY; empty when there is none (the routes decide what a task without a title is called).
  public var title = ""
  /// DESCRIPTION.
  public var notes = ""
  /// Done when STATUS:COMPLETED; without STATUS, when COMPLETED is there or PERCENT-COMPLETE is 100.
  public var status: PlannerTask.Status = .needsAction
  /// COMPLETED when it is a UTC time; nil when done without one (the routes take the time of the PUT).
  public var completedAt: Date?
  /// PRIORITY 0…9 (anything else reads as 0).
  public var priority = 0
  /// DUE: a date, a time in UTC, in an IANA zone, or floating; nil when unreadable or outside 1970…9999.
  public var due: TaskDue?
  /// RRULE, when it is of the subset the service computes and there is a DUE.
  public var rule: RecurrenceRule?
  /// The VALARMs the model can hold: shown (ACTION:DISPLAY) at a UTC time, or before DUE; at most
  /// `PlannerTask.maxReminders`. Snoozing is never read (the model keeps its own).
  public var reminders: [TaskReminder] = []
  /// All CATEGORIES, in order, each once.
  public var categories: [String] = []
  /// RELATED-TO without RELTYPE or with RELTYPE=PARENT: the parent's UID, for the routes to resolve.
  public var parentUID: String?
  /// X-APPLE-SORT-ORDER 0…99 999 999 as an eight-digit sort key; nil when absent or another value (keep the task's).
  public var sortKey: String?
  /// The days of the occurrences that RECURRENCE-ID overrides mark done, in order.
  public var completedOccurrences: [CalendarDate] = []

  /// No field set.
  public init() {}

  /// The changes that make `current` (nil for a new task) carry these fields. What VTODO cannot say is kept: the
  /// series' `from`, reminders' acknowledgements when an alarm has no ACKNOWLEDGED and their snoozing, the sort key
  /// when there is none here. An empty title keeps the task's; `parentID` is left to the routes (`parentUID`).
  public func changes(over current: PlannerTask?) -> TaskChanges {
    var changes = TaskChanges()
    if title.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) { changes.title = .set(title) }
    changes.notes = notes.isEmpty ? .clear : .set(notes)
    changes.status = .set(status)
    if let completedAt { changes.completedAt = .set(completedAt) }
    changes.priority = .set(priority)
    changes.due = due.map { .set($0) } ?? .clear
    changes.recurrence = rule.map { .set(TaskRecurrence(rule: $0, from: current?.recurrence?.from ?? .due)) } ?? .clear
    var kept = current?.reminders ?? []
    changes.reminders = .set(
      reminders.map { reminder in
        guard let index = kept.firstIndex(where: { ICalDateTime.sameWhen($0.when, reminder.when) }) else {
          return reminder
        }
        var merged = reminder
        merged.acknowledgedAt = reminder.acknowledgedAt ?? kept[index].acknowledgedAt
        merged.snoozedUntil = kept.remove(at: index).snoozedUntil
        return merged
      })
    changes.categories = .set(categories)
    if let sortKey { changes.sortKey = .set(sortKey) }
    return changes
  }
}

/// Reads the modelled fields of a master VTODO (`calendar` gives its VTIMEZONEs and overrides).
struct TodoReader {
  let calendar: ICalComponent
  let master: ICalComponent

  var fields: TodoFields {
    var fields = TodoFields()
    fields.title = Self.clean(master.property("SUMMARY")?.text ?? "", max: PlannerTask.maxTitleLength, breaks: true)
    fields.notes = Self.clean(master.property("DESCRIPTION")?.text ?? "", max: PlannerTask.maxNotesLength, breaks: true)
    (fields.status, fields.completedAt) = Self.status(of: master)
    fields.priority =
      master.property("PRIORITY").flatMap { Int($0.value.trimmingCharacters(in: .whitespaces)) }
      .flatMap { (0...9).contains($0) ? $0 : nil } ?? 0
    fields.due = master.property("DUE").flatMap(due)
    let rules = master.properties("RRULE")
    if fields.due != nil, rules.count == 1 { fields.rule = try? RecurrenceRule(rrule: rules[0].value) }
    fields.reminders = alarms(due: fields.due).map(\.reminder)
    fields.categories = categories
    fields.parentUID = master.properties.first(where: Self.isParent).map { $0.text }.flatMap { $0.isEmpty ? nil : $0 }
    if let order = master.property("X-APPLE-SORT-ORDER")?.value, (1...8).contains(order.count),
      order.allSatisfy({ $0.isASCII && $0.isNumber })
    {
      fields.sortKey = String(repeating: "0", count: 8 - order.count) + order
    }
    fields.completedOccurrences = Array(Set(overrides(due: fields.due).map(\.date))).sorted()
    return fields
  }

  /// Done, and when: STATUS decides; without it, COMPLETED or PERCENT-COMPLETE:100.
  static func status(of todo: ICalComponent) -> (PlannerTask.Status, Date?) {
    let percent = todo.property("PERCENT-COMPLETE").flatMap { Int($0.value.trimmingCharacters(in: .whitespaces)) }
    let done =
      todo.property("STATUS").map { $0.value.uppercased() == "COMPLETED" }
      ?? (todo.property("COMPLETED") != nil || percent == 100)
    return done
      ? (.completed, todo.property("COMPLETED").flatMap { ICalDateTime($0.value)?.moment }) : (.needsAction, nil)
  }

  /// A DUE (or DTSTART) as the model holds it, or nil.
  func due(_ property: ICalProperty) -> TaskDue? {
    guard let value = ICalDateTime(property.value), value.date.year >= 1970 else { return nil }
    let type = property.parameter("VALUE")?.uppercased()
    guard let time = value.time else { return type == nil || type == "DATE" ? TaskDue(date: value.date) : nil }
    guard type == nil || type == "DATE-TIME" else { return nil }
    if value.utc { return TaskDue(date: value.date, time: time, timeZone: "UTC") }
    guard let tzid = property.parameter("TZID") else { return TaskDue(date: value.date, time: time) }
    return ZoneNames.iana(tzid: tzid, in: calendar).map { TaskDue(date: value.date, time: time, timeZone: $0) }
  }

  /// The master's VALARMs the model can hold, with their places in `master.items`.
  func alarms(due: TaskDue?) -> [(index: Int, reminder: TaskReminder)] {
    let start = master.property("DTSTART")
    let startIsDue = start == nil || (due != nil && start.flatMap(self.due) == due)
    var alarms: [(index: Int, reminder: TaskReminder)] = []
    for (index, item) in master.items.enumerated() {
      guard alarms.count < PlannerTask.maxReminders, case .component(let alarm) = item, alarm.is("VALARM"),
        let reminder = Self.reminder(alarm, hasDue: due != nil, startIsDue: startIsDue)
      else { continue }
      alarms.append((index, reminder))
    }
    return alarms
  }

  /// A shown alarm at a UTC time, or at or before the due time; not a snooze (RFC 9074 RELATED-TO).
  static func reminder(_ alarm: ICalComponent, hasDue: Bool, startIsDue: Bool) -> TaskReminder? {
    guard alarm.property("ACTION")?.value.uppercased() == "DISPLAY", alarm.property("RELATED-TO") == nil,
      alarm.properties("TRIGGER").count == 1, let trigger = alarm.property("TRIGGER")
    else { return nil }
    let when: TaskReminder.When
    if trigger.parameter("VALUE")?.uppercased() == "DATE-TIME" {
      guard let moment = ICalDateTime(trigger.value)?.moment else { return nil }
      when = .at(moment)
    } else {
      let related = trigger.parameter("RELATED")?.uppercased() ?? "START"
      guard hasDue, related == "END" || (related == "START" && startIsDue),
        let seconds = ICalDuration.seconds(trigger.value), seconds <= 0, seconds % 60 == 0,
        -seconds / 60 <= PlannerTask.maxReminderOffset
      else { return nil }
      when = .before(minutes: -seconds / 60)
    }
    return TaskReminder(when, acknowledgedAt: alarm.property("ACKNOWLEDGED").flatMap { ICalDateTime($0.value)?.moment })
  }

  /// RELATED-TO naming the parent (no RELTYPE means PARENT).
  static func isParent(_ property: ICalProperty) -> Bool {
    property.is("RELATED-TO") && (property.parameter("RELTYPE").map { $0.uppercased() == "PARENT" } ?? true)
  }

  /// All CATEGORIES values, trimmed, each once, within the model's limits.
  var categories: [String] {
    var names: [String] = []
    for property in master.properties("CATEGORIES") {
      for raw in ICalendar.splitList(property.value) {
        let name = Self.clean(ICalendar.unescape(raw).trimmingCharacters(in: .whitespaces), max: .max, breaks: false)
        guard !name.isEmpty, name.unicodeScalars.count <= PlannerTask.maxCategoryLength, !names.contains(name),
          names.count < PlannerTask.maxCategories
        else { continue }
        names.append(name)
      }
    }
    return names
  }

  /// The RECURRENCE-ID overrides that are done, read against the master's DUE.
  func overrides(due: TaskDue?) -> [(index: Int, date: CalendarDate)] {
    calendar.items.enumerated().compactMap { index, item in
      guard case .component(let todo) = item, todo.is("VTODO"), Self.status(of: todo).0 == .completed,
        let id = todo.property("RECURRENCE-ID"), let value = ICalDateTime(id.value)
      else { return nil }
      // A UTC RECURRENCE-ID names the occurrence of the local day it falls on.
      let date = value.moment.map { ZoneNames.date(of: $0, in: due?.timeZone) } ?? value.date
      return (index, date)
    }
  }

  /// Text without control characters (tab kept, and line breaks where `breaks`), cut to `max` code points.
  static func clean(_ text: String, max: Int, breaks: Bool) -> String {
    var scalars = String.UnicodeScalarView()
    var count = 0
    for scalar in text.unicodeScalars where count < max {
      if scalar.properties.generalCategory == .control && !(scalar == "\t" || (breaks && scalar == "\n")) { continue }
      scalars.append(scalar)
      count += 1
    }
    return String(scalars)
  }
}

// TodoResource+Rendering: the text a GET answers, the model laid over the text the client last sent. A modelled
// property whose line already says what the model says stays byte for byte (its parameters, its spelling); one the
// model changed is replaced in place, one it cleared removed, one it set added; everything unmodelled stays where it
// was. The same inputs give the same bytes (ETags hash them). Pure functions; any thread.

import Foundation
import TasksCalendar

extension TodoResource {
  /// The product this service writes into a VCALENDAR it makes.
  public static let productID = "-//B2C Tasks//Task service//EN"

  /// The resource text for `task`: `stored`, the text its client last wrote (nil for a task made through the JSON
  /// API or the app: then a VCALENDAR is made from scratch), with the task's fields laid over it. `parentUID` is the
  /// UID of the task's parent's resource. DTSTAMP and LAST-MODIFIED become `updatedAt` when anything changed.
  public static func render(
    stored: String?, task: PlannerTask, uid: String, parentUID: String?, createdAt: Date, updatedAt: Date
  ) -> String {
    let base =
      stored.flatMap { try? TodoResource(parsing: $0) } ?? scratch(uid: uid, createdAt: createdAt, at: updatedAt)
    guard let masterIndex = base.calendar.items.firstIndex(where: isMaster),
      case .component(let master) = base.calendar.items[masterIndex]
    else { return base.calendar.text }
    let reader = TodoReader(calendar: base.calendar, master: master)
    var calendar = base.calendar
    var overlay = Overlay(original: base.fields, reader: reader, task: task, master: master)
    overlay.apply(parentUID: parentUID)
    calendar.items[masterIndex] = .component(overlay.master)
    // Overrides that marked an occurrence done were taken in: the master's moved DUE says it now (or the task was
    // put back on that occurrence since, and the override no longer holds).
    for (index, date) in reader.overrides(due: base.fields.due).reversed() where overlay.hasTakenIn(date) {
      calendar.items.remove(at: index)
    }
    if base.uid != uid {
      for index in calendar.items.indices {
        guard case .component(var todo) = calendar.items[index], todo.is("VTODO") else { continue }
        todo.update("UID", to: ICalProperty("UID", text: uid))
        calendar.items[index] = .component(todo)
      }
    }
    if calendar != base.calendar, let index = calendar.items.firstIndex(where: isMaster),
      case .component(var changed) = calendar.items[index]
    {
      let stamp = ICalDateTime(utc: updatedAt).text
      changed.update("DTSTAMP", to: ICalProperty("DTSTAMP", value: stamp))
      changed.update("LAST-MODIFIED", to: ICalProperty("LAST-MODIFIED", value: stamp))
      calendar.items[index] = .component(changed)
    }
    return calendar.text
  }

  /// A VCALENDAR holding a VTODO with nothing but its UID and times, for a task no client wrote.
  static func scratch(uid: String, createdAt: Date, at updatedAt: Date) -> TodoResource {
    let stamp = ICalDateTime(utc: updatedAt).text
    let todo = ICalComponent(
      "VTODO",
      [
        .property(ICalProperty("UID", text: uid)), .property(ICalProperty("DTSTAMP", value: stamp)),
        .property(ICalProperty("CREATED", value: ICalDateTime(utc: createdAt).text)),
        .property(ICalProperty("LAST-MODIFIED", value: stamp)),
      ])
    let calendar = ICalComponent(
      "VCALENDAR",
      [
        .property(ICalProperty("VERSION", value: "2.0")), .property(ICalProperty("PRODID", text: productID)),
        .component(todo),
      ])
    return TodoResource(calendar: calendar, master: todo, uid: uid)
  }

  private static func isMaster(_ item: ICalComponent.Item) -> Bool {
    guard case .component(let todo) = item else { return false }
    return todo.is("VTODO") && todo.property("RECURRENCE-ID") == nil
  }
}

/// The task's fields laid over a master VTODO, field by field.
private struct Overlay {
  /// What the VTODO says, as read.
  let original: TodoFields
  let reader: TodoReader
  let task: PlannerTask
  var master: ICalComponent

  /// Whether the task has taken in the finishing of the occurrence on `date` (it is past it, or done; or it was
  /// finished and an Undo put the task back on it, which the text's override must no longer say).
  func hasTakenIn(_ date: CalendarDate) -> Bool {
    task.status == .completed || task.due.map { date < $0.date } ?? true
      || task.lastOccurrenceDone.map { date <= $0 } ?? false
  }

  mutating func apply(parentUID: String?) {
    // First, while the places of the alarms read from the text still hold.
    applyReminders()
    if original.title != task.title {
      master.update("SUMMARY", to: task.title.isEmpty ? nil : ICalProperty("SUMMARY", text: task.title))
    }
    if original.notes != task.notes {
      master.update("DESCRIPTION", to: task.notes.isEmpty ? nil : ICalProperty("DESCRIPTION", text: task.notes))
    }
    applyStatus()
    if original.priority != task.priority {
      master.update("PRIORITY", to: task.priority == 0 ? nil : ICalProperty("PRIORITY", value: "\(task.priority)"))
    }
    applyDue()
    if original.rule != task.recurrence?.rule {
      master.update("RRULE", to: task.recurrence.map { ICalProperty("RRULE", value: $0.rule.rrule) })
    }
    if original.categories != task.categories {
      let value = task.categories.map(ICalendar.escape).joined(separator: ",")
      master.update("CATEGORIES", to: task.categories.isEmpty ? nil : ICalProperty("CATEGORIES", value: value))
    }
    if original.parentUID != parentUID {
      let parent = parentUID.map { ICalProperty("RELATED-TO", [ICalParameter("RELTYPE", ["PARENT"])], text: $0) }
      master.update("RELATED-TO", matching: TodoReader.isParent, to: parent)
    }
    applySortKey()
  }

  /// Done: STATUS:COMPLETED, COMPLETED and PERCENT-COMPLETE:100, each kept where it says so already. Open: every
  /// spelling of done cleared (STATUS:COMPLETED becomes NEEDS-ACTION; IN-PROCESS or PERCENT-COMPLETE:50 stay).
  mutating func applyStatus() {
    guard original.status != task.status || !ICalDateTime.sameSecond(original.completedAt, task.completedAt) else {
      return
    }
    let isHundred = { (line: ICalProperty) in Int(line.value.trimmingCharacters(in: .whitespaces)) == 100 }
    if task.status == .completed {
      master.update(
        "STATUS", keep: { $0.value.uppercased() == "COMPLETED" }, to: ICalProperty("STATUS", value: "COMPLETED"))
      if let completedAt = task.completedAt {
        master.update(
          "COMPLETED", keep: { ICalDateTime.sameSecond(ICalDateTime($0.value)?.moment, completedAt) },
          to: ICalProperty("COMPLETED", value: ICalDateTime(utc: completedAt).text))
      }
      master.update("PERCENT-COMPLETE", keep: isHundred, to: ICalProperty("PERCENT-COMPLETE", value: "100"))
    } else {
      master.update(
        "STATUS", keep: { $0.value.uppercased() != "COMPLETED" }, to: ICalProperty("STATUS", value: "NEEDS-ACTION"),
        add: false)
      master.update("COMPLETED", to: nil)
      master.update("PERCENT-COMPLETE", matching: isHundred, to: nil)
    }
  }

  /// DUE replaced; a DTSTART equal to the old DUE (Apple's way) moves with it, and DURATION, which excludes DUE, goes.
  mutating func applyDue() {
    guard original.due != task.due else { return }
    master.update("DUE", to: task.due.map { dueProperty("DUE", $0) })
    guard let due = task.due else { return }
    master.update("DURATION", to: nil)
    if original.due != nil, let start = master.property("DTSTART"), reader.due(start) == original.due {
      master.update("DTSTART", to: dueProperty("DTSTART", due))
    }
  }

  /// A date (`VALUE=DATE`), a UTC time (`Z`), a time in a zone (`TZID`), or a floating time. A zone is written with the
  /// TZID of the text's VTIMEZONE for it, or else with its IANA name and no VTIMEZONE (RFC 7809), which CalDAV
  /// clients resolve from their own time zone data.
  func dueProperty(_ name: String, _ due: TaskDue) -> ICalProperty {
    guard let time = due.time else {
      return ICalProperty(name, [ICalParameter("VALUE", ["DATE"])], value: ICalDateTime(date: due.date, time: nil).text)
    }
    let utc = due.timeZone == "UTC"
    let value = ICalDateTime(date: due.date, time: time, utc: utc).text
    guard let zone = due.timeZone, !utc else { return ICalProperty(name, value: value) }
    return ICalProperty(name, [ICalParameter("TZID", [ZoneNames.tzid(for: zone, in: reader.calendar)])], value: value)
  }

  /// X-APPLE-SORT-ORDER from an eight-digit sort key; removed for none; a key it cannot say leaves the line alone.
  mutating func applySortKey() {
    guard (original.sortKey ?? "") != task.sortKey else { return }
    if task.sortKey.isEmpty {
      master.update("X-APPLE-SORT-ORDER", to: nil)
    } else if task.sortKey.utf8.count == 8, let order = Int(task.sortKey), order >= 0 {
      master.update("X-APPLE-SORT-ORDER", to: ICalProperty("X-APPLE-SORT-ORDER", value: "\(order)"))
    }
  }

  /// VALARMs matched to the task's reminders: the same reminder first, then the same time, then any left in order;
  /// a matched alarm keeps its other lines (its TRIGGER and ACKNOWLEDGED rewritten where they differ), an unmatched
  /// one goes, a reminder left over gets a new alarm after the others. Alarms the model cannot hold stay.
  mutating func applyReminders() {
    let alarms = reader.alarms(due: original.due)
    func key(_ reminder: TaskReminder) -> TaskReminder {
      var key = TaskReminder(reminder.when)
      if case .at(let moment) = reminder.when, let second = ICalDateTime(utc: moment).moment { key.when = .at(second) }
      key.acknowledgedAt = reminder.acknowledgedAt.flatMap { ICalDateTime(utc: $0).moment }
      return key
    }
    guard alarms.map({ key($0.reminder) }) != task.reminders.map(key) else { return }
    var match: [Int: Int] = [:]
    var free = Array(alarms.indices)
    let tests: [(TaskReminder, TaskReminder) -> Bool] = [
      { key($0) == key($1) }, { key($0).when == key($1).when }, { _, _ in true },
    ]
    for test in tests {
      for (index, reminder) in task.reminders.enumerated() where match[index] == nil {
        guard let found = free.firstIndex(where: { test(alarms[$0].reminder, reminder) }) else { continue }
        match[index] = free.remove(at: found)
      }
    }
    for (index, alarmIndex) in match {
      let (itemIndex, old) = alarms[alarmIndex]
      let new = task.reminders[index]
      guard case .component(var alarm) = master.items[itemIndex] else { continue }
      if key(old).when != key(new).when { alarm.update("TRIGGER", to: Self.trigger(new.when)) }
      if key(old).acknowledgedAt != key(new).acknowledgedAt {
        alarm.update(
          "ACKNOWLEDGED", to: new.acknowledgedAt.map { ICalProperty("ACKNOWLEDGED", value: ICalDateTime(utc: $0).text) }
        )
      }
      master.items[itemIndex] = .component(alarm)
    }
    let place = (master.items.lastIndex { if case .component(let alarm) = $0 { alarm.is("VALARM") } else { false } })
      .map { $0 + 1 }
    let added = task.reminders.indices.filter { match[$0] == nil }.map { index -> ICalComponent.Item in
      var alarm = ICalComponent(
        "VALARM",
        [
          .property(ICalProperty("ACTION", value: "DISPLAY")), .property(ICalProperty("DESCRIPTION", text: task.title)),
          .property(Self.trigger(task.reminders[index].when)),
        ])
      if let acknowledged = task.reminders[index].acknowledgedAt {
        alarm.items.append(.property(ICalProperty("ACKNOWLEDGED", value: ICalDateTime(utc: acknowledged).text)))
      }
      return .component(alarm)
    }
    master.items.insert(contentsOf: added, at: place ?? master.items.count)
    for alarmIndex in free.sorted().reversed() { master.items.remove(at: alarms[alarmIndex].index) }
  }

  /// `TRIGGER;VALUE=DATE-TIME:…Z` at a time; `TRIGGER;RELATED=END:-PT15M` before the due time.
  static func trigger(_ when: TaskReminder.When) -> ICalProperty {
    switch when {
    case .at(let moment):
      ICalProperty("TRIGGER", [ICalParameter("VALUE", ["DATE-TIME"])], value: ICalDateTime(utc: moment).text)
    case .before(let minutes):
      ICalProperty("TRIGGER", [ICalParameter("RELATED", ["END"])], value: ICalDuration.text(minutesBefore: minutes))
    }
  }
}

extension ICalComponent {
  /// Sets the property `name` (those of its lines `matching` picks): the first line stays when `keep` says it holds
  /// the value already; otherwise it becomes `new` (or goes, when nil) and the others go. With no such line, `new` is
  /// added after the last property (when `add`).
  mutating func update(
    _ name: String, matching: (ICalProperty) -> Bool = { _ in true }, keep: (ICalProperty) -> Bool = { _ in false },
    to new: ICalProperty?, add: Bool = true
  ) {
    let lines = items.indices.filter { index in
      if case .property(let line) = items[index] { line.is(name) && matching(line) } else { false }
    }
    guard let first = lines.first, case .property(let line) = items[first] else {
      let end = items.firstIndex { if case .component = $0 { true } else { false } } ?? items.count
      if add, let new { items.insert(.property(new), at: end) }
      return
    }
    if keep(line) { return }
    for index in lines.dropFirst().reversed() { items.remove(at: index) }
    if let new { items[first] = .property(new) } else { items.remove(at: first) }
  }
}

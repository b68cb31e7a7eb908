// PlannerItems: the task API v2's tasks as the app holds them, read from the service's JSON with a typed
// error (the core's own reading: it shares no code with the service), and the field-by-field merge of an edit the
// service refused with 412 against the version it was made on. Pure values; any thread.

import FoundationEssentials
import TasksCalendar

/// A task of a list.
public struct PlannerItem: Equatable, Sendable {
  public enum Status: String, Sendable { case needsAction, completed }

  public typealias Due = TaskDue
  public typealias Recurrence = TaskRecurrence
  public typealias Reminder = TaskReminder

  public var id: UUID
  public var listID: UUID
  public var parentID: UUID?
  public var title: String
  public var notes: String = ""
  public var status: Status = .needsAction
  public var completedAt: Date?
  /// 0 none, 1 highest … 9 lowest (RFC 5545); the window shows 1 as high, 5 as medium, 9 as low.
  public var priority: Int = 0
  public var due: Due?
  public var recurrence: Recurrence?
  /// How many occurrences of its repeat were finished, towards a COUNT, and the one finished last: what the
  /// service's finishing counts by (`finish` does as it does). Written by the service alone: never sent.
  public var occurrencesDone = 0
  public var lastOccurrenceDone: CalendarDate?
  public var reminders: [Reminder] = []
  public var categories: [String] = []
  public var sortKey: String = ""
  public var createdAt: Date
  public var updatedAt: Date
  public var version: Int64
  /// Who changed it last, as a member of its list (the list's members name them); nil when not known, or when they
  /// are no longer a member. Written by the service alone: never sent.
  public var changedBy: UUID?

  public init(id: UUID, listID: UUID, title: String, createdAt: Date, version: Int64 = 0) {
    self.id = id
    self.listID = listID
    self.title = title
    self.createdAt = createdAt
    updatedAt = createdAt
    self.version = version
  }
}

// MARK: Reading the service's JSON

extension PlannerItem: Decodable {
  /// A task from the service's JSON (one object).
  public init(json data: Data) throws(PlannerJSONError) {
    self = try PlannerJSONReader.decode(PlannerItem.self, from: data)
  }

  /// A task from the service's JSON, at the decoder's place in a document; what is not one is a `PlannerJSONError`
  /// naming the field.
  public init(from decoder: any Decoder) throws {
    let read = try PlannerJSONReader(decoder)
    id = try read.uuid("id")
    listID = try read.uuid("listId")
    parentID = try read.optionalUUID("parentId")
    title = try read.string("title")
    notes = try read.optional("notes", String.self) ?? ""
    guard let status = Status(rawValue: try read.string("status")) else {
      throw read.error("status", expected: "needsAction or completed")
    }
    self.status = status
    completedAt = try read.optionalTime("completedAt")
    if let number = try read.whole("priority") {
      guard (0...9).contains(number) else { throw read.error("priority", expected: "0 to 9") }
      priority = Int(number)
    }
    due = try read.optional("due", DueJSON.self)?.due
    recurrence = try read.optional("recurrence", RecurrenceJSON.self)?.recurrence
    if let done = try read.whole("occurrencesDone") {
      // (At most the service's nine digits: `finish` counts one more.)
      guard (0...999_999_999).contains(done) else {
        throw read.error("occurrencesDone", expected: "a whole number from 0 to 999 999 999")
      }
      occurrencesDone = Int(done)
    }
    if let last = try read.optional("lastOccurrenceDone", String.self) {
      guard let date = CalendarDate(last) else { throw read.error("lastOccurrenceDone", expected: "YYYY-MM-DD") }
      lastOccurrenceDone = date
    }
    reminders = try read.list("reminders", of: ReminderJSON.self).map(\.reminder)
    categories = try read.list("categories", of: String.self)
    sortKey = try read.optional("sortKey", String.self) ?? ""
    createdAt = try read.time("createdAt")
    updatedAt = try read.time("updatedAt")
    guard let version = try read.whole("version"), version >= 0 else {
      throw read.error("version", expected: "a whole number")
    }
    self.version = version
    changedBy = try read.optionalUUID("changedBy")
  }

  private struct DueJSON: Decodable {
    let due: Due

    init(from decoder: any Decoder) throws {
      let read = try PlannerJSONReader(decoder)
      guard let date = CalendarDate(try read.string("date")) else {
        throw read.error("date", expected: "YYYY-MM-DD")
      }
      var time: TimeOfDay?
      if let text = try read.optional("time", String.self) {
        guard let value = TimeOfDay(text) else { throw read.error("time", expected: "HH:MM") }
        time = value
      }
      due = Due(date: date, time: time, timeZone: try read.optional("timeZone", String.self))
    }
  }

  private struct RecurrenceJSON: Decodable {
    let recurrence: Recurrence

    init(from decoder: any Decoder) throws {
      let read = try PlannerJSONReader(decoder)
      let text = try read.string("rrule")
      let rule: RecurrenceRule
      do throws(RecurrenceRule.ParseError) {
        rule = try RecurrenceRule(rrule: text)
      } catch {
        throw read.error("rrule", expected: "an RRULE of the supported subset")
      }
      guard let from = Recurrence.From(rawValue: try read.string("from")) else {
        throw read.error("from", expected: "due or completion")
      }
      recurrence = Recurrence(rule: rule, from: from)
    }
  }

  private struct ReminderJSON: Decodable {
    let reminder: Reminder

    init(from decoder: any Decoder) throws {
      let read = try PlannerJSONReader(decoder)
      let at = try read.optionalTime("at")
      let before = try read.whole("before")
      let when: Reminder.When
      switch (at, before) {
      case (let at?, nil): when = .at(at)
      case (nil, let minutes?):
        guard (0...525_600).contains(minutes) else { throw read.error("before", expected: "minutes") }
        when = .before(minutes: Int(minutes))
      default:
        throw PlannerJSONError(field: PlannerJSONError.path(decoder.codingPath), expected: "at or before")
      }
      reminder = Reminder(
        when, acknowledgedAt: try read.optionalTime("acknowledgedAt"),
        snoozedUntil: try read.optionalTime("snoozedUntil"))
    }
  }
}

// MARK: Merging an edit the service refused (412)

extension PlannerItem {
  /// The fields a person edits, each merged on its own.
  public enum Field: String, CaseIterable, Sendable {
    case title, notes, status, priority, due, recurrence, reminders, categories, parentID, sortKey, listID
  }

  /// Whether `field` has the same value here and in `other` (finishing is one field: status and its time).
  public func same(_ field: Field, as other: PlannerItem) -> Bool {
    switch field {
    case .title: title == other.title
    case .notes: notes == other.notes
    case .status: status == other.status
    case .priority: priority == other.priority
    case .due: due == other.due
    case .recurrence: recurrence == other.recurrence
    case .reminders: reminders == other.reminders
    case .categories: categories == other.categories
    case .parentID: parentID == other.parentID
    case .sortKey: sortKey == other.sortKey
    case .listID: listID == other.listID
    }
  }

  /// `field` taken from `source`.
  public mutating func take(_ field: Field, from source: PlannerItem) {
    switch field {
    case .title: title = source.title
    case .notes: notes = source.notes
    case .status:
      status = source.status
      completedAt = source.completedAt
    case .priority: priority = source.priority
    case .due: due = source.due
    case .recurrence: recurrence = source.recurrence
    case .reminders: reminders = source.reminders
    case .categories: categories = source.categories
    case .parentID: parentID = source.parentID
    case .sortKey: sortKey = source.sortKey
    case .listID: listID = source.listID
    }
  }

  /// This copy with `mine`'s edit made on it: each field `mine` changed from `base` (the copy the edit was made on)
  /// taken from `mine`, every other field as it is here. An edit made on an older copy of the task (a window's,
  /// recorded while an earlier edit was on its way into the outbox) so takes back nothing recorded since that copy.
  public func editing(from base: PlannerItem, to mine: PlannerItem) -> PlannerItem {
    var item = self
    for field in Field.allCases where !mine.same(field, as: base) { item.take(field, from: mine) }
    return item
  }
}

extension PlannerItem {
  /// The body of a PATCH (a JSON merge patch) that sets `fields` to this task's values; a field without a value
  /// (no due date, no repeat, no parent) is null, which clears it at the service. Finishing is sent as the status
  /// with its time; `listId` moves the task (with its subtasks) to another list of the user's.
  public func patch(_ fields: [Field]) -> Data {
    var out: [UInt8] = [UInt8(ascii: "{")]
    appendFields(fields, to: &out)
    out.append(UInt8(ascii: "}"))
    return Data(out)
  }

  /// `fields` as the members of a JSON object, in `Field`'s order, each once (what `patch` sends and the task's
  /// JSON holds), written straight into bytes (`JSONWriter`).
  func appendFields(_ fields: [Field], to out: inout [UInt8]) {
    var first = true
    func member(_ name: StaticString) {
      if !first { out.append(UInt8(ascii: ",")) }
      first = false
      out.append(UInt8(ascii: "\""))
      out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
      out.append(contentsOf: #"":"#.utf8)
    }
    for field in Field.allCases where fields.contains(field) {
      switch field {
      case .title:
        member("title")
        JSONWriter.appendString(title, to: &out)
      case .notes:
        member("notes")
        JSONWriter.appendString(notes, to: &out)
      case .status:
        member("status")
        JSONWriter.appendString(status.rawValue, to: &out)
        member("completedAt")
        JSONWriter.appendTime(completedAt, to: &out)
      case .priority:
        member("priority")
        out.append(contentsOf: String(priority).utf8)
      case .due:
        member("due")
        JSONWriter.appendDue(due, to: &out)
      case .recurrence:
        member("recurrence")
        JSONWriter.appendRecurrence(recurrence, to: &out)
      case .reminders:
        member("reminders")
        JSONWriter.appendReminders(reminders, to: &out)
      case .categories:
        member("categories")
        JSONWriter.appendStrings(categories, to: &out)
      case .parentID:
        member("parentId")
        JSONWriter.appendID(parentID, to: &out)
      case .sortKey:
        member("sortKey")
        JSONWriter.appendString(sortKey, to: &out)
      case .listID:
        member("listId")
        JSONWriter.appendID(listID, to: &out)
      }
    }
  }
}

/// An edit merged with what the service has now.
public struct PlannerMerge: Equatable, Sendable {
  /// The task as it should be: the service's, with this device's edits where only it changed a field (for the
  /// reminders and the categories, an element).
  public let merged: PlannerItem
  /// The fields to send again (this device's edits the service does not have yet), against `merged.version`.
  public let toSend: [PlannerItem.Field]
  /// The fields changed on both sides to different values (the reminders and the categories: one element so, or
  /// a side naming one twice): the service's value stays, and this device's edit lost (the window names the field,
  /// and "Use Mine" sends `mine`'s value again).
  public let lost: [PlannerItem.Field]

  /// Merges `mine` (the edit refused) and `theirs` (the service's current task, from the 412's body) against
  /// `base` (the version the edit was made on), field by field: a field changed on one side only is that side's;
  /// changed on both to the same value, it is that value; the reminders and the categories changed on both, element
  /// by element (a reminder snoozed here and another added elsewhere: both); otherwise to different values, the
  /// service's, and the field is in `lost`.
  public init(base: PlannerItem, mine: PlannerItem, theirs: PlannerItem) {
    var merged = theirs
    var toSend: [PlannerItem.Field] = []
    var lost: [PlannerItem.Field] = []
    for field in PlannerItem.Field.allCases {
      let changedHere = !mine.same(field, as: base)
      let changedThere = !theirs.same(field, as: base)
      guard changedHere, !mine.same(field, as: theirs) else { continue }
      if !changedThere {
        merged.take(field, from: mine)
        toSend.append(field)
      } else if let both = merged.eachTaken(field, base: base, mine: mine) {
        if !both.same(field, as: theirs) { toSend.append(field) }
        merged = both
      } else {
        lost.append(field)
      }
    }
    self.merged = merged
    self.toSend = toSend
    self.lost = lost
  }
}

extension PlannerItem {
  /// This task (the service's) with `mine`'s edit of a list field made on it element by element, when `field` is
  /// one (the reminders, each known by when it fires; the categories, by name): an element added, removed or changed
  /// on one side only is that side's; nil when one was changed on both sides to different values, a side holds one
  /// twice, or `field` is not a list.
  func eachTaken(_ field: Field, base: PlannerItem, mine: PlannerItem) -> PlannerItem? {
    var item = self
    switch field {
    case .reminders:
      guard let merged = Self.merged(base.reminders, mine.reminders, reminders, key: \.when) else { return nil }
      item.reminders = merged
    case .categories:
      guard let merged = Self.merged(base.categories, mine.categories, categories, key: \.self) else { return nil }
      item.categories = merged
    default: return nil
    }
    return item
  }

  /// `theirs` with what `mine` changed from `base` made on it, element by element (elements known by `key`), in
  /// `theirs`' order then `mine`'s additions; nil on an element changed on both sides to different values.
  private static func merged<Element: Equatable, Key: Hashable>(
    _ base: [Element], _ mine: [Element], _ theirs: [Element], key: (Element) -> Key
  ) -> [Element]? {
    func keyed(_ list: [Element]) -> [Key: Element]? {
      var out: [Key: Element] = [:]
      for element in list where out.updateValue(element, forKey: key(element)) != nil { return nil }
      return out
    }
    guard let old = keyed(base), let here = keyed(mine), let there = keyed(theirs) else { return nil }
    var out: [Element] = []
    for name in theirs.map(key) + mine.map(key).filter({ there[$0] == nil }) {
      let (was, now, theirs) = (old[name], here[name], there[name])
      if now == was || now == theirs {
        if let theirs { out.append(theirs) }
      } else if theirs == was {
        if let now { out.append(now) }
      } else {
        return nil
      }
    }
    return out
  }
}

extension UUID {
  /// The id's sixteen bytes as two numbers, which order ids as their text does (`uuidString`, in the same case)
  /// without making that text.
  public struct Order: Comparable, Hashable, Sendable {
    let high: UInt64
    let low: UInt64

    public static func < (a: Order, b: Order) -> Bool { (a.high, a.low) < (b.high, b.low) }
  }

  public var order: Order {
    withUnsafeBytes(of: uuid) { bytes in
      Order(
        high: UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)),
        low: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
    }
  }
}

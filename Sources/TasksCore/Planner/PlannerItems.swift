// PlannerItems: the task API v2's tasks as the app holds them, read from the service's JSON with a typed
// error (the core's own reading: it shares no code with the service), and the field-by-field merge of an edit the
// service refused with 412 against the version it was made on. Pure values; any thread.

import FoundationEssentials

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

/// What is wrong with the service's JSON: the field's path and what was expected.
public struct PlannerJSONError: Error, Equatable, Sendable, CustomStringConvertible {
  public let field: String
  public let expected: String

  public init(field: String, expected: String) {
    self.field = field
    self.expected = expected
  }

  public var description: String { "\(field): expected \(expected)" }
}

extension PlannerItem {
  /// A task from the service's JSON (one object).
  public init(json data: Data) throws(PlannerJSONError) {
    guard let object = JSONValue.object(data) else { throw PlannerJSONError(field: "body", expected: "a JSON object") }
    try self.init(object: object)
  }

  init(object: [String: JSONValue]) throws(PlannerJSONError) {
    let read = PlannerJSONReader(object, path: "")
    id = try read.uuid("id")
    listID = try read.uuid("listId")
    parentID = try read.optional("parentId") { value, path throws(PlannerJSONError) in
      try PlannerJSONReader.uuid(value, path)
    }
    title = try read.string("title")
    notes =
      try read.optional("notes") { value, path throws(PlannerJSONError) in
        try PlannerJSONReader.string(value, path)
      } ?? ""
    guard let status = Status(rawValue: try read.string("status")) else {
      throw PlannerJSONError(field: "status", expected: "needsAction or completed")
    }
    self.status = status
    completedAt = try read.optional("completedAt") { value, path throws(PlannerJSONError) in
      try PlannerJSONReader.time(value, path)
    }
    priority =
      try read.optional("priority") { value, path throws(PlannerJSONError) in
        guard let number = PlannerJSONReader.whole(value), (0...9).contains(number) else {
          throw PlannerJSONError(field: path, expected: "0 to 9")
        }
        return Int(number)
      } ?? 0
    due = try read.optional("due") { value, path throws(PlannerJSONError) in
      let due = try PlannerJSONReader(value, path: path)
      guard let date = CalendarDate(try due.string("date")) else {
        throw PlannerJSONError(field: path + ".date", expected: "YYYY-MM-DD")
      }
      let time = try due.optional("time") { value, path throws(PlannerJSONError) in
        guard let time = TimeOfDay(try PlannerJSONReader.string(value, path)) else {
          throw PlannerJSONError(field: path, expected: "HH:MM")
        }
        return time
      }
      let zone = try due.optional("timeZone") { value, path throws(PlannerJSONError) in
        try PlannerJSONReader.string(value, path)
      }
      return Due(date: date, time: time, timeZone: zone)
    }
    recurrence = try read.optional("recurrence") { value, path throws(PlannerJSONError) in
      let recurrence = try PlannerJSONReader(value, path: path)
      let text = try recurrence.string("rrule")
      let rule: RecurrenceRule
      do throws(RecurrenceRule.ParseError) {
        rule = try RecurrenceRule(rrule: text)
      } catch {
        throw PlannerJSONError(field: path + ".rrule", expected: "an RRULE of the supported subset")
      }
      guard let from = Recurrence.From(rawValue: try recurrence.string("from")) else {
        throw PlannerJSONError(field: path + ".from", expected: "due or completion")
      }
      return Recurrence(rule: rule, from: from)
    }
    reminders = try read.list("reminders") { value, path throws(PlannerJSONError) in
      let reminder = try PlannerJSONReader(value, path: path)
      let at = try reminder.optional("at") { value, path throws(PlannerJSONError) in
        try PlannerJSONReader.time(value, path)
      }
      let before = try reminder.optional("before") { value, path throws(PlannerJSONError) in
        guard let minutes = PlannerJSONReader.whole(value), (0...525_600).contains(minutes) else {
          throw PlannerJSONError(field: path, expected: "minutes")
        }
        return Int(minutes)
      }
      let when: Reminder.When
      switch (at, before) {
      case (let at?, nil): when = .at(at)
      case (nil, let before?): when = .before(minutes: before)
      default: throw PlannerJSONError(field: path, expected: "at or before")
      }
      return Reminder(
        when,
        acknowledgedAt: try reminder.optional("acknowledgedAt") { value, path throws(PlannerJSONError) in
          try PlannerJSONReader.time(value, path)
        },
        snoozedUntil: try reminder.optional("snoozedUntil") { value, path throws(PlannerJSONError) in
          try PlannerJSONReader.time(value, path)
        })
    }
    categories = try read.list("categories") { value, path throws(PlannerJSONError) in
      try PlannerJSONReader.string(value, path)
    }
    sortKey =
      try read.optional("sortKey") { value, path throws(PlannerJSONError) in
        try PlannerJSONReader.string(value, path)
      } ?? ""
    createdAt = try read.time("createdAt")
    updatedAt = try read.time("updatedAt")
    guard let version = object["version"].flatMap(PlannerJSONReader.whole), version >= 0 else {
      throw PlannerJSONError(field: "version", expected: "a whole number")
    }
    self.version = version
    changedBy = try read.optional("changedBy") { value, path throws(PlannerJSONError) in
      try PlannerJSONReader.uuid(value, path)
    }
  }
}

/// Reads the fields of one JSON object, naming each by its path.
struct PlannerJSONReader {
  let object: [String: JSONValue]
  let path: String

  init(_ object: [String: JSONValue], path: String) {
    self.object = object
    self.path = path
  }

  init(_ value: JSONValue, path: String) throws(PlannerJSONError) {
    guard case .object(let object) = value else { throw PlannerJSONError(field: path, expected: "an object") }
    self.init(object, path: path)
  }

  private func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

  func string(_ key: String) throws(PlannerJSONError) -> String {
    try Self.string(object[key] ?? .null, name(key))
  }

  func uuid(_ key: String) throws(PlannerJSONError) -> UUID { try Self.uuid(object[key] ?? .null, name(key)) }

  func time(_ key: String) throws(PlannerJSONError) -> Date { try Self.time(object[key] ?? .null, name(key)) }

  /// nil when absent or null.
  func optional<Value>(
    _ key: String, _ read: (JSONValue, String) throws(PlannerJSONError) -> Value
  ) throws(PlannerJSONError) -> Value? {
    guard let value = object[key], value != .null else { return nil }
    return try read(value, name(key))
  }

  /// Empty when absent or null.
  func list<Value>(
    _ key: String, _ read: (JSONValue, String) throws(PlannerJSONError) -> Value
  ) throws(PlannerJSONError) -> [Value] {
    guard let value = object[key], value != .null else { return [] }
    guard case .array(let items) = value else { throw PlannerJSONError(field: name(key), expected: "a list") }
    var values: [Value] = []
    for (index, item) in items.enumerated() { values.append(try read(item, "\(name(key))[\(index)]")) }
    return values
  }

  /// A whole number (JSON's 3 or 3.0).
  static func whole(_ value: JSONValue) -> Int64? {
    switch value {
    case .integer(let number): number
    case .number(let number) where number.rounded() == number && abs(number) < 1e15: Int64(number)
    default: nil
    }
  }

  static func string(_ value: JSONValue, _ path: String) throws(PlannerJSONError) -> String {
    guard case .string(let text) = value else { throw PlannerJSONError(field: path, expected: "a string") }
    return text
  }

  static func uuid(_ value: JSONValue, _ path: String) throws(PlannerJSONError) -> UUID {
    guard case .string(let text) = value, let id = UUID(uuidString: text) else {
      throw PlannerJSONError(field: path, expected: "a UUID")
    }
    return id
  }

  /// A time as the API writes it: RFC 3339 in UTC with milliseconds.
  static func text(of date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
  }

  static func time(_ value: JSONValue, _ path: String) throws(PlannerJSONError) -> Date {
    guard case .string(let text) = value, let date = WireDate.parse(text) else {
      throw PlannerJSONError(field: path, expected: "an RFC 3339 time")
    }
    return date
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
}

extension PlannerItem {
  /// The body of a PATCH (a JSON merge patch) that sets `fields` to this task's values; a field without a value
  /// (no due date, no repeat, no parent) is null, which clears it at the service. Finishing is sent as the status
  /// with its time; `listId` moves the task (with its subtasks) to another list of the user's.
  public func patch(_ fields: [Field]) -> Data {
    var body: [String: JSONValue] = [:]
    for field in fields {
      switch field {
      case .title: body["title"] = .string(title)
      case .notes: body["notes"] = .string(notes)
      case .status:
        body["status"] = .string(status.rawValue)
        body["completedAt"] = completedAt.map { .string(PlannerJSONReader.text(of: $0)) } ?? .null
      case .priority: body["priority"] = .integer(Int64(priority))
      case .due:
        body["due"] =
          due.map { due in
            .object([
              "date": .string(due.date.description), "time": due.time.map { .string($0.description) } ?? .null,
              "timeZone": due.timeZone.map { .string($0) } ?? .null,
            ])
          } ?? .null
      case .recurrence:
        body["recurrence"] =
          recurrence.map { .object(["rrule": .string($0.rule.rrule), "from": .string($0.from.rawValue)]) } ?? .null
      case .reminders:
        body["reminders"] = .array(
          reminders.map { reminder in
            var fields: [String: JSONValue] = [
              "acknowledgedAt": reminder.acknowledgedAt.map { .string(PlannerJSONReader.text(of: $0)) } ?? .null,
              "snoozedUntil": reminder.snoozedUntil.map { .string(PlannerJSONReader.text(of: $0)) } ?? .null,
            ]
            switch reminder.when {
            case .at(let time): fields["at"] = .string(PlannerJSONReader.text(of: time))
            case .before(let minutes): fields["before"] = .integer(Int64(minutes))
            }
            return .object(fields)
          })
      case .categories: body["categories"] = .array(categories.map { .string($0) })
      case .parentID: body["parentId"] = parentID.map { .string($0.uuidString.lowercased()) } ?? .null
      case .sortKey: body["sortKey"] = .string(sortKey)
      case .listID: body["listId"] = .string(listID.uuidString.lowercased())
      }
    }
    return (try? JSONEncoder().encode(JSONValue.object(body))) ?? Data("{}".utf8)
  }
}

/// An edit merged with what the service has now.
public struct PlannerMerge: Equatable, Sendable {
  /// The task as it should be: the service's, with this device's edits where only it changed a field.
  public let merged: PlannerItem
  /// The fields to send again (this device's edits the service does not have yet), against `merged.version`.
  public let toSend: [PlannerItem.Field]
  /// The fields changed on both sides to different values: the service's value stays, and this device's edit
  /// lost (the window names the field, and "Use Mine" sends `mine`'s value again).
  public let lost: [PlannerItem.Field]

  /// Merges `mine` (the edit refused) and `theirs` (the service's current task, from the 412's body) against
  /// `base` (the version the edit was made on), field by field: a field changed on one side only is that side's;
  /// changed on both to the same value, it is that value; to different values, the service's, and the field is in
  /// `lost`.
  public init(base: PlannerItem, mine: PlannerItem, theirs: PlannerItem) {
    var merged = theirs
    var toSend: [PlannerItem.Field] = []
    var lost: [PlannerItem.Field] = []
    for field in PlannerItem.Field.allCases {
      let changedHere = !mine.same(field, as: base)
      let changedThere = !theirs.same(field, as: base)
      guard changedHere, !mine.same(field, as: theirs) else { continue }
      if changedThere {
        lost.append(field)
      } else {
        merged.take(field, from: mine)
        toSend.append(field)
      }
    }
    self.merged = merged
    self.toSend = toSend
    self.lost = lost
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

// PlannerFeedReader: the change feed's pages and the kept copy read straight into typed values, without Codable, for
// JSON as the service and the copy write it; anything else is left to the Codable reader (PlannerJSONReader), which
// reads it or names what is wrong. Pure functions; any thread.

import FoundationEssentials
import TasksCalendar

/// Reads a change-feed answer (`PlannerChanges`) without Codable.
///
/// Why: decoding the pages was two thirds of the CLI's first sync, and decoding the kept copy most of what 2 000
/// tasks add to the window's start (perf, Tests/Benchmarks/RESULTS.md): JSONDecoder through `any Decoder` costs
/// about 7 µs a task. This reader takes the members the service and the copy write, each at most once, in any order,
/// with strings whose escapes are those JSON writers use for text (no `\u`), whole numbers, and times in the form
/// `WireDate` reads directly; each value is checked as the Codable reader checks it. Anything that reader would
/// refuse or might read otherwise — and anything unusual — makes this one answer nil, and the Codable reader then
/// reads the text and names what is wrong with it. PlannerFeedReaderTests holds the two to the same answer on
/// written, damaged and hostile pages.
enum PlannerFeedReader {
  /// The answer `data` holds, or nil when this reader leaves it to the Codable reader.
  static func changes(_ data: Data) -> PlannerChanges? {
    data.withUnsafeBytes { raw in
      var scanner = JSONScanner(bytes: raw.bindMemory(to: UInt8.self))
      guard let changes = scanner.feedChanges(), scanner.atEnd() else { return nil }
      return changes
    }
  }

  /// A page's `more` and `next`, read from its first members (the service writes them before the tasks, so the
  /// rest is not read); nil when this reader leaves the page to the Codable one. A page that turns out bad after its
  /// head is refused when it is decoded.
  static func head(_ data: Data) -> (more: Bool, next: String)? {
    data.withUnsafeBytes { raw in
      var scanner = JSONScanner(bytes: raw.bindMemory(to: UInt8.self))
      var more: Bool?
      var next: String?
      guard scanner.take(UInt8(ascii: "{")) else { return nil }
      repeat {
        guard let key = scanner.text()?.string, scanner.take(UInt8(ascii: ":")) else { return nil }
        switch key {
        case "more":
          guard more == nil else { return nil }
          more = scanner.takeNull() ? false : scanner.boolean()
          guard more != nil else { return nil }
        case "next":
          guard next == nil else { return nil }
          next = scanner.text()?.string
          guard next != nil else { return nil }
        default:
          guard scanner.skipValue() else { return nil }
        }
        if let more, let next { return (more, next) }
      } while scanner.take(UInt8(ascii: ","))
      guard scanner.take(UInt8(ascii: "}")), scanner.atEnd(), let next else { return nil }
      return (more ?? false, next)
    }
  }
}

extension JSONScanner {
  fileprivate mutating func feedChanges() -> PlannerChanges? {
    var next: String?
    var more = false
    var lists: [PlannerListItem] = []
    var tasks: [PlannerItem] = []
    var deleted: (lists: [UUID], tasks: [UUID])?
    let read = object { scanner, key in
      switch key {
      case "next":
        // As `PlannerChanges(from:)` takes a token.
        next = scanner.text()?.string
        return next.map { !$0.isEmpty && $0.utf8.count <= 96 && $0.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F } }
          == true
      case "more":
        if scanner.takeNull() { return true }
        guard let value = scanner.boolean() else { return false }
        more = value
        return true
      case "lists":
        if scanner.takeNull() { return true }
        return scanner.array { scanner in
          guard let list = scanner.feedList() else { return false }
          lists.append(list)
          return true
        }
      case "tasks":
        if scanner.takeNull() { return true }
        return scanner.array { scanner in
          guard let task = scanner.feedTask() else { return false }
          tasks.append(task)
          return true
        }
      case "deleted":
        deleted = scanner.feedDeleted()
        return deleted != nil
      default: return false
      }
    }
    guard read, let next, let deleted else { return nil }
    return PlannerChanges(
      lists: lists, tasks: tasks, deletedLists: deleted.lists, deletedTasks: deleted.tasks, next: next, more: more)
  }

  /// `{"lists": [ids], "tasks": [ids]}`.
  private mutating func feedDeleted() -> (lists: [UUID], tasks: [UUID])? {
    var lists: [UUID] = []
    var tasks: [UUID] = []
    let read = object { scanner, key in
      guard key == "lists" || key == "tasks" else { return false }
      if scanner.takeNull() { return true }
      return scanner.array { scanner in
        guard let id = scanner.feedUUID() else { return false }
        if key == "lists" { lists.append(id) } else { tasks.append(id) }
        return true
      }
    }
    return read ? (lists, tasks) : nil
  }

  /// An id read from the page's bytes (without a String made for it), or as any text when it has an escape.
  private mutating func feedUUID() -> UUID? {
    if let bytes = plainText() { return UUID(textBytes: bytes) }
    return text().flatMap { UUID(text: $0.string) }
  }

  /// A time as `WireDate` reads it directly (UTC, `Z`), from the page's bytes as `feedUUID` reads ids.
  private mutating func feedTime() -> Date? {
    if let bytes = plainText() { return WireDate.utc(bytes: bytes) }
    return text().flatMap { WireDate.utc($0.string) }
  }

  private mutating func feedList() -> PlannerListItem? {
    var id: UUID?
    var name: String?
    var list = PlannerListItem(id: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), name: "")
    var role: PlannerListItem.Role?
    var version: Int64?
    let read = object { scanner, key in
      switch key {
      case "id":
        id = scanner.feedUUID()
        return id != nil
      case "name":
        name = scanner.text()?.string
        return name != nil
      case "role":
        role = scanner.text().flatMap { PlannerListItem.Role(rawValue: $0.string) }
        return role != nil
      case "version":
        version = scanner.integer().map(Int64.init)
        return version != nil
      case "sortKey":
        if scanner.takeNull() { return true }
        guard let text = scanner.text() else { return false }
        list.sortKey = text.string
        return true
      case "createdAt", "updatedAt":
        // Written by the service, not kept by the app (the Codable reader ignores them too).
        return scanner.takeNull() || scanner.text() != nil
      case "isDefault", "shared":
        if scanner.takeNull() { return true }
        guard let value = scanner.boolean() else { return false }
        if key == "isDefault" { list.isDefault = value } else { list.shared = value }
        return true
      default: return false
      }
    }
    guard read, let id, let name, let role, let version else { return nil }
    list.id = id
    list.name = name
    list.role = role
    list.version = version
    return list
  }

  private mutating func feedTask() -> PlannerItem? {
    var id: UUID?
    var listID: UUID?
    var title: String?
    var status: PlannerItem.Status?
    var createdAt: Date?
    var updatedAt: Date?
    var version: Int64?
    var task = PlannerItem(
      id: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
      listID: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), title: "",
      createdAt: Date(timeIntervalSinceReferenceDate: 0))
    let read = object { scanner, key in
      switch key {
      case "id":
        id = scanner.feedUUID()
        return id != nil
      case "listId":
        listID = scanner.feedUUID()
        return listID != nil
      case "title":
        title = scanner.text()?.string
        return title != nil
      case "status":
        status = scanner.text().flatMap { PlannerItem.Status(rawValue: $0.string) }
        return status != nil
      case "createdAt", "updatedAt":
        guard let time = scanner.feedTime() else { return false }
        if key == "createdAt" { createdAt = time } else { updatedAt = time }
        return true
      case "version":
        version = scanner.integer().map(Int64.init)
        return version != nil
      default:
        return scanner.feedTaskField(key, into: &task)
      }
    }
    guard read, let id, let listID, let title, let status, let createdAt, let updatedAt, let version else {
      return nil
    }
    task.id = id
    task.listID = listID
    task.title = title
    task.status = status
    task.createdAt = createdAt
    task.updatedAt = updatedAt
    task.version = version
    return task
  }

  /// A task's member that may be null or left out (null: its default).
  private mutating func feedTaskField(_ key: Key, into task: inout PlannerItem) -> Bool {
    if takeNull() { return Self.taskOptionals.contains { key == $0 } }
    switch key {
    case "parentId", "changedBy":
      guard let id = feedUUID() else { return false }
      if key == "parentId" { task.parentID = id } else { task.changedBy = id }
    case "notes", "sortKey":
      guard let text = text() else { return false }
      if key == "notes" { task.notes = text.string } else { task.sortKey = text.string }
    case "completedAt":
      guard let time = feedTime() else { return false }
      task.completedAt = time
    case "priority":
      guard let priority = integer(), priority <= 9 else { return false }
      task.priority = priority
    case "due":
      guard let due = taskDue(acceptsZone: { _ in true }) else { return false }
      task.due = due
    case "recurrence":
      guard let recurrence = feedRecurrence() else { return false }
      task.recurrence = recurrence
    case "occurrencesDone":
      guard let done = integer(maxDigits: 9) else { return false }
      task.occurrencesDone = done
    case "lastOccurrenceDone":
      guard let text = text(), let date = CalendarDate(text.string) else { return false }
      task.lastOccurrenceDone = date
    case "reminders":
      return array { scanner in
        guard let reminder = scanner.feedReminder() else { return false }
        task.reminders.append(reminder)
        return true
      }
    case "categories":
      return array { scanner in
        guard let name = scanner.text() else { return false }
        task.categories.append(name.string)
        return true
      }
    default: return false
    }
    return true
  }

  /// The task's members that may be null.
  private static let taskOptionals: [StaticString] = [
    "parentId", "changedBy", "notes", "sortKey", "completedAt", "priority", "due", "recurrence", "occurrencesDone",
    "lastOccurrenceDone", "reminders", "categories",
  ]

  /// `{"rrule": an RRULE of the supported subset, "from": "due" or "completion"}`.
  private mutating func feedRecurrence() -> TaskRecurrence? {
    var rule: RecurrenceRule?
    var from: TaskRecurrence.From?
    let read = object { scanner, key in
      switch key {
      case "rrule":
        rule = scanner.text().flatMap { try? RecurrenceRule(rrule: $0.string) }
        return rule != nil
      case "from":
        from = scanner.text().flatMap { TaskRecurrence.From(rawValue: $0.string) }
        return from != nil
      default: return false
      }
    }
    guard read, let rule, let from else { return nil }
    return TaskRecurrence(rule: rule, from: from)
  }

  /// `{"at": a time, or "before": minutes, "acknowledgedAt": a time or null, "snoozedUntil": a time or null}`.
  private mutating func feedReminder() -> TaskReminder? {
    var at: Date?
    var before: Int?
    var acknowledged: Date?
    var snoozed: Date?
    let read = object { scanner, key in
      guard key == "at" || key == "before" || key == "acknowledgedAt" || key == "snoozedUntil" else { return false }
      if scanner.takeNull() { return true }
      switch key {
      case "before":
        before = scanner.integer()
        return before != nil
      case "at":
        at = scanner.feedTime()
        return at != nil
      case "acknowledgedAt":
        acknowledged = scanner.feedTime()
        return acknowledged != nil
      default:
        snoozed = scanner.feedTime()
        return snoozed != nil
      }
    }
    guard read else { return nil }
    switch (at, before) {
    case (let at?, nil): return TaskReminder(.at(at), acknowledgedAt: acknowledged, snoozedUntil: snoozed)
    case (nil, let minutes?) where minutes <= 525_600:
      return TaskReminder(.before(minutes: minutes), acknowledgedAt: acknowledged, snoozedUntil: snoozed)
    default: return nil
    }
  }
}

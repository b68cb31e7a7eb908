// ReminderAgenda: the reminders still to fire, followed through the change feed, with what fired already and what a
// notification shows — the reminder service's whole memory of the account. Value; any thread.

import CGLib
import FoundationEssentials
import TasksCalendar

extension TaskDue {
  /// The moment a reminder "before" counts back from: the due time (in its time zone, else this computer's), or
  /// 09:00 on this computer's clock for a due date without a time (as calendars alert for a day's events).
  public var moment: Date? {
    let time = time ?? TimeOfDay(hour: 9)!
    let zone = timeZone.flatMap { g_time_zone_new_identifier($0) } ?? g_time_zone_new_local()
    defer { g_time_zone_unref(zone) }
    guard
      let moment = g_date_time_new(
        zone, Int32(date.year), Int32(date.month), Int32(date.day), Int32(time.hour), Int32(time.minute), 0)
    else { return nil }
    defer { g_date_time_unref(moment) }
    return Date(timeIntervalSince1970: TimeInterval(g_date_time_to_unix(moment)))
  }
}

extension PlannerItem {
  /// When the task's reminders fire, each as late as a snooze put it, leaving out those acknowledged since they
  /// fired and every reminder of a finished task; the earliest first.
  public var reminderTimes: [(index: Int, at: Date)] {
    guard status != .completed else { return [] }
    return reminders.enumerated().compactMap { index, reminder -> (index: Int, at: Date)? in
      let planned: Date
      switch reminder.when {
      case .at(let moment): planned = moment
      case .before(let minutes):
        guard let moment = due?.moment else { return nil }
        planned = moment.addingTimeInterval(-TimeInterval(minutes) * 60)
      }
      let at = max(planned, reminder.snoozedUntil ?? planned)
      if let acknowledged = reminder.acknowledgedAt, acknowledged >= at { return nil }
      return (index, at)
    }.sorted { $0.at < $1.at }
  }
}

/// One task's reminder as a notification shows it: the task (its list's name for the body) and when it fires.
public struct ReminderAlert: Equatable, Sendable {
  public var task: PlannerItem
  public var listName: String
  /// When it fires (a snooze's end, if later).
  public var at: Date
  /// Whether it fired while nothing could show it (the computer off, asleep or signed out): more than a minute late.
  public var missed = false
  /// Whether its list is shared with someone else (its reminders are paced: `ReminderPacing`).
  public var shared = false

  /// The notification's id: one per task (a second reminder of the task replaces its first).
  public var notificationID: String { Self.notificationID(of: task.id) }

  /// The notification id of `task`'s reminders.
  public static func notificationID(of task: UUID) -> String { "reminder-" + task.uuidString.lowercased() }
}

/// The account's reminders to come, and those that fired and still show: nothing else of the account's lists.
///
/// Each task with a reminder still to fire, or one that fired and shows, is kept with only what a notification
/// shows and its buttons need (`kept`: its title cut, no notes or categories; Snooze sends only its reminders
/// back); lists are kept by name only. So whatever the lists hold (another member's 60 000 characters of notes on
/// each of 300 tasks), the agenda in memory and on disk stays small. `fired` holds, per task, the moment its last notification was for, so that a
/// reminder fires once however often it is read again (`Ledger` keeps it across starts).
public struct ReminderAgenda: Equatable, Sendable {
  /// Tasks with a reminder to fire or showing.
  public private(set) var tasks: [UUID: PlannerItem] = [:]
  public private(set) var listNames: [UUID: String] = [:]
  /// The lists shared with someone else.
  public private(set) var sharedLists: Set<UUID> = []
  /// Per task, the moment its shown notification fired for.
  public private(set) var fired: [UUID: Date] = [:]

  public init(fired: [UUID: Date] = [:]) {
    self.fired = fired
  }

  /// Applies a read of the feed (`whole`: a first read, or one started over, which replaces everything); returns
  /// the tasks whose notification is to be withdrawn: finished, deleted, moved out of reach, or acknowledged,
  /// snoozed or changed to fire at another time (here or on another device).
  public mutating func apply(_ changes: PlannerChanges, whole: Bool) -> [UUID] {
    if whole {
      tasks = [:]
      listNames = [:]
      sharedLists = []
    }
    let goneLists = Set(changes.deletedLists)
    for id in goneLists {
      listNames[id] = nil
      sharedLists.remove(id)
    }
    tasks = tasks.filter { !goneLists.contains($0.value.listID) }
    for id in changes.deletedTasks { tasks[id] = nil }
    for list in changes.lists {
      listNames[list.id] = list.name
      if list.shared { sharedLists.insert(list.id) } else { sharedLists.remove(list.id) }
    }
    for task in changes.tasks {
      tasks[task.id] = task.reminderTimes.isEmpty ? nil : Self.kept(task)
    }
    var withdrawn: [UUID] = []
    for (id, at) in fired where !(tasks[id]?.reminderTimes.contains { Self.same($0.at, at) } ?? false) {
      withdrawn.append(id)
      fired[id] = nil
    }
    return withdrawn.sorted { $0.order < $1.order }
  }

  /// The reminders due at `now` that have not fired: each task's latest one (earlier ones of it are covered), the
  /// earliest first; they count as fired from now on.
  public mutating func due(at now: Date) -> [ReminderAlert] {
    var alerts: [ReminderAlert] = []
    for (id, task) in tasks {
      guard let latest = task.reminderTimes.last(where: { $0.at <= now }) else { continue }
      if let shown = fired[id], Self.same(shown, latest.at) || shown > latest.at { continue }
      fired[id] = latest.at
      alerts.append(
        ReminderAlert(
          task: task, listName: listNames[task.listID] ?? "", at: latest.at,
          missed: now.timeIntervalSince(latest.at) > 60, shared: sharedLists.contains(task.listID)))
    }
    return alerts.sorted { ($0.at, $0.task.id.order) < ($1.at, $1.task.id.order) }
  }

  /// When the next reminder that has not fired is due (nil: none is); a moment already past means at once.
  public var next: Date? {
    tasks.values.compactMap { task in
      task.reminderTimes.first { at in fired[task.id].map { !Self.same(at.at, $0) && at.at > $0 } ?? true }?.at
    }.min()
  }

  /// The longest title a notification shows, in characters (a notification's title is one line).
  public static let titleLimit = 200

  /// What the agenda keeps of `task`: its title cut to `titleLimit` characters, without notes or categories.
  public static func kept(_ task: PlannerItem) -> PlannerItem {
    var kept = task
    if kept.title.count > titleLimit { kept.title = String(kept.title.prefix(titleLimit - 1)) + "…" }
    kept.notes = ""
    kept.categories = []
    return kept
  }

  /// Whether two moments are one reminder's: the ledger keeps seconds since 1970 as text, and a moment read back
  /// from it may differ from the feed's in its last bits (which must not fire a reminder twice).
  private static func same(_ a: Date, _ b: Date) -> Bool {
    abs(a.timeIntervalSince(b)) < 0.000_5
  }

  /// The task as this agenda has it (for Mark as Done and Snooze).
  public func task(_ id: UUID) -> PlannerItem? { tasks[id] }

  /// The task with every reminder that has fired by `now` snoozed until `until` and acknowledged at `now` (other
  /// devices withdraw their notification when they read it); `again`: those snoozed still, too (their snooze
  /// changed).
  public static func snoozed(_ task: PlannerItem, now: Date, until: Date, again: Bool = false) -> PlannerItem {
    let until = until.asSent
    return acknowledging(task, now: now, again: again) { $0.snoozedUntil = until }
  }

  /// The task with every reminder that has fired by `now` acknowledged at `now` (dismissed: it fires no more, and
  /// other devices withdraw their notification when they read it).
  public static func dismissed(_ task: PlannerItem, now: Date) -> PlannerItem {
    acknowledging(task, now: now, again: false) { _ in }
  }

  private static func acknowledging(
    _ task: PlannerItem, now: Date, again: Bool, _ change: (inout TaskReminder) -> Void
  ) -> PlannerItem {
    var task = task
    let now = now.asSent
    let due = Set(task.reminderTimes.filter { $0.at <= now }.map(\.index))
    for index in task.reminders.indices
    where due.contains(index) || (again && (task.reminders[index].snoozedUntil ?? now) > now) {
      task.reminders[index].acknowledgedAt = now
      change(&task.reminders[index])
    }
    return task
  }

  /// The agenda as the change feed's JSON with `token` (lists by name, the tasks kept): what a start reads when the
  /// service cannot be reached, and where it goes on reading the feed from.
  public func document(token: String) -> Data {
    let lists = listNames.sorted { $0.key.order < $1.key.order }.map { id, name in
      var list = PlannerListItem(id: id, name: name)
      list.shared = sharedLists.contains(id)
      return list
    }
    return PlannerChanges.document(
      next: token, lists: lists, tasks: tasks.values.sorted { $0.id.order < $1.id.order })
  }

  /// The agenda kept by `document(token:)`, with what fired; nil (and the token too) when it does not read.
  public init?(document: Data, fired: [UUID: Date]) {
    guard let kept = try? PlannerChanges(json: document) else { return nil }
    self.init(fired: fired)
    listNames = Dictionary(kept.lists.map { ($0.id, $0.name) }, uniquingKeysWith: { _, last in last })
    sharedLists = Set(kept.lists.filter(\.shared).map(\.id))
    tasks = Dictionary(
      kept.tasks.filter { !$0.reminderTimes.isEmpty }.map { ($0.id, Self.kept($0)) },
      uniquingKeysWith: { _, last in last })
    token = kept.next
  }

  /// Where the feed was read up to, for an agenda read from its document.
  public private(set) var token: String?

  /// Forgets the account (a sign-out): returns the tasks whose notifications show, to withdraw.
  public mutating func clear() -> [UUID] {
    let shown = Array(fired.keys)
    self = ReminderAgenda()
    return shown
  }
}

/// What fired, kept on disk so that a reminder fires once across restarts of the service: one line per task, its id
/// and the moment (seconds since 1970) its notification was for. Nothing of the task's content.
public struct ReminderLedger: Sendable {
  public let file: URL

  public init(file: URL) {
    self.file = file
  }

  /// What fired; lines that do not read are left out (a damaged ledger at worst fires a reminder again).
  public func read() -> [UUID: Date] {
    guard let data = try? Data(contentsOf: file) else { return [:] }
    var fired: [UUID: Date] = [:]
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
      let parts = line.split(separator: " ")
      guard parts.count == 2, let id = UUID(uuidString: String(parts[0])), let seconds = Double(parts[1]),
        seconds.isFinite
      else { continue }
      fired[id] = Date(timeIntervalSince1970: seconds)
    }
    return fired
  }

  /// Writes `fired` (atomically; an empty ledger removes the file).
  public func write(_ fired: [UUID: Date]) throws(AtomicFileError) {
    guard !fired.isEmpty else {
      try? FileManager.default.removeItem(at: file)
      return
    }
    let lines = fired.sorted { $0.key.order < $1.key.order }.map { id, at in
      "\(id.uuidString.lowercased()) \(at.timeIntervalSince1970)\n"
    }
    try AtomicFile.write(Data(lines.joined().utf8), to: file)
  }
}

/// How many reminder notifications of shared lists reach the screen: at most `limit` in any minute, each with its
/// buttons; the rest are held and said together by one grouped notification ("5 more reminders"), which counts them
/// until a minute passes with none held. Every member of a shared list gets its tasks' reminders, as they get its due
/// dates, so this is what keeps another member from flooding the screen; the reminders of the user's own lists are
/// never held (another member's burst cannot push them into the group).
public struct ReminderPacing: Sendable {
  /// Notifications of their own in any minute.
  public static let limit = 3
  public static let window: TimeInterval = 60

  /// When the notifications of the last minute were shown.
  private var shownAt: [Date] = []
  /// The reminders held since the grouped notification was last started afresh.
  public private(set) var held: [ReminderAlert] = []
  private var lastHeld: Date?

  public init() {}

  /// Splits `alerts` (due now) into those shown on their own and those held; `held` then holds every reminder the
  /// grouped notification counts.
  public mutating func admit(_ alerts: [ReminderAlert], now: Date) -> (shown: [ReminderAlert], held: [ReminderAlert]) {
    shownAt.removeAll { now.timeIntervalSince($0) >= Self.window }
    if let lastHeld, now.timeIntervalSince(lastHeld) >= Self.window { held = [] }
    let room = max(0, Self.limit - shownAt.count)
    let shared = alerts.filter(\.shared)
    let heldNow = Array(shared.dropFirst(room))
    let shown = alerts.filter { alert in !heldNow.contains { $0.task.id == alert.task.id } }
    shownAt += shared.prefix(room).map { _ in now }
    if !heldNow.isEmpty {
      held += heldNow
      lastHeld = now
    }
    return (shown, heldNow)
  }

  /// The grouped notification's id: one, replaced as it counts more.
  public static let groupID = "reminders-more"
}

extension Date {
  /// This moment as the service gives it back (in milliseconds): a notification fired for a snooze's end here is the
  /// same moment as the one the feed brings, and does not fire again; a reminder made here is the same reminder as
  /// the service's copy of it (an edit of it merges element by element, `PlannerMerge`).
  var asSent: Date { WireDate.parse(JSONWriter.timestamp(self)) ?? self }
}

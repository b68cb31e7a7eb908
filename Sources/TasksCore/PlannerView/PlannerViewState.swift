// PlannerViewState: the planner window without any UI — the sidebar's entries and counts, what the selected entry
// shows (a list's tasks, Today across lists, Upcoming grouped by day), what each row says — and the edits that turn
// what is shown into the new. Value type; any thread.

import FoundationEssentials

/// A row of the planner's main list: a day's heading (Upcoming) or a task.
public enum PlannerRowKey: Hashable, Sendable {
  case day(CalendarDate)
  case task(UUID)

  /// The string kept in the list's model.
  public var modelString: String {
    switch self {
    case .day(let date): "d:" + date.description
    case .task(let id): id.uuidString.lowercased()
    }
  }

  /// The key a model string names; nil for any other string.
  public init?(modelString: String) {
    if modelString.hasPrefix("d:") {
      guard let date = CalendarDate(String(modelString.dropFirst(2))) else { return nil }
      self = .day(date)
    } else if let id = UUID(uuidString: modelString) {
      self = .task(id)
    } else {
      return nil
    }
  }
}

/// The planner's sidebar and main list, made from the user's lists and tasks (the replica's, with the outbox's
/// edits made).
///
/// Each change answers the edits of the sidebar and of the rows (`Changes`), as `TaskListState` does, so the views
/// keep their scroll position, focus and the widgets of what stayed; rows whose task changed in place are named for
/// a new binding. Switching entries reads an index kept per list, and Today and Upcoming one pass over the tasks, so
/// it answers within a frame with 10 000 tasks.
public struct PlannerViewState: Sendable {
  /// What the main list shows.
  public private(set) var selection: PlannerSelection = .today
  /// The sidebar, in order: Today, Upcoming, then the lists (the default first).
  public private(set) var entries: [SidebarEntry] = []
  /// The main list's rows, in order.
  public private(set) var rows: [PlannerRowKey] = []
  /// The day the views are reckoned on, and the time (what is overdue).
  public private(set) var today: CalendarDate
  public private(set) var now: TimeOfDay
  /// Whether finished tasks show (after the open ones) in a list.
  public private(set) var showCompleted = true

  private var lists: [UUID: PlannerListItem] = [:]
  /// The tasks, indexed.
  private var index = TaskIndex([])
  private var tasks: [UUID: PlannerItem] { index.tasks }
  /// Each list's top-level tasks, open ones first in the list's order.
  private var byList: [UUID: [UUID]] { index.byList }
  /// Each task's subtasks, in order.
  private var children: [UUID: [UUID]] { index.children }
  /// Each list's open top-level tasks, counted (its sidebar entry's number).
  private var openCount: [UUID: Int] { index.openCount }
  private var waiting: Set<UUID> = []
  private var members: [UUID: [PlannerMemberItem]] = [:]
  /// Whom each list's tasks name as their last changer.
  private var namedBy: [UUID: Set<UUID>] { index.namedBy }
  /// Whom each shared list's tasks named when its members were last read.
  private var namedWhenRead: [UUID: Set<UUID>] = [:]

  /// What the search bar holds: only the tasks whose title or notes hold every word are shown (blank: all).
  public private(set) var search = TaskSearch("")

  /// An empty planner, seen on `today` at `now`.
  public init(today: CalendarDate, now: TimeOfDay) {
    self.today = today
    self.now = now
    entries = makeEntries()
    rows = makeRows()
  }

  /// What a change did to the views.
  public struct Changes: Equatable, Sendable {
    /// The sidebar's splices.
    public var entries: [KeyedEdit<PlannerSelection>] = []
    /// Entries that stayed but say something else (a count, a name).
    public var changedEntries: Set<PlannerSelection> = []
    /// The main list's splices.
    public var rows: [KeyedEdit<PlannerRowKey>] = []
    /// Rows that stayed but whose task changed.
    public var changedRows: Set<PlannerRowKey> = []
    /// The selected list is gone: the selection moved to Today.
    public var selectionMoved = false

    public var isEmpty: Bool {
      entries.isEmpty && changedEntries.isEmpty && rows.isEmpty && changedRows.isEmpty && !selectionMoved
    }
  }

  // MARK: Reading

  /// The task `id`.
  public func item(_ id: UUID) -> PlannerItem? { tasks[id] }

  /// The list `id`.
  public func list(_ id: UUID) -> PlannerListItem? { lists[id] }

  /// The lists in the sidebar's order.
  public var orderedLists: [PlannerListItem] {
    entries.compactMap { if case .list(let id) = $0.selection { lists[id] } else { nil } }
  }

  /// The account's default list (where Today's and Upcoming's new tasks go).
  public var defaultList: PlannerListItem? {
    lists.values.first(where: \.isDefault) ?? orderedLists.first
  }

  /// The finished tasks of the entry shown (a list's; in Today and Upcoming, those finished that are due there),
  /// subtasks with their parents: what Delete Completed deletes.
  public var completedTasks: [PlannerItem] {
    tasks.values.filter { item in
      guard item.status == .completed, lists[item.listID] != nil else { return false }
      switch selection {
      case .list(let id): return item.listID == id
      case .today: return item.due.map { $0.date <= today } ?? false
      case .upcoming: return item.due.map { $0.date > today } ?? false
      }
    }.sorted { $0.id.uuidString < $1.id.uuidString }
  }

  /// The sidebar's entry for `selection`.
  public func entry(_ selection: PlannerSelection) -> SidebarEntry? {
    entries.first { $0.selection == selection }
  }

  /// A task's subtasks, in order.
  public func subtasks(of id: UUID) -> [PlannerItem] { (children[id] ?? []).compactMap { tasks[$0] } }

  /// A list's tasks (not subtasks), in the list's order.
  public func tasks(of list: UUID) -> [PlannerItem] { (byList[list] ?? []).compactMap { tasks[$0] } }

  /// The members known of a shared list.
  public func members(of list: UUID) -> [PlannerMemberItem]? { members[list] }

  /// Whether the members of `list` should be read (again): they are not known, or a task names someone as its
  /// last changer who is not among them and was not named when they were last read. Someone named then and not a
  /// member (who left since, or a service's invention) is not asked about again at every refresh.
  public func needsMembers(of list: UUID) -> Bool {
    guard let known = members[list] else { return true }
    let unknown = (namedBy[list] ?? []).subtracting(known.lazy.map(\.id))
    return !unknown.isSubset(of: namedWhenRead[list] ?? [])
  }

  /// What the row of task `id` shows (the list's name in Today and Upcoming).
  public func content(_ id: UUID) -> PlannerRowContent? {
    guard let item = tasks[id] else { return nil }
    let listName: String? = if case .list = selection { nil } else { lists[item.listID].map(Self.name) }
    return PlannerRowContent(
      item, children: subtasks(of: id), listName: listName, changeWaiting: waiting.contains(id), today: today,
      now: now, changedBy: changedBy(item))
  }

  /// The name of whoever else changed `item` last, once its list's members are known (a shared list's).
  private func changedBy(_ item: PlannerItem) -> String? {
    guard let who = item.changedBy, let member = members[item.listID]?.first(where: { $0.id == who }),
      !member.isYou
    else { return nil }
    return member.displayName
  }

  /// The heading of a day in Upcoming ("Tomorrow", "Mon 2 Dec").
  public func heading(_ date: CalendarDate) -> String { DueLabel.day(date, today: today) }

  /// The entry `offset` places from the selected one (Alt+Up/Down), nil past either end.
  public func entry(movingBy offset: Int) -> PlannerSelection? {
    guard let index = entries.firstIndex(where: { $0.selection == selection }) else { return entries.first?.selection }
    let target = index + offset
    return entries.indices.contains(target) ? entries[target].selection : nil
  }

  /// The `number`th entry (Ctrl+1…9, from 1), nil when there are fewer.
  public func entry(number: Int) -> PlannerSelection? {
    entries.indices.contains(number - 1) ? entries[number - 1].selection : nil
  }

  // MARK: Changing

  /// Shows the user's `lists` and `tasks`; `waiting` are the tasks with an edit not yet sent. With `preferred`, an
  /// entry among the new ones, that entry is selected (the rows of the one selected before are never made).
  public mutating func show(
    lists newLists: [PlannerListItem], tasks newTasks: [PlannerItem], waiting: Set<UUID>,
    selecting preferred: PlannerSelection? = nil
  ) -> Changes {
    // Built in place, the last of an id kept (through an array of pairs, 10 000 tasks were copied twice).
    var keyed: [UUID: PlannerItem] = [:]
    keyed.reserveCapacity(newTasks.count)
    for task in newTasks { keyed[task.id] = task }
    // The same tasks again (a refresh that brought nothing): the index stands.
    let indexed = keyed == tasks ? index : TaskIndex(keyed: keyed)
    return show(lists: newLists, indexed: indexed, waiting: waiting, selecting: preferred)
  }

  /// `show(lists:tasks:waiting:selecting:)` with the tasks already indexed (off the main thread: `TaskIndex`).
  public mutating func show(
    lists newLists: [PlannerListItem], indexed: TaskIndex, waiting: Set<UUID>,
    selecting preferred: PlannerSelection? = nil
  ) -> Changes {
    let oldTasks = tasks
    let oldChildren = children
    let oldWaiting = self.waiting
    let oldLists = lists
    lists = [:]
    lists.reserveCapacity(newLists.count)
    for list in newLists { lists[list.id] = list }
    index = indexed
    self.waiting = waiting
    members = members.filter { lists[$0.key] != nil }
    if let preferred {
      switch preferred {
      case .list(let id) where lists[id] == nil: break  // not (or no longer) there
      default: selection = preferred
      }
    }
    // The same lists and tasks again (a refresh that brought nothing): no row changed.
    if tasks == oldTasks, lists == oldLists, waiting == oldWaiting { return refresh(changed: { _ in false }) }
    var moved = false
    if case .list(let id) = selection, lists[id] == nil {
      selection = .today
      moved = true
    }
    // A row changed when its task did, its waiting mark did, or one of its subtasks did (or came, or went). Asked
    // only of the rows shown before and after (asking it of all 10 000 tasks was a fifth of a show).
    let (tasks, children) = (indexed.tasks, indexed.children)
    func same(_ id: UUID) -> Bool { oldTasks[id] == tasks[id] && oldWaiting.contains(id) == waiting.contains(id) }
    var changes = refresh { id in
      let subtasks = children[id] ?? []
      return !same(id) || subtasks != oldChildren[id] ?? [] || !subtasks.allSatisfy(same)
    }
    changes.selectionMoved = moved
    return changes
  }

  /// Shows `selection`'s rows; answers the main list's splices.
  public mutating func select(_ new: PlannerSelection) -> [KeyedEdit<PlannerRowKey>] {
    if case .list(let id) = new, lists[id] == nil { return [] }
    selection = new
    let old = rows
    rows = makeRows()
    return KeyedEdit.edits(from: old, to: rows)
  }

  /// The members of a shared list were read: its entry says who shares it.
  public mutating func setMembers(_ known: [PlannerMemberItem], of list: UUID) -> Changes {
    guard lists[list] != nil else { return Changes() }
    members[list] = known
    namedWhenRead[list] = namedBy[list] ?? []
    // Their rows name whoever else changed them last.
    let tasks = tasks
    return refresh { id in tasks[id].map { $0.listID == list && $0.changedBy != nil } ?? false }
  }

  /// A new day or minute (midnight passed, the clock was set): what is today, overdue or upcoming is reckoned again.
  public mutating func setNow(today newToday: CalendarDate, now newNow: TimeOfDay) -> Changes {
    guard newToday != today || newNow != now else { return Changes() }
    let dayChanged = newToday != today
    today = newToday
    now = newNow
    // Every dated row may say something else ("Tomorrow" became "Today", a time passed).
    let tasks = tasks
    return refresh { id in tasks[id].map { $0.due != nil && (dayChanged || $0.due?.time != nil) } ?? false }
  }

  /// Shows or hides finished tasks in a list.
  public mutating func setShowCompleted(_ show: Bool) -> [KeyedEdit<PlannerRowKey>] {
    showCompleted = show
    let old = rows
    rows = makeRows()
    return KeyedEdit.edits(from: old, to: rows)
  }

  /// Shows only the tasks `search` matches (in their title or notes, ignoring case and accents); answers the main
  /// list's splices.
  public mutating func setSearch(_ search: TaskSearch) -> [KeyedEdit<PlannerRowKey>] {
    guard search != self.search else { return [] }
    self.search = search
    let old = rows
    rows = makeRows()
    return KeyedEdit.edits(from: old, to: rows)
  }

  /// Makes the sidebar and the rows again; `changed` says whether the task of a row shown before and after changed.
  private mutating func refresh(changed: (UUID) -> Bool) -> Changes {
    var changes = Changes()
    let oldEntries = entries
    entries = makeEntries()
    changes.entries = KeyedEdit.edits(from: oldEntries.map(\.selection), to: entries.map(\.selection))
    let old = Dictionary(oldEntries.map { ($0.selection, $0) }, uniquingKeysWith: { first, _ in first })
    changes.changedEntries = Set(
      entries.filter { entry in old[entry.selection].map { $0 != entry } ?? false }.map(\.selection))
    let oldRows = rows
    rows = makeRows()
    changes.rows = KeyedEdit.edits(from: oldRows, to: rows)
    let kept = Set(oldRows)
    for row in rows where kept.contains(row) {
      if case .task(let id) = row, changed(id) { changes.changedRows.insert(row) }
    }
    return changes
  }

  // MARK: Making the views

  /// A list's name as shown: the default list keeps the service's "Tasks" in the user's language until renamed.
  public static func name(of list: PlannerListItem) -> String {
    list.isDefault && list.name == "Tasks" ? tr("Tasks") : list.name
  }

  /// A task's place in its list (or among its siblings): open tasks by sort key (those without one after the
  /// others) then creation, then finished ones, the latest first. Made once per task (sorting the tasks themselves
  /// moved whole items and made each id's text at every comparison: most of a start's 2 000 tasks' show).
  private struct ListPlace {
    let id: UUID
    let order: UUID.Order
    let finished: Bool
    let finishedAt: Date
    let sortKey: String
    let createdAt: Date

    init(_ item: PlannerItem) {
      id = item.id
      order = item.id.order
      finished = item.status == .completed
      finishedAt = item.completedAt ?? item.updatedAt
      sortKey = item.sortKey
      createdAt = item.createdAt
    }

    static func precedes(_ a: ListPlace, _ b: ListPlace) -> Bool {
      if a.finished != b.finished { return !a.finished }
      if a.finished {
        return a.finishedAt != b.finishedAt ? a.finishedAt > b.finishedAt : a.order < b.order
      }
      if a.sortKey != b.sortKey { return ManualOrder.precedes(a.sortKey, b.sortKey) }
      return a.createdAt != b.createdAt ? a.createdAt < b.createdAt : a.order < b.order
    }
  }

  private static func inListOrder(_ places: [ListPlace]) -> [UUID] {
    places.sorted(by: ListPlace.precedes).map(\.id)
  }

  /// Today's and Upcoming's order: by day, then time (a day without a time after the timed ones), priority, title.
  private static func inDueOrder(_ items: [PlannerItem]) -> [PlannerItem] {
    struct Place {
      let index: Int
      let date: CalendarDate
      let minute: Int
      let priority: PlannerPriority
      let title: String
      let createdAt: Date
      let order: UUID.Order

      static func precedes(_ a: Place, _ b: Place) -> Bool {
        if a.date != b.date { return a.date < b.date }
        if a.minute != b.minute { return a.minute < b.minute }
        if a.priority != b.priority { return a.priority < b.priority }
        if a.title != b.title { return a.title < b.title }
        return a.createdAt != b.createdAt ? a.createdAt < b.createdAt : a.order < b.order
      }
    }
    return items.indices.map { index in
      let item = items[index]
      return Place(
        index: index, date: item.due!.date, minute: item.due!.time.map { $0.hour * 60 + $0.minute } ?? 24 * 60,
        priority: PlannerPriority(item.priority), title: item.title, createdAt: item.createdAt, order: item.id.order)
    }.sorted(by: Place.precedes).map { items[$0.index] }
  }

  private func isOpen(_ item: PlannerItem) -> Bool { item.status == .needsAction && lists[item.listID] != nil }

  private func dueToday(_ item: PlannerItem) -> Bool {
    guard isOpen(item), let due = item.due else { return false }
    return due.date <= today
  }

  private func dueUpcoming(_ item: PlannerItem) -> Bool {
    guard isOpen(item), let due = item.due else { return false }
    return due.date > today && due.date.dayNumber <= today.dayNumber + 7
  }

  private func makeEntries() -> [SidebarEntry] {
    var todayCount = 0
    var upcomingCount = 0
    for item in tasks.values where item.due != nil && item.status == .needsAction {
      if dueToday(item) { todayCount += 1 } else if dueUpcoming(item) { upcomingCount += 1 }
    }
    var result = [
      SidebarEntry(selection: .today, name: tr("Today"), count: todayCount, owned: false, isDefault: false),
      SidebarEntry(selection: .upcoming, name: tr("Upcoming"), count: upcomingCount, owned: false, isDefault: false),
    ]
    let ordered = lists.values.sorted {
      ($0.isDefault ? 0 : 1, $0.sortKey, $0.name, $0.id.uuidString)
        < ($1.isDefault ? 0 : 1, $1.sortKey, $1.name, $1.id.uuidString)
    }
    for list in ordered {
      result.append(
        SidebarEntry(
          selection: .list(list.id), name: Self.name(of: list), count: openCount[list.id] ?? 0,
          sharing: SidebarEntry.sharing(of: list, members: members[list.id]), owned: list.role == .owner,
          isDefault: list.isDefault))
    }
    return result
  }

  /// Whether the search shows `item` (every task when there is none).
  private func found(_ item: PlannerItem) -> Bool {
    search.isEmpty || search.matches(folded: TaskSearch.fold(item.title + "\n" + item.notes))
  }

  private func makeRows() -> [PlannerRowKey] {
    switch selection {
    case .list(let id):
      let ids = byList[id] ?? []
      let shown = ids.filter { id in
        guard let item = tasks[id] else { return false }
        return (showCompleted || item.status == .needsAction) && found(item)
      }
      return shown.map { .task($0) }
    case .today:
      return Self.inDueOrder(tasks.values.filter { dueToday($0) && found($0) }).map { .task($0.id) }
    case .upcoming:
      var result: [PlannerRowKey] = []
      var day: CalendarDate?
      for item in Self.inDueOrder(tasks.values.filter { dueUpcoming($0) && found($0) }) {
        if item.due!.date != day {
          day = item.due!.date
          result.append(.day(item.due!.date))
        }
        result.append(.task(item.id))
      }
      return result
    }
  }
}

extension PlannerViewState {
  /// Tasks keyed by their ids (the last of an id kept), each list's top-level tasks and each task's subtasks in
  /// order, whom each list's tasks name and each list's open tasks counted: what showing them takes that depends on
  /// the tasks alone. Made anywhere: the window's are made off the main thread (`PlannerShown`'s), where indexing
  /// 10 000 tasks was half of showing them.
  public struct TaskIndex: Sendable {
    let tasks: [UUID: PlannerItem]
    let byList: [UUID: [UUID]]
    let children: [UUID: [UUID]]
    let namedBy: [UUID: Set<UUID>]
    let openCount: [UUID: Int]

    /// `items` indexed, the last of an id kept.
    public init(_ items: [PlannerItem]) {
      var tasks: [UUID: PlannerItem] = [:]
      tasks.reserveCapacity(items.count)
      for task in items { tasks[task.id] = task }
      self.init(keyed: tasks)
    }

    init(keyed tasks: [UUID: PlannerItem]) {
      var byList: [UUID: [ListPlace]] = [:]
      var children: [UUID: [ListPlace]] = [:]
      var namedBy: [UUID: Set<UUID>] = [:]
      var openCount: [UUID: Int] = [:]
      for item in tasks.values {
        if let changedBy = item.changedBy { namedBy[item.listID, default: []].insert(changedBy) }
        // A subtask whose parent is not there shows as a top-level task of its list.
        if let parent = item.parentID, tasks[parent] != nil {
          children[parent, default: []].append(ListPlace(item))
        } else {
          byList[item.listID, default: []].append(ListPlace(item))
          if item.status == .needsAction { openCount[item.listID, default: 0] += 1 }
        }
      }
      self.tasks = tasks
      self.byList = byList.mapValues(PlannerViewState.inListOrder)
      self.children = children.mapValues(PlannerViewState.inListOrder)
      self.namedBy = namedBy
      self.openCount = openCount
    }
  }
}

// TaskListState: the task list without any UI — the tasks, what waits, what changed, what is hidden while its Undo
// shows, the order shown, the filter, the empty state and the highlight — and the edits that turn the rows shown into
// the new ones. Value type; any thread.

import FoundationEssentials

/// How a new filter relates to the one before: a filter model then looks again only at what may have changed.
public enum FilterChange: Sendable, Equatable {
  /// It lets through a subset of what the old one did.
  case moreStrict
  /// It lets through a superset of what the old one did.
  case lessStrict
  /// Neither.
  case different
}

/// Why the list shows no row.
public enum EmptyReason: Sendable, Equatable {
  /// The list has no task.
  case noTasks
  /// The search matches no task.
  case noMatches
  /// Every task is done, and done tasks are hidden.
  case allDone
}

/// The rows of the task list and everything they are made from.
///
/// `keys` are the rows in the order shown (sorted here from cached facts), the filter aside: a view shows those for
/// which `isShown` is true. Every change answers the `ListEdit`s that turn the old `keys` into the new ones with as
/// little as it takes — an unchanged refresh none, a ticked task moving after the open ones one removal and one
/// insertion — so a list view keeps its scroll position, its focus and the widgets of the rows that stayed.
///
/// Rows whose deletion can still be undone are `remove`d (hidden) until `forget` or `restore`. A task just added is
/// highlighted; when the server has it, the highlight follows it by the id the server gave its outbox id (`show`'s
/// `sent`), never by its text.
public struct TaskListState: Sendable {
  /// The rows in the order shown, before the filter; those being deleted aside.
  public private(set) var keys: [RowKey] = []
  /// The row highlighted as just added, if any.
  public private(set) var highlighted: RowKey?
  /// How the rows are sorted.
  public private(set) var sortOrder: TaskSortOrder = .newest
  /// Whether completed tasks are shown (after the open ones).
  public private(set) var showCompleted = true
  /// What the search holds.
  public private(set) var search = TaskSearch("")

  private var tasks: [Int64: TaskItem] = [:]
  /// The ids of `tasks`, ascending: the order rows that sort alike keep. (Kept, not sorted again at every change.)
  private var ids: [Int64] = []
  private var pending: [String: PendingTask] = [:]
  /// The tasks with a change (ticked, edited) waiting in the outbox.
  private var changed: Set<Int64> = []
  private var hidden: Set<RowKey> = []
  /// What each row made so far shows, and its folded text once a search has read it.
  private var contents: [RowKey: RowContent] = [:]
  private var folded: [RowKey: String] = [:]
  /// Each age's caption, formatted once ("2 h ago"): the rows bound while scrolling share a few dozen of them.
  private var captions: [TaskAge: String] = [:]

  /// An empty list.
  public init() {}

  // MARK: Reading

  /// The number of rows, confirmed or waiting, shown or not (those being deleted aside).
  public var count: Int { keys.count }

  /// The server's tasks in the order shown (for the offline copy), those being deleted aside.
  public var confirmedTasks: [TaskItem] {
    keys.compactMap { if case .task(let id) = $0 { tasks[id] } else { nil } }
  }

  /// The completed tasks' rows, in the order shown.
  public var completedKeys: [RowKey] {
    keys.filter { if case .task(let id) = $0 { tasks[id]?.completed == true } else { false } }
  }

  /// The task of a row, if it is the server's.
  public func task(_ key: RowKey) -> TaskItem? {
    if case .task(let id) = key { tasks[id] } else { nil }
  }

  /// The waiting task of a row, if it is one.
  public func pendingTask(_ key: RowKey) -> PendingTask? {
    if case .pending(let id) = key { pending[id] } else { nil }
  }

  /// The text of a row, the server's task's or the waiting one's.
  public func text(_ key: RowKey) -> String? {
    task(key)?.text ?? pendingTask(key)?.text
  }

  /// Why nothing is shown, when the filter lets no row through.
  public var emptyReason: EmptyReason {
    keys.isEmpty ? .noTasks : !search.isEmpty ? .noMatches : .allDone
  }

  // MARK: Contents

  /// Replaces the list: the server's tasks (with the outbox's changes made; `changed` are the ids of those with a
  /// change waiting), the tasks still waiting in the outbox, and `sent`, the server's ids of tasks that left the
  /// outbox since (by outbox id). Rows still being deleted stay hidden while they exist.
  public mutating func show(
    _ items: [TaskItem], waiting: [PendingTask] = [], changed: Set<Int64> = [], sent: [String: Int64] = [:]
  ) -> [ListEdit] {
    // (Filled in a loop: 100 000 tasks through `map` and `uniquingKeysWith` were copied twice more.)
    var newTasks: [Int64: TaskItem] = Dictionary(minimumCapacity: items.count)
    for item in items { newTasks[item.id] = item }
    var newPending: [String: PendingTask] = Dictionary(minimumCapacity: waiting.count)
    for task in waiting { newPending[task.id] = task }
    if case .pending(let id) = highlighted, newPending[id] == nil {
      highlighted = sent[id].flatMap { newTasks[$0] != nil ? .task($0) : nil }
    }
    // Only what is cached can be stale: the rows made so far (and the texts folded for a search), not every task of
    // the list. (The keys are copied: forgetting changes the caches.)
    for key in Array(contents.keys) + Array(folded.keys) {
      switch key {
      case .task(let id): if tasks[id] != newTasks[id] { forgetContent(key) }
      case .pending(let id): if pending[id] != newPending[id] { forgetContent(key) }
      }
    }
    for id in changed.symmetricDifference(self.changed) { forgetContent(.task(id)) }
    self.changed = changed
    tasks = newTasks
    // The server lists its tasks by id: sorted again only if they came otherwise (or twice).
    ids = items.map(\.id)
    if ids.count != newTasks.count || zip(ids, ids.dropFirst()).contains(where: { $0 >= $1 }) {
      ids = newTasks.keys.sorted()
    }
    pending = newPending
    hidden = hidden.filter { key in
      switch key {
      case .task(let id): newTasks[id] != nil
      case .pending(let id): newPending[id] != nil
      }
    }
    return reorder()
  }

  /// Adds a task that waits in the outbox, and highlights it as just added.
  public mutating func append(_ task: PendingTask) -> [ListEdit] {
    pending[task.id] = task
    forgetContent(.pending(task.id))
    highlighted = .pending(task.id)
    return reorder()
  }

  /// Changes one task (`waiting`: the change is not sent yet). Its row moves if its place in the order changed; if
  /// it stays while a filter is in use, it is replaced in place, so that the filter looks at it again.
  public mutating func update(_ task: TaskItem, waiting: Bool = false) -> [ListEdit] {
    let key = RowKey.task(task.id)
    if tasks.updateValue(task, forKey: task.id) == nil { ids.insert(task.id, at: place(of: task.id)) }
    if waiting { changed.insert(task.id) } else { changed.remove(task.id) }
    forgetContent(key)
    let edits = reorder()
    if edits.isEmpty, needsFilter, let index = keys.firstIndex(of: key) {
      return [ListEdit(at: index, remove: 1, insert: [key])]
    }
    return edits
  }

  /// Marks the tasks with a change still waiting in the outbox (the others were sent); answers the rows whose
  /// captions say otherwise now.
  public mutating func markWaiting(_ ids: Set<Int64>) -> Set<RowKey> {
    let moved = ids.symmetricDifference(changed)
    changed = ids
    for id in moved { forgetContent(.task(id)) }
    return Set(moved.map { .task($0) })
  }

  /// Takes rows out of the list (while their Undo shows); `restore` puts them back in their places.
  public mutating func remove(_ removed: [RowKey]) -> [ListEdit] {
    hidden.formUnion(removed)
    return reorder()
  }

  /// Puts rows taken out by `remove` back (Undo, or a deletion that failed).
  public mutating func restore(_ restored: [RowKey]) -> [ListEdit] {
    hidden.subtract(restored)
    return reorder()
  }

  /// Drops a row for good (the server deleted it).
  public mutating func forget(_ key: RowKey) -> [ListEdit] {
    hidden.remove(key)
    switch key {
    case .task(let id):
      if tasks.removeValue(forKey: id) != nil { ids.remove(at: place(of: id)) }
    case .pending(let id): pending[id] = nil
    }
    forgetContent(key)
    if highlighted == key { highlighted = nil }
    return reorder()
  }

  /// Ends the highlight of a task just added; answers the row that had it.
  public mutating func clearHighlight() -> RowKey? {
    defer { highlighted = nil }
    return highlighted
  }

  /// Sorts the rows by `order`.
  public mutating func setSortOrder(_ order: TaskSortOrder) -> [ListEdit] {
    guard order != sortOrder else { return [] }
    sortOrder = order
    return reorder()
  }

  // MARK: What a row shows

  /// What `key`'s row shows at `now`, made once per change of its task (ages are made again after `forgetAges`).
  public mutating func content(_ key: RowKey, now: Date = Date()) -> RowContent? {
    if let content = contents[key] { return content }
    let content: RowContent
    switch key {
    case .task(let id):
      guard let task = tasks[id] else { return nil }
      let waiting = changed.contains(id)
      let caption =
        waiting ? Phrases.changeWaiting : task.dateModified.map { self.caption(TaskAge(since: $0, now: now)) } ?? ""
      content = RowContent(
        text: task.text, completed: task.completed, caption: caption, confirmed: true, changeWaiting: waiting)
    case .pending(let id):
      // Shown at once, confirmed by the server later; it cannot be ticked until then.
      guard let waiting = pending[id] else { return nil }
      let note = waiting.refusal.map { String(template: tr("refused: %@"), $0) } ?? tr("waiting to be sent")
      content = RowContent(text: waiting.text, completed: false, caption: note, confirmed: false)
    }
    contents[key] = content
    return content
  }

  /// Forgets the rows' ages (the clock moved on): the next `content` says them again.
  public mutating func forgetAges() {
    contents = contents.filter { $0.value.caption.isEmpty || !$0.value.confirmed || $0.value.changeWaiting }
  }

  private mutating func caption(_ age: TaskAge) -> String {
    if let caption = captions[age] { return caption }
    let caption = age.caption
    captions[age] = caption
    return caption
  }

  private mutating func forgetContent(_ key: RowKey) {
    contents[key] = nil
    folded[key] = nil
  }

  // MARK: Filter

  /// Whether a filter is needed at all (with none, a view can leave its filter out: no call per row).
  public var needsFilter: Bool { !showCompleted || !search.isEmpty }

  /// Shows or hides completed tasks; answers how the filter changed, or nil if it did not.
  public mutating func setShowCompleted(_ show: Bool) -> FilterChange? {
    guard show != showCompleted else { return nil }
    showCompleted = show
    return show ? .lessStrict : .moreStrict
  }

  /// Searches for `search`; answers how the filter changed, or nil if it did not.
  public mutating func setSearch(_ new: TaskSearch) -> FilterChange? {
    guard new != search else { return nil }
    let old = search
    search = new
    return new.isStricter(than: old) ? .moreStrict : new.isLooser(than: old) ? .lessStrict : .different
  }

  /// Whether `key`'s row passes the filter. It reads only caches (the folded text is made once per text).
  public mutating func isShown(_ key: RowKey) -> Bool {
    if !showCompleted, case .task(let id) = key, tasks[id]?.completed == true { return false }
    guard !search.isEmpty else { return true }
    if let text = folded[key] { return search.matches(folded: text) }
    let text = TaskSearch.fold(self.text(key) ?? "")
    folded[key] = text
    return search.matches(folded: text)
  }

  // MARK: Order

  /// Where `id` is in `ids`, or would be.
  private func place(of id: Int64) -> Int {
    var (low, high) = (0, ids.count)
    while low < high {
      let middle = (low + high) / 2
      if ids[middle] < id { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Sorts the rows; answers the edits from the old order to the new.
  private mutating func reorder() -> [ListEdit] {
    var entries: [TaskListEntry<RowKey>] = []
    entries.reserveCapacity(tasks.count + pending.count)
    let alphabetical = sortOrder == .alphabetical
    for id in ids where hidden.isEmpty || !hidden.contains(.task(id)) {
      guard let task = tasks[id] else { continue }
      // (The text is read only to sort alphabetically.)
      entries.append(
        TaskListEntry(
          key: .task(id), text: alphabetical ? task.text : "", completed: task.completed, date: task.dateModified,
          waiting: false))
    }
    for waiting in pending.values.sorted(by: { $0.createdAt < $1.createdAt })
    where !hidden.contains(.pending(waiting.id)) {
      entries.append(
        TaskListEntry(
          key: .pending(waiting.id), text: waiting.text, completed: false, date: waiting.createdAt, waiting: true))
    }
    let new = sortedForList(entries, by: sortOrder)
    defer { keys = new }
    return Self.edits(from: keys, to: new)
  }

  /// The edits from `old` to `new` with as little as it takes (see `KeyedEdit.edits`).
  public static func edits(from old: [RowKey], to new: [RowKey]) -> [ListEdit] {
    ListEdit.edits(from: old, to: new)
  }
}

// PlannerOutbox+Shown: the lists and tasks as the user left them — the replica's copy with every edit still waiting
// made — so the window shows an edit at once and offline, and a finished repeating task at its next date. Actor
// extension and a pure function.

import FoundationEssentials

/// What the window shows: lists and tasks with the waiting edits made, and the tasks with an edit waiting.
public struct PlannerShown: Equatable, Sendable {
  public var lists: [PlannerListItem]
  public var tasks: [PlannerItem] {
    didSet { indexed = nil }
  }
  /// Tasks with an edit not yet acknowledged (their rows say so).
  public var waiting: Set<UUID>
  /// Edits the service refused, with its reason (they stay, marked).
  public var refused: [String]

  /// `tasks` indexed for the window's `PlannerViewState` when made so (`indexing`: where the shown tasks are made,
  /// off the main thread), until they change (nil then: the state indexes them itself).
  public private(set) var indexed: PlannerViewState.TaskIndex?

  /// `lists` and `tasks` with `edits` made, in order; with `indexing`, the tasks are indexed for the window too.
  public init(
    lists: [PlannerListItem], tasks: [UUID: PlannerItem], edits: [PlannerEdit], refused: [String] = [],
    indexing: Bool = false
  ) {
    var lists = lists
    var tasks = tasks
    var waiting: Set<UUID> = []
    for edit in edits {
      switch edit {
      case .createList(let id, let name):
        if let index = lists.firstIndex(where: { $0.id == id }) {
          lists[index].name = name
        } else {
          lists.append(PlannerListItem(id: id, name: name))
        }
      case .renameList(let id, let name):
        if let index = lists.firstIndex(where: { $0.id == id }) { lists[index].name = name }
      case .deleteList(let id):
        lists.removeAll { $0.id == id }
        tasks = tasks.filter { $0.value.listID != id }
      case .createTask(var item), .changeTask(_, var item):
        // A change is made on the task as shown so far, as the service will make it (PlannerMerge): its own fields,
        // but not over one changed since the copy it was made on (that value stays, and the flush names the edit
        // that lost); a change of a task the service had and that is gone (deleted here or elsewhere) does not bring
        // it back (one made here, whose creation was acknowledged before the feed brought it, shows).
        if case .changeTask(let base, _) = edit {
          if let shown = tasks[item.id] {
            item = PlannerMerge(base: base, mine: item, theirs: shown).merged
          } else if base.version > 0 {
            continue
          }
        }
        if let old = tasks[item.id], old.listID != item.listID {
          // Its subtasks move with it.
          for (id, subtask) in tasks where subtask.parentID == item.id { tasks[id]?.listID = item.listID }
        }
        tasks[item.id] = item
        waiting.insert(item.id)
      case .complete(_, let id, let occurrence, let today):
        guard var item = tasks[id] else { continue }
        item.finish(occurrence: occurrence, today: today)
        tasks[id] = item
        waiting.insert(id)
      case .deleteTask(_, let id):
        tasks[id] = nil
        // Its subtasks go with it.
        tasks = tasks.filter { $0.value.parentID != id }
      }
    }
    self.lists = lists
    self.tasks = Array(tasks.values)
    self.waiting = waiting
    self.refused = refused
    if indexing { indexed = PlannerViewState.TaskIndex(self.tasks) }
  }

  /// The same lists, tasks, waiting marks and refusals (indexed or not).
  public static func == (a: PlannerShown, b: PlannerShown) -> Bool {
    a.lists == b.lists && a.tasks == b.tasks && a.waiting == b.waiting && a.refused == b.refused
  }
}

extension PlannerItem {
  /// Finishes the occurrence due on `occurrence`, as the service will (its `completing`): a repeating task moves to
  /// its next date (counted from that date, or from `today` when it repeats from completion), its reminders at a
  /// time moved by as many days and armed again; the occurrence is counted towards a COUNT unless it was the one
  /// finished last (due on it again after an Undo); past its last one (its UNTIL or its COUNT, or where a reminder
  /// would pass the year 9999), or without a repeat, it is done.
  public mutating func finish(occurrence: CalendarDate, today: CalendarDate, at now: Date = Date()) {
    guard status == .needsAction else { return }
    guard let recurrence, let due else {
      status = .completed
      completedAt = now
      return
    }
    guard due.date == occurrence else { return }  // that occurrence was finished already
    if occurrence != lastOccurrenceDone { occurrencesDone += 1 }
    lastOccurrenceDone = occurrence
    let next = recurrence.rule.occurrence(after: recurrence.from == .due ? occurrence : max(today, occurrence))
    let moved = reminders.map { $0.armed(movedBy: next.map { $0.dayNumber - occurrence.dayNumber } ?? 0) }
    // (As the service: the series also ends where a reminder would move past the last time a task can hold.)
    guard let next, recurrence.rule.count.map({ occurrencesDone < $0 }) ?? true, moved.allSatisfy(\.timesFit) else {
      status = .completed
      completedAt = now
      return
    }
    reminders = moved
    self.due?.date = next
  }
}

extension PlannerOutbox {
  /// `lists` and `tasks` (the replica's) with every waiting edit made; with `indexing`, indexed for the window too
  /// (here, off the main thread).
  public func shown(lists: [PlannerListItem], tasks: [UUID: PlannerItem], indexing: Bool = false) -> PlannerShown {
    PlannerShown(
      lists: lists, tasks: tasks, edits: pending.map(\.edit), refused: pending.compactMap(\.refusal),
      indexing: indexing)
  }
}

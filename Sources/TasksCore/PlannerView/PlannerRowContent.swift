// PlannerRowContent: what a planner row shows — title, due date in words, repeat sign, priority, subtasks done of
// all, the list's name in Today and Upcoming, a change waiting — and what a screen reader hears for it. Value; any
// thread.

import FoundationEssentials

/// A task's priority as the window shows it (RFC 5545's 1–4 high, 5 medium, 6–9 low, 0 none).
public enum PlannerPriority: Int, Sendable, CaseIterable, Comparable {
  case none = 0, high = 1, medium = 5, low = 9

  /// The priority of RFC 5545's number.
  public init(_ number: Int) {
    switch number {
    case 1...4: self = .high
    case 5: self = .medium
    case 6...9: self = .low
    default: self = .none
    }
  }

  /// "High priority", …; empty for none.
  public var label: String {
    switch self {
    case .none: ""
    case .high: tr("High priority")
    case .medium: tr("Medium priority")
    case .low: tr("Low priority")
    }
  }

  /// Which comes first in Today and Upcoming: high, medium, low, then none.
  var rank: Int { self == .none ? 10 : rawValue }

  public static func < (lhs: PlannerPriority, rhs: PlannerPriority) -> Bool { lhs.rank < rhs.rank }
}

/// What one planner row shows, made once per change of its task.
public struct PlannerRowContent: Equatable, Sendable {
  public var title: String
  public var completed: Bool
  /// The due date in words, and whether it is overdue.
  public var due: DueLabel?
  /// The repeat in words (the repeat sign's tooltip); nil when it does not repeat.
  public var repeats: String?
  public var priority: PlannerPriority
  /// Subtasks done, of all; (0, 0) when it has none.
  public var subtasksDone: Int
  public var subtasks: Int
  /// The list's name, in Today and Upcoming.
  public var listName: String?
  /// It has notes.
  public var notes: Bool
  /// A change to it waits in the outbox.
  public var changeWaiting: Bool
  /// Who else changed it last, in a shared list (nil: the user, or not known).
  public var changedBy: String?

  /// The content of `item`, whose subtasks are `children`, on `today` at `now`.
  public init(
    _ item: PlannerItem, children: [PlannerItem], listName: String?, changeWaiting: Bool, today: CalendarDate,
    now: TimeOfDay, changedBy: String? = nil
  ) {
    title = item.title
    completed = item.status == .completed
    due = item.due.map { DueLabel($0, today: today, now: now) }
    if completed { due?.overdue = false }
    repeats = item.recurrence.map { RecurrenceText.describe($0.rule, today: today) }
    priority = PlannerPriority(item.priority)
    subtasks = children.count
    subtasksDone = children.filter { $0.status == .completed }.count
    self.listName = listName
    notes = !item.notes.isEmpty
    self.changeWaiting = changeWaiting
    self.changedBy = changedBy
  }

  /// "1/3": the subtasks done of all, or nil without subtasks.
  public var subtaskCount: String? {
    subtasks == 0 ? nil : String(template: tr("%d/%d"), subtasksDone, subtasks)
  }

  /// What assistive technologies hear: the title, its state, and each fact the row shows, in words.
  public var spokenName: String {
    var parts = [title, completed ? Phrases.done : Phrases.notDone]
    if let due {
      parts.append(Phrases.dueOn.filled(due.text))
      if due.overdue { parts.append(tr("overdue")) }
    }
    if let repeats { parts.append(Phrases.repeatsSpoken.filled(repeats)) }
    if priority != .none { parts.append(priority.label) }
    if subtasks > 0 {
      parts.append(
        String(template: trn("%d of %d subtask done", "%d of %d subtasks done", subtasks), subtasksDone, subtasks))
    }
    if let listName { parts.append(Phrases.inList.filled(listName)) }
    if let changedBy { parts.append(Phrases.changedBySpoken.filled(changedBy)) }
    if changeWaiting { parts.append(Phrases.changeWaiting) }
    return parts.joined(separator: ", ")
  }
}

extension Phrases {
  /// "%@ %@": a day and a time ("Tomorrow 09:00").
  public static let dayAndTime = Template(tr("%@ %@"))
  /// "due %@", as heard.
  public static let dueOn = Template(tr("due %@"))
  /// "repeats %@", as heard.
  public static let repeatsSpoken = Template(tr("repeats %@"))
  /// "in %@": the list's name, as heard.
  public static let inList = Template(tr("in %@"))
  /// "Changed by %@": who else changed a task of a shared list last (a row's caption).
  public static let changedBy = Template(tr("Changed by %@"))
  /// "changed by %@", as heard.
  public static let changedBySpoken = Template(tr("changed by %@"))
  /// "%@ on %@": a repeat on days ("Weekly on Mon, Thu").
  public static let repeatOnDays = Template(tr("%@ on %@"))
  /// "%@ until %@": a repeat with an end.
  public static let repeatUntil = Template(tr("%@ until %@"))
}

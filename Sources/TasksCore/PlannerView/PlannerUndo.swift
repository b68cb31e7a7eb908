// PlannerUndo: what Ctrl+Z and a toast's Undo take back in the planner — a deletion still waiting for its toast to
// go, a completion (a repeating task's move to its next date included), a move to another list or place — without
// any UI. Value type; any thread.

import FoundationEssentials

/// The planner's undo history: deleted tasks stay hidden (not sent) while their deletion can be taken back, and every
/// other undoable edit keeps the tasks as they were and the fields it changed, so that taking it back is an ordinary
/// edit of those fields only (what else changed meanwhile, here or on another device, stays).
public struct PlannerUndo: Sendable {
  /// One undoable step, named by `id` (a toast's Undo takes back its own step, not whatever came last).
  public struct Step: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
      /// Tasks deleted (their subtasks with them), not sent until the deletion is carried out.
      case deletion([PlannerItem])
      /// Tasks changed (ticked, moved, …), as they were before, with the fields the edit changed in each.
      case change(before: [PlannerItem], fields: [UUID: [PlannerItem.Field]])
    }
    public let id: Int
    public let kind: Kind
  }

  /// The most steps kept; older ones can no longer be taken back (a deletion among them is carried out).
  public static let limit = 30

  public private(set) var steps: [Step] = []
  private var lastID = 0

  public init() {}

  /// The tasks hidden because their deletion can still be taken back.
  public var hiddenTasks: Set<UUID> {
    var hidden: Set<UUID> = []
    for step in steps { if case .deletion(let items) = step.kind { hidden.formUnion(items.map(\.id)) } }
    return hidden
  }

  /// Deletes `items` (with `subtasks`, hidden with them): answers the step, and the deletions past the limit that
  /// are now to be carried out.
  public mutating func delete(_ items: [PlannerItem]) -> (step: Step, carryOut: [PlannerEdit]) {
    push(.deletion(items))
  }

  /// Records that `before` (the tasks as they were) were changed by an undoable edit into `after` (as it left them;
  /// a task missing there counts as changed in every field).
  @discardableResult
  public mutating func changed(before: [PlannerItem], after: [PlannerItem]) -> (step: Step, carryOut: [PlannerEdit]) {
    var fields: [UUID: [PlannerItem.Field]] = [:]
    for old in before {
      guard let new = after.first(where: { $0.id == old.id }) else { continue }
      fields[old.id] = PlannerItem.Field.allCases.filter { !new.same($0, as: old) }
    }
    return push(.change(before: before, fields: fields))
  }

  private mutating func push(_ kind: Step.Kind) -> (step: Step, carryOut: [PlannerEdit]) {
    lastID += 1
    let step = Step(id: lastID, kind: kind)
    steps.append(step)
    var carryOut: [PlannerEdit] = []
    while steps.count > Self.limit { carryOut += Self.deletions(of: steps.removeFirst()) }
    return (step, carryOut)
  }

  /// Takes back the last step (Ctrl+Z), or step `id` (a toast's Undo): answers the edits that undo it, made against
  /// the tasks as they are now (`current`); a deleted task just shows again, and a task deleted since is left alone.
  /// Nil when there is no such step.
  public mutating func undo(_ id: Int? = nil, current: (UUID) -> PlannerItem?) -> [PlannerEdit]? {
    guard let index = id.map({ id in steps.lastIndex { $0.id == id } }) ?? steps.indices.last else { return nil }
    let step = steps.remove(at: index)
    switch step.kind {
    case .deletion: return []
    case .change(let before, let fields):
      return before.compactMap { old in
        guard let now = current(old.id) else { return nil }
        let back = Self.restoring(old, over: now, fields: fields[old.id] ?? PlannerItem.Field.allCases)
        return back == now ? nil : .changeTask(base: now, mine: back)
      }
    }
  }

  /// The deletion `id` is to be carried out (its toast went): answers its edits, once.
  public mutating func finish(_ id: Int) -> [PlannerEdit] {
    guard let index = steps.firstIndex(where: { $0.id == id }) else { return [] }
    return Self.deletions(of: steps.remove(at: index))
  }

  /// Carries out every deletion still waiting (quitting, signing out): answers their edits; what can be undone
  /// otherwise stays.
  public mutating func finishAll() -> [PlannerEdit] {
    let deletions = steps.filter { if case .deletion = $0.kind { true } else { false } }
    steps.removeAll { if case .deletion = $0.kind { true } else { false } }
    return deletions.flatMap(Self.deletions(of:))
  }

  /// Forgets everything (signed out: nothing of the account is taken back).
  public mutating func clear() { steps = [] }

  /// `shown` without the hidden tasks (and their subtasks).
  public func hiding(in shown: PlannerShown) -> PlannerShown {
    let hidden = hiddenTasks
    guard !hidden.isEmpty else { return shown }
    var shown = shown
    shown.tasks.removeAll { hidden.contains($0.id) || $0.parentID.map(hidden.contains) == true }
    return shown
  }

  private static func deletions(of step: Step) -> [PlannerEdit] {
    guard case .deletion(let items) = step.kind else { return [] }
    return items.map { .deleteTask(list: $0.listID, id: $0.id) }
  }

  /// `now` with `fields` (by default every field the user sees) put back to `old` (the service's own, its version,
  /// counts and times, stay).
  static func restoring(
    _ old: PlannerItem, over now: PlannerItem, fields: [PlannerItem.Field] = PlannerItem.Field.allCases
  ) -> PlannerItem {
    var back = now
    for field in fields { back.take(field, from: old) }
    return back
  }
}

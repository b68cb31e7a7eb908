// ManualOrder: the order a person gives a list's tasks or a task's subtasks, kept in their sort keys; and which
// keys a move changes. Pure values; any thread.

import FoundationEssentials

/// A manual order kept in sort keys of eight digits, 1 000 apart, so that a move usually changes one task only.
/// Tasks without a key (added by quick entry or another client) come after those with one, oldest first: a move
/// numbers only the tasks up to its new place, and moving a task within the numbered ones changes its key alone.
public enum ManualOrder {
  static let step = 1000
  /// Keys have eight digits: the first number that needs nine.
  static let limit = 100_000_000

  /// The key of a subtask added after `siblings` (in their order).
  public static func keyAfter(_ siblings: [PlannerItem]) -> String {
    key((siblings.compactMap { Int($0.sortKey) }.max() ?? 0) + step)
  }

  /// Whether sort key `a` comes before `b`: keys in text order, an empty key after every other.
  public static func precedes(_ a: String, _ b: String) -> Bool {
    a.isEmpty != b.isEmpty ? b.isEmpty : a < b
  }

  /// `items` in their list's order: tasks before subtasks, each by sort key (those without one last), then
  /// creation.
  public static func sorted(_ items: some Sequence<PlannerItem>) -> [PlannerItem] {
    items.sorted {
      if ($0.parentID == nil) != ($1.parentID == nil) { return $0.parentID == nil }
      if $0.sortKey != $1.sortKey { return precedes($0.sortKey, $1.sortKey) }
      return ($0.createdAt, $0.id.order) < ($1.createdAt, $1.id.order)
    }
  }

  /// The tasks whose key changes when the one at `from` moves to `to` (indices in `siblings`' order), with their
  /// new keys: the moved one alone when its new neighbours are numbered and leave room, else every one up to its
  /// new place (or the last one numbered) numbered again. Those after keep their empty keys and their order.
  public static func move(_ siblings: [PlannerItem], from: Int, to: Int) -> [PlannerItem] {
    guard siblings.indices.contains(from), siblings.indices.contains(to), from != to else { return [] }
    var order = siblings
    let moved = order.remove(at: from)
    order.insert(moved, at: to)
    let lastNumbered = order.lastIndex { !$0.sortKey.isEmpty } ?? 0
    let numbered = order[...max(to, lastNumbered)]
    let others = numbered.indices.filter { $0 != to }.map { Int(order[$0].sortKey) }
    if !others.contains(nil) {
      let before = to > 0 ? Int(order[to - 1].sortKey) ?? 0 : 0
      let after = to < numbered.endIndex - 1 ? Int(order[to + 1].sortKey) ?? 0 : before + 2 * step
      // (Within eight digits: a longer key would sort before shorter ones as text.)
      if after - before >= 2, before + (after - before) / 2 < limit {
        var changed = moved
        changed.sortKey = key(before + (after - before) / 2)
        return [changed]
      }
    }
    return numbered.enumerated().compactMap { index, item in
      let wanted = key((index + 1) * step)
      guard item.sortKey != wanted else { return nil }
      var changed = item
      changed.sortKey = wanted
      return changed
    }
  }

  private static func key(_ number: Int) -> String {
    let digits = String(max(0, number))
    return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
  }
}

extension PlannerViewState {
  /// Alt+Shift+Up/Down (or a drag) on a task of the list shown: the tasks whose keys change when it moves `offset` places
  /// among the list's open tasks, with their new keys; nil when it cannot move (Today or Upcoming, a finished
  /// task, the first or last place).
  public func reordering(_ id: UUID, by offset: Int) -> [PlannerItem]? {
    guard let open = openTasksShown(), let from = open.firstIndex(where: { $0.id == id }),
      open.indices.contains(from + offset)
    else { return nil }
    return ManualOrder.move(open, from: from, to: from + offset)
  }

  /// A task dropped on another's row: how many places it moves to take that row's place (the others make room);
  /// nil when either is not an open task of the list shown.
  public func offset(moving id: UUID, to target: UUID) -> Int? {
    guard let open = openTasksShown(), let from = open.firstIndex(where: { $0.id == id }),
      let to = open.firstIndex(where: { $0.id == target })
    else { return nil }
    return to - from
  }

  /// The open tasks of the list shown, in its order; nil for Today and Upcoming.
  private func openTasksShown() -> [PlannerItem]? {
    guard case .list(let list) = selection else { return nil }
    return tasks(of: list).filter { $0.status != .completed }
  }
}

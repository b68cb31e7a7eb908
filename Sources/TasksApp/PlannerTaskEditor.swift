// PlannerTaskEditor: what the planner page changes in its tasks — a task added by quick entry, ticked or unticked
// (a repeating one moves to its next date, with Undo), moved up or down in its list — each an outbox edit, so it
// works offline and is never lost. Main actor.

import FoundationEssentials
import GtkSupport
import TasksAccount
import TasksCore

/// Records the planner page's edits of its tasks, reading the view's state as it is at each step.
@MainActor
final class PlannerTaskEditor {
  // Borrowed.
  private let planner: PlannerOperations
  private let toasts: ToastShelf
  /// The view's state, nil once the window is gone (an edit held past a quit reads it after its write).
  private let state: () -> PlannerViewState?
  /// The last move, recorded before the next one reads the order (keys pressed faster than an edit records).
  private var lastMove: Task<Void, Never>?

  init(planner: PlannerOperations, toasts: ToastShelf, state: @escaping () -> PlannerViewState?) {
    self.planner = planner
    self.toasts = toasts
    self.state = state
  }

  /// Adds the task quick entry read to `list` (due today when Today is shown), with `notes`; answers whether there
  /// was one.
  func add(_ reading: QuickEntry, to list: PlannerListItem?, notes: String = "") -> Bool {
    guard let state = state(), let list,
      var item = reading.task(list: list.id, shownIn: state.selection, today: state.today)
    else { return false }
    item.notes = notes
    planner.soon { await $0.record(.createTask(item)) }
    return true
  }

  /// Ticks or unticks a task (Ctrl+Z takes it back). A repeating one moves to its next date, in place; its toast's
  /// Undo puts the date back.
  func setDone(_ id: UUID, _ done: Bool) {
    guard let state = state(), let item = state.item(id) else { return }
    if !done {
      var open = item
      open.status = .needsAction
      open.completedAt = nil
      planner.soon { await $0.recordUndoable(.changeTask(base: item, mine: open)) }
      return
    }
    let occurrence = item.due?.date ?? state.today
    planner.soon { [weak self] planner in
      let step = await planner.recordUndoable(
        .complete(list: item.listID, id: id, occurrence: occurrence, today: state.today))
      guard let self, let now = self.state(), let step, let moved = now.item(id), moved.status == .needsAction,
        let next = moved.due
      else { return }
      let toast = Toast.new(
        String(template: tr("“%@” is next due %@"), item.title, DueLabel(next, today: now.today, now: now.now).text),
        button: tr("Undo"))
      toast.onButtonClicked { [unowned self] in self.planner.undo(step) }
      self.toasts.present(toast)
    }
  }

  /// Moves task `id` `offset` places among the open tasks of the list shown, after the moves before it were
  /// recorded; `done` is told whether it could move (not past either end, nor in Today or Upcoming).
  func move(_ id: UUID, by offset: Int, done: @escaping @MainActor (Bool) -> Void) {
    let previous = lastMove
    let state = state
    lastMove = planner.soon { planner in
      await previous?.value
      guard let changes = state()?.reordering(id, by: offset) else { return done(false) }
      for changed in changes {
        guard let base = state()?.item(changed.id) else { continue }
        await planner.record(.changeTask(base: base, mine: changed))
      }
      done(true)
    }
  }
}

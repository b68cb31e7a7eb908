// PlannerRowFactory: the planner list's row widgets, bound to a row's key and filled from the planner's state.
// Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// Makes and binds the `PlannerRow`s of the planner's list view (through `RowBinding`).
@MainActor
final class PlannerRowFactory {
  private var binding: RowBinding<PlannerRowKey, PlannerRow>!
  /// The factory, for the list view.
  var factory: OpaquePointer { binding.factory }
  /// Whether a row is being filled (its check button's "toggled" is then not the user's).
  private var filling = false
  /// What a task's row shows.
  var content: (UUID) -> PlannerRowContent? = { _ in nil }
  /// A day's heading.
  var heading: (CalendarDate) -> String = { $0.description }
  /// The user ticked or unticked a task.
  var onToggled: (UUID, Bool) -> Void = { _, _ in }

  init() {
    binding = RowBinding(
      make: { [unowned self] in self.make() }, key: PlannerRowKey.init(modelString:),
      fill: { [unowned self] row, key in self.fill(row, key) },
      unbound: { row in row.key = nil }, retire: { row in row.retire() })
  }

  /// Draws again the rows of `keys` that are on screen.
  func refill(_ keys: some Sequence<PlannerRowKey>) { binding.refill(keys) }

  /// The key of the row `widget` is in or holds (the focus: a list item or a widget in its row), if any.
  func key(around widget: Widget) -> PlannerRowKey? {
    if let child = widget.firstChild, let row = binding.row(at: child) { return binding.key(of: row) }
    var current: Widget? = widget
    while let candidate = current {
      if let row = binding.row(at: candidate) { return binding.key(of: row) }
      current = candidate.parent
    }
    return nil
  }

  /// Draws again every row on screen (a new day or minute).
  func refillAll() { binding.refillAll() }

  private func make() -> (PlannerRow, Widget) {
    let row = PlannerRow()
    Signal.connect(row.check, "toggled") { [unowned self, unowned row] in
      guard !self.filling, case .task(let id) = row.key else { return }
      self.onToggled(id, row.check.isActive)
    }
    return (row, row.box.asWidget)
  }

  private func fill(_ row: PlannerRow, _ key: PlannerRowKey) {
    filling = true
    defer { filling = false }
    row.key = key
    switch key {
    case .day(let date): row.showHeading(heading(date))
    case .task(let id): if let content = content(id) { row.show(content) }
    }
  }
}

// PlannerRowFactory: the planner list's row widgets, bound to a row's key and filled from the planner's state.
// Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// Makes and binds the `PlannerRow`s of the planner's list view (through `RowBinding`), and keeps their model: a slot
/// per row (`RowSlots`), so that another entry's rows are shown in the row widgets there are.
@MainActor
final class PlannerRowFactory {
  private var binding: RowBinding<PlannerRowKey, PlannerRow>!
  private let slots = RowSlots()
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
    let slots = slots
    binding = RowBinding(
      make: { [unowned self] in self.make() }, key: PlannerRowKey.init(modelString:),
      string: { [unowned slots] in slots.string(of: $0) },
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

  /// The rows' model, for the list view (which takes the reference).
  func model() -> OpaquePointer { slots.noSelection() }

  /// Shows `rows` after `edits` (GTK makes rows for the keys inserted), drawing again the rows of `refill`; rows kept
  /// for another entry (`keep`) take the first of `rows` instead.
  func show(_ rows: [PlannerRowKey], edits: [KeyedEdit<PlannerRowKey>], refill: Set<PlannerRowKey>) {
    guard !kept else { return rows.isEmpty ? () : replaceAll(with: rows) }
    for edit in edits { slots.splice(at: edit.at, remove: edit.remove, insert: edit.insert.map(\.modelString)) }
    binding.refill(refill)
  }

  /// Whether the rows are an entry's shown before, kept (on a page hidden while the default list has a page of its
  /// own) for the next entry's rows.
  private var kept = false

  /// Keeps the rows there are for the next entry with rows.
  func keep() { kept = true }

  /// Shows `keys` instead of the rows shown (another entry's): the row widgets there are show the first of them.
  func replaceAll(with keys: [PlannerRowKey]) {
    kept = false
    slots.replaceAll(keys.map(\.modelString))
    binding.rebindAll()
  }

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

// TaskRowFactory: the list view's row widgets: made, bound to a row's key, filled, unbound and retired as GTK asks.
// Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// Makes and binds the `TaskRow`s of a list view (GTK 4.8 keeps up to 200 around what is on screen) and knows which
/// row shows which key.
@MainActor
final class TaskRowFactory {
  private var binding: RowBinding<RowKey, TaskRow>!
  /// The factory, for the list view.
  var factory: OpaquePointer { binding.factory }
  /// Whether a row is being filled (its check button's "toggled" is then not the user's).
  private var filling = false
  /// What a row shows, and whether it is highlighted as just added.
  var content: (RowKey) -> (RowContent, highlighted: Bool)? = { _ in nil }
  /// The user ticked or unticked a row.
  var onToggled: (RowKey, Bool) -> Void = { _, _ in }
  /// The user clicked a row's delete button.
  var onDeleteClicked: (RowKey) -> Void = { _ in }
  /// The user right-clicked a row, at a point in it.
  var onContextClick: (TaskRow, Double, Double) -> Void = { _, _, _ in }
  /// A row is about to show another key (an edit in it must end).
  var onUnbind: (TaskRow) -> Void = { _ in }

  init() {
    // GTK 4.8 does not recycle row widgets: a jump far down a long list destroys them and sets up new ones.
    binding = RowBinding(
      make: { [unowned self] in self.make() }, key: RowKey.init(modelString:),
      fill: { [unowned self] row, key in self.fill(row, key) },
      unbound: { [unowned self] row in
        self.onUnbind(row)
        row.key = nil
      },
      retire: { row in row.retire() })
  }

  /// The row showing `key`, if one is on screen.
  func row(showing key: RowKey) -> TaskRow? { binding.row(showing: key) }

  /// The row whose widget is `widget` or `widget`'s first child.
  func row(at widget: Widget) -> TaskRow? {
    binding.row(at: widget) ?? widget.firstChild.flatMap { binding.row(at: $0) }
  }

  /// Draws again the rows on screen (`keys`: only those).
  func refill(_ keys: some Sequence<RowKey>) { binding.refill(keys) }

  /// Draws again every row on screen.
  func refillAll() { binding.refillAll() }

  private func make() -> (TaskRow, Widget) {
    let row = TaskRow()
    Signal.connect(row.check, "toggled") { [unowned self, unowned row] in
      guard !self.filling, let key = row.key else { return }
      self.onToggled(key, row.check.isActive)
    }
    Signal.connect(row.delete, "clicked") { [unowned self, unowned row] in
      if let key = row.key { self.onDeleteClicked(key) }
    }
    row.box.onPress(button: 3) { [unowned self, unowned row] x, y in self.onContextClick(row, x, y) }
    return (row, row.box.asWidget)
  }

  private func fill(_ row: TaskRow, _ key: RowKey) {
    filling = true
    defer { filling = false }
    row.key = key
    guard let (content, highlighted) = content(key) else { return }
    row.show(content)
    row.highlight(highlighted)
  }
}

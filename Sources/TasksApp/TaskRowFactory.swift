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
  private var itemFactory: ListItemFactory!
  /// The factory, for the list view.
  var factory: OpaquePointer { itemFactory.factory }
  private var rows: [UnsafeMutableRawPointer: TaskRow] = [:]
  private var boundRows: [RowKey: TaskRow] = [:]
  /// Whether a row is being filled (its check button's "toggled" is then not the user's).
  private var binding = false
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
    itemFactory = ListItemFactory(
      setUp: { [unowned self] in self.setUp($0) }, bind: { [unowned self] in self.bind($0) },
      unbind: { [unowned self] in self.unbind($0) }, tearDown: { [unowned self] in self.tearDown($0) })
  }

  /// The row showing `key`, if one is on screen.
  func row(showing key: RowKey) -> TaskRow? { boundRows[key] }

  /// The row whose widget is `widget` or `widget`'s first child.
  func row(at widget: Widget) -> TaskRow? {
    rows[widget.gpointer] ?? widget.firstChild.flatMap { rows[$0.gpointer] }
  }

  /// Draws again the rows on screen (`keys`: only those).
  func refill(_ keys: some Sequence<RowKey>) {
    for key in keys { if let row = boundRows[key] { fill(row, key) } }
  }

  /// Draws again every row on screen.
  func refillAll() {
    for (key, row) in boundRows { fill(row, key) }
  }

  private func setUp(_ item: ListItem) {
    let row = TaskRow()
    item.child = row.box.asWidget
    rows[row.box.gpointer] = row
    Signal.connect(row.check, "toggled") { [unowned self, unowned row] in
      guard !self.binding, let key = row.key else { return }
      self.onToggled(key, row.check.isActive)
    }
    Signal.connect(row.delete, "clicked") { [unowned self, unowned row] in
      if let key = row.key { self.onDeleteClicked(key) }
    }
    row.box.onPress(button: 3) { [unowned self, unowned row] x, y in self.onContextClick(row, x, y) }
  }

  private func bind(_ item: ListItem) {
    guard let row = item.child.flatMap({ rows[$0.gpointer] }),
      let key = item.item({ RowKey(modelString: StringList.string(of: $0)) }) ?? nil
    else { return }
    row.key = key
    boundRows[key] = row
    fill(row, key)
  }

  private func unbind(_ item: ListItem) {
    guard let row = item.child.flatMap({ rows[$0.gpointer] }), let key = row.key else { return }
    onUnbind(row)
    if boundRows[key] === row { boundRows[key] = nil }
    row.key = nil
  }

  private func tearDown(_ item: ListItem) {
    guard let child = item.child else { return }
    rows.removeValue(forKey: child.gpointer)?.retire()
  }

  private func fill(_ row: TaskRow, _ key: RowKey) {
    binding = true
    defer { binding = false }
    guard let (content, highlighted) = content(key) else { return }
    row.show(content)
    row.highlight(highlighted)
  }
}

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
  let factory: OpaquePointer
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
    factory = gtk_signal_list_item_factory_new()
    Signal.connect(factory, "setup") { [unowned self] item in self.setUp(OpaquePointer(item)) }
    Signal.connect(factory, "bind") { [unowned self] item in self.bind(OpaquePointer(item)) }
    Signal.connect(factory, "unbind") { [unowned self] item in self.unbind(OpaquePointer(item)) }
    // GTK 4.8 does not recycle row widgets: a jump far down a long list destroys them and sets up new ones.
    Signal.connect(factory, "teardown") { [unowned self] item in self.tearDown(OpaquePointer(item)) }
  }

  /// The row showing `key`, if one is on screen.
  func row(showing key: RowKey) -> TaskRow? { boundRows[key] }

  /// The row whose widget is `widget` or `widget`'s first child.
  func row(at widget: UnsafeMutablePointer<GtkWidget>) -> TaskRow? {
    if let row = rows[UnsafeMutableRawPointer(widget)] { return row }
    if let child = gtk_widget_get_first_child(widget) { return rows[UnsafeMutableRawPointer(child)] }
    return nil
  }

  /// Draws again the rows on screen (`keys`: only those).
  func refill(_ keys: some Sequence<RowKey>) {
    for key in keys { if let row = boundRows[key] { fill(row, key) } }
  }

  /// Draws again every row on screen.
  func refillAll() {
    for (key, row) in boundRows { fill(row, key) }
  }

  private func setUp(_ item: OpaquePointer?) {
    guard let item else { return }
    let row = TaskRow()
    gtk_list_item_set_child(item, row.box.widget)
    rows[row.box.gpointer] = row
    Signal.connect(row.check, "toggled") { [unowned self, unowned row] in
      guard !self.binding, let key = row.key else { return }
      self.onToggled(key, row.check.isActive)
    }
    Signal.connect(row.delete, "clicked") { [unowned self, unowned row] in
      if let key = row.key { self.onDeleteClicked(key) }
    }
    let click = gtk_gesture_click_new()!
    gtk_gesture_single_set_button(click, 3)
    Signal.connectClick(click, "pressed") { [unowned self, unowned row] x, y in self.onContextClick(row, x, y) }
    row.box.add(click)
  }

  private func bind(_ item: OpaquePointer?) {
    guard let item, let child = gtk_list_item_get_child(item), let row = rows[UnsafeMutableRawPointer(child)],
      let object = gtk_list_item_get_item(item),
      let key = RowKey(modelString: String(cString: gtk_string_object_get_string(OpaquePointer(object))))
    else { return }
    row.key = key
    boundRows[key] = row
    fill(row, key)
  }

  private func unbind(_ item: OpaquePointer?) {
    guard let item, let child = gtk_list_item_get_child(item), let row = rows[UnsafeMutableRawPointer(child)],
      let key = row.key
    else { return }
    onUnbind(row)
    if boundRows[key] === row { boundRows[key] = nil }
    row.key = nil
  }

  private func tearDown(_ item: OpaquePointer?) {
    guard let item, let child = gtk_list_item_get_child(item) else { return }
    rows.removeValue(forKey: UnsafeMutableRawPointer(child))?.retire()
  }

  private func fill(_ row: TaskRow, _ key: RowKey) {
    binding = true
    defer { binding = false }
    guard let (content, highlighted) = content(key) else { return }
    row.show(content)
    row.highlight(highlighted)
  }
}

// RowBinding: the bookkeeping of a list view's row widgets — made, bound to a key, unbound and retired as GTK asks,
// and which row shows which key — shared by the task list's and the planner's factories. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport

/// One object per row widget (`Row`), made by `make`, found by its widget, and bound to the key (`Key`) read from
/// the model's string. GTK 4.8 keeps up to 200 rows around what is on screen and does not recycle them after a jump.
@MainActor
final class RowBinding<Key: Hashable, Row: AnyObject> {
  private var itemFactory: ListItemFactory!
  /// The factory, for the list view.
  var factory: OpaquePointer { itemFactory.factory }
  private var rows: [UnsafeMutableRawPointer: Row] = [:]
  private var boundRows: [Key: Row] = [:]
  private var keys: [ObjectIdentifier: Key] = [:]
  /// The list item each bound row is in (`rebindAll` reads their items again).
  private var items: [ObjectIdentifier: (row: Row, item: ListItem)] = [:]

  /// `make` answers a new row and its widget; `key` reads a model string (`string` reads an item's: a
  /// `GtkStringObject`'s by default); `fill` shows a key in a row; `unbound` runs before a row shows another key;
  /// `retire` before a row is dropped.
  init(
    make: @escaping @MainActor () -> (Row, Widget), key: @escaping @MainActor (String) -> Key?,
    string: @escaping @MainActor (UnsafeMutableRawPointer) -> String? = { StringList.string(of: $0) },
    fill: @escaping @MainActor (Row, Key) -> Void, unbound: @escaping @MainActor (Row) -> Void = { _ in },
    retire: @escaping @MainActor (Row) -> Void = { _ in }
  ) {
    self.fill = fill
    self.unbound = unbound
    self.readKey = { item in item.item { string($0).flatMap(key) } ?? nil }
    itemFactory = ListItemFactory(
      setUp: { [unowned self] item in
        let (row, widget) = make()
        item.child = widget
        self.rows[widget.gpointer] = row
      },
      bind: { [unowned self] item in
        guard let row = item.child.flatMap({ self.rows[$0.gpointer] }), let key = self.readKey(item) else { return }
        self.keys[ObjectIdentifier(row)] = key
        self.items[ObjectIdentifier(row)] = (row, item)
        self.boundRows[key] = row
        fill(row, key)
      },
      unbind: { [unowned self] item in
        guard let row = item.child.flatMap({ self.rows[$0.gpointer] }),
          let key = self.keys.removeValue(forKey: ObjectIdentifier(row))
        else { return }
        self.items[ObjectIdentifier(row)] = nil
        unbound(row)
        if self.boundRows[key] === row { self.boundRows[key] = nil }
      },
      tearDown: { [unowned self] item in
        guard let child = item.child, let row = self.rows.removeValue(forKey: child.gpointer) else { return }
        retire(row)
      })
  }

  private let fill: @MainActor (Row, Key) -> Void
  private let unbound: @MainActor (Row) -> Void
  private let readKey: @MainActor (ListItem) -> Key?

  /// The row showing `key`, if one is on screen.
  func row(showing key: Key) -> Row? { boundRows[key] }

  /// The position in the model of the item a row shows, if it is bound.
  func position(of row: Row) -> Int? { items[ObjectIdentifier(row)]?.item.position }

  /// The rows bound to an item.
  var bound: some Collection<Row> { items.values.lazy.map(\.row) }

  /// The key a row shows, if it is bound.
  func key(of row: Row) -> Key? { keys[ObjectIdentifier(row)] }

  /// The row whose widget is `widget`.
  func row(at widget: Widget) -> Row? { rows[widget.gpointer] }

  /// Draws again the rows of `keys` that are on screen.
  func refill(_ keys: some Sequence<Key>) {
    for key in keys { if let row = boundRows[key] { fill(row, key) } }
  }

  /// Draws again every row on screen.
  func refillAll() {
    for (key, row) in boundRows { fill(row, key) }
  }

  /// Binds every row again to its item's key now (the model gave its items other keys without telling the list
  /// view: `RowSlots.replaceAll`); a row whose key is the same is drawn again as it is.
  func rebindAll() {
    for (id, bound) in items {
      guard let key = readKey(bound.item) else { continue }
      if let old = keys[id], old != key {
        unbound(bound.row)
        if boundRows[old] === bound.row { boundRows[old] = nil }
      }
      keys[id] = key
      boundRows[key] = bound.row
      fill(bound.row, key)
    }
  }
}

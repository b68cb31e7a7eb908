// TaskListModel: the list view's model chain: the row keys in a GtkStringList, under a GtkFilterListModel that is
// given its filter only while one is needed, under a GtkNoSelection. A long first fill gives GTK only the rows a
// window can show, and the rest once it is drawn. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// The rows as GTK sees them: only their keys, in the order shown, edited with as little as it takes
/// (`TaskListState`'s edits), and filtered by a Swift closure while a filter is needed.
@MainActor
final class TaskListModel {
  private let keys = StringList()
  private let filtered: FilterListModel
  private var filter: CustomFilter?
  /// The tail of a long first fill, not yet given to GTK (which makes a row widget for each of up to 200 rows in
  /// the model, whatever the window shows): it follows once the window is drawn, or before anything reads or edits
  /// the rows.
  private var held: [String] = []
  /// The model a list view shows (the view takes a reference of its own).
  let selection: OpaquePointer

  init() {
    filtered = FilterListModel(keys)
    selection = filtered.noSelection()
  }

  isolated deinit { g_object_unref(selection.gpointer) }

  /// The filter asks `isShown` about each row while it is in use.
  func setFilter(_ isShown: @escaping @MainActor (RowKey) -> Bool) {
    filter = CustomFilter { item in
      guard let key = RowKey(modelString: StringList.string(of: item)) else { return true }
      return isShown(key)
    }
  }

  /// Runs `handler` after every change of the rows shown.
  func onChange(_ handler: @escaping @MainActor () -> Void) {
    Signal.connectItemsChanged(filtered.model) { _, _, _ in handler() }
  }

  /// Makes the edits to the keys. Into an empty list, only the first `fill` rows go at once (the rows a window
  /// shows) and the rest once the main loop is idle (the window drawn).
  func apply(_ edits: [ListEdit], fill: Int? = nil) {
    release()
    if let fill, keys.count == 0, edits.count == 1, let edit = edits.first, edit.at == 0, edit.insert.count > fill {
      let strings = edit.insert.map(\.modelString)
      keys.splice(at: 0, remove: 0, insert: Array(strings[..<fill]))
      held = Array(strings[fill...])
      Idle.run { [weak self] in self?.release() }
      return
    }
    for edit in edits { keys.splice(at: edit.at, remove: edit.remove, insert: edit.insert.map(\.modelString)) }
  }

  /// Gives GTK the rows held back.
  private func release() {
    guard !held.isEmpty else { return }
    let tail = held
    held = []
    keys.splice(at: keys.count, remove: 0, insert: tail)
  }

  /// Tells the filter what changed (`needed`: whether any filter is needed now; with none, the filter leaves the
  /// chain and costs no call per row). Long lists (`count`) are filtered a slice at a time, so typing in the search
  /// stays smooth.
  func filterChanged(_ change: FilterChange, needed: Bool, count: Int) {
    release()
    filtered.isIncremental = count > 5000
    guard let filter else { return }
    if needed && filtered.filter != nil {
      let gtkChange =
        switch change {
        case .moreStrict: GTK_FILTER_CHANGE_MORE_STRICT
        case .lessStrict: GTK_FILTER_CHANGE_LESS_STRICT
        case .different: GTK_FILTER_CHANGE_DIFFERENT
        }
      filter.changed(gtkChange)
    } else if needed {
      filtered.filter = filter
    } else if filtered.filter != nil {
      filtered.filter = nil
    }
  }

  /// How many rows are shown (those held back included).
  var shownCount: Int { filtered.count + held.count }

  /// The row at `position` of what is shown.
  func key(at position: Int) -> RowKey? {
    release()
    return filtered.item(at: position) { RowKey(modelString: StringList.string(of: $0)) } ?? nil
  }

  /// Where `key` is among the rows shown (`all`: every row in order, for when no filter is in use).
  func position(of key: RowKey, in all: [RowKey]) -> Int? {
    release()
    if filtered.filter == nil { return all.firstIndex(of: key) }
    return (0..<shownCount).first { self.key(at: $0) == key }
  }
}

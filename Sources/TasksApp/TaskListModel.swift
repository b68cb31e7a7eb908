// TaskListModel: the list view's model chain: the row keys in a GtkStringList, under a GtkFilterListModel that is
// given its filter only while one is needed, under a GtkNoSelection. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// The rows as GTK sees them: only their keys, in the order shown, edited with as little as it takes
/// (`TaskListState`'s edits), and filtered by a Swift closure while a filter is needed.
@MainActor
final class TaskListModel {
  private let keys: OpaquePointer
  private let filtered: OpaquePointer
  private var filter: CustomFilter?
  private var filterInUse = false
  /// The model a list view shows.
  let selection: OpaquePointer

  init() {
    keys = gtk_string_list_new(nil)
    g_object_ref(keys.gpointer)  // the filter model takes a reference of its own
    filtered = gtk_filter_list_model_new(OpaquePointer(keys.gpointer), nil)
    g_object_ref(filtered.gpointer)  // and the selection model of the filter model
    selection = gtk_no_selection_new(OpaquePointer(filtered.gpointer))
  }

  /// The filter asks `isShown` about each row while it is in use.
  func setFilter(_ isShown: @escaping @MainActor (RowKey) -> Bool) {
    filter = CustomFilter { item in
      guard let key = RowKey(modelString: String(cString: gtk_string_object_get_string(OpaquePointer(item))))
      else { return true }
      return isShown(key)
    }
  }

  /// Runs `handler` after every change of the rows shown.
  func onChange(_ handler: @escaping @MainActor () -> Void) {
    Signal.connectItemsChanged(filtered) { _, _, _ in handler() }
  }

  /// Makes the edits to the keys.
  func apply(_ edits: [ListEdit]) {
    for edit in edits {
      withCStringArray(edit.insert.map(\.modelString)) { array in
        gtk_string_list_splice(keys, UInt32(edit.at), UInt32(edit.remove), array)
      }
    }
  }

  /// Tells the filter what changed (`needed`: whether any filter is needed now; with none, the filter leaves the
  /// chain and costs no call per row). Long lists (`count`) are filtered a slice at a time, so typing in the search
  /// stays smooth.
  func filterChanged(_ change: FilterChange, needed: Bool, count: Int) {
    gtk_filter_list_model_set_incremental(filtered, count > 5000 ? 1 : 0)
    guard let filter else { return }
    if needed && filterInUse {
      let gtkChange =
        switch change {
        case .moreStrict: GTK_FILTER_CHANGE_MORE_STRICT
        case .lessStrict: GTK_FILTER_CHANGE_LESS_STRICT
        case .different: GTK_FILTER_CHANGE_DIFFERENT
        }
      filter.changed(gtkChange)
    } else if needed {
      gtk_filter_list_model_set_filter(filtered, filter.filter)
      filterInUse = true
    } else if filterInUse {
      gtk_filter_list_model_set_filter(filtered, nil)
      filterInUse = false
    }
  }

  /// How many rows are shown.
  var shownCount: Int { Int(g_list_model_get_n_items(OpaquePointer(filtered.gpointer))) }

  /// The row at `position` of what is shown.
  func key(at position: Int) -> RowKey? {
    guard position >= 0, let object = g_list_model_get_item(OpaquePointer(filtered.gpointer), UInt32(position))
    else { return nil }
    defer { g_object_unref(object) }
    return RowKey(modelString: String(cString: gtk_string_object_get_string(OpaquePointer(object))))
  }

  /// Where `key` is among the rows shown (`all`: every row in order, for when no filter is in use).
  func position(of key: RowKey, in all: [RowKey]) -> Int? {
    if !filterInUse { return all.firstIndex(of: key) }
    return (0..<shownCount).first { self.key(at: $0) == key }
  }
}

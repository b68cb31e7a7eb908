// Models: the list models the app builds (a GtkStringList under a GtkFilterListModel), owned by Swift objects.
// Main actor.

import CGtk

/// A `GtkStringList` the object owns: the strings a list view's rows stand for.
@MainActor
public final class StringList {
  /// The model, for the model above it.
  public let model: OpaquePointer

  public init() { model = gtk_string_list_new(nil) }

  /// Replaces `remove` strings at `at` with `insert`, announcing one change.
  public func splice(at: Int, remove: Int, insert: [String]) {
    withCStringArray(insert) { gtk_string_list_splice(model, UInt32(at), UInt32(remove), $0) }
  }

  /// How many strings it holds.
  public var count: Int { Int(g_list_model_get_n_items(model)) }

  /// A `GtkNoSelection` over this model, for a list view (which takes the reference returned).
  public func noSelection() -> OpaquePointer {
    g_object_ref(model.gpointer)
    return gtk_no_selection_new(model)
  }

  /// The string of an item of this model (or of a model above it): a `GtkStringObject`.
  public static func string(of item: UnsafeMutableRawPointer) -> String {
    String(cString: gtk_string_object_get_string(OpaquePointer(item)))
  }

  isolated deinit { g_object_unref(model.gpointer) }
}

/// A `GtkFilterListModel` the object owns, over a model it keeps alive, filtered by a `CustomFilter` or not at all.
@MainActor
public final class FilterListModel {
  /// The model, for the model or view above it.
  public let model: OpaquePointer
  private let below: AnyObject

  /// Filters `strings` (unfiltered until `filter` is set).
  public init(_ strings: StringList) {
    below = strings
    g_object_ref(strings.model.gpointer)  // the filter model takes the reference it is given
    model = gtk_filter_list_model_new(strings.model, nil)
  }

  /// The filter in use; nil lets every item through without a call per item.
  public var filter: CustomFilter? {
    didSet { gtk_filter_list_model_set_filter(model, filter?.filter) }
  }

  /// Whether the filter runs a slice at a time in idle time (for long lists) rather than at once.
  public var isIncremental: Bool {
    get { gtk_filter_list_model_get_incremental(model) != 0 }
    set { gtk_filter_list_model_set_incremental(model, newValue.gboolean) }
  }

  /// How many items pass.
  public var count: Int { Int(g_list_model_get_n_items(model)) }

  /// What `read` makes of the item at `position`, if there is one.
  public func item<Value>(at position: Int, _ read: (UnsafeMutableRawPointer) -> Value) -> Value? {
    guard position >= 0, let object = g_list_model_get_item(model, UInt32(position)) else { return nil }
    defer { g_object_unref(object) }
    return read(object)
  }

  /// A `GtkNoSelection` over this model, for a list view (which takes the reference returned).
  public func noSelection() -> OpaquePointer {
    g_object_ref(model.gpointer)
    return gtk_no_selection_new(model)
  }

  isolated deinit {
    _ = below
    g_object_unref(model.gpointer)
  }
}

/// A `GtkListItem` as a factory's signals hand it over: the row widget it holds and the model item it shows.
public struct ListItem {
  private let item: OpaquePointer
  public init(_ item: OpaquePointer) { self.item = item }

  /// The row widget.
  @MainActor
  public var child: Widget? {
    get { gtk_list_item_get_child(item).map(Widget.init) }
    nonmutating set { gtk_list_item_set_child(item, newValue?.widget) }
  }

  /// The position of the item shown in the model.
  @MainActor
  public var position: Int { Int(gtk_list_item_get_position(item)) }

  /// The model item shown, if any, as what `read` makes of it.
  @MainActor
  public func item<Value>(_ read: (UnsafeMutableRawPointer) -> Value) -> Value? {
    gtk_list_item_get_item(item).map { read(UnsafeMutableRawPointer($0)) }
  }
}

/// A `GtkSignalListItemFactory` the object owns, whose four signals run Swift closures with the list item.
@MainActor
public final class ListItemFactory {
  /// The factory, for a list view.
  public let factory: OpaquePointer

  /// A factory that calls `setUp` for each new row widget, `bind` and `unbind` as a row starts and stops showing an
  /// item, and `tearDown` before a row widget is dropped.
  public init(
    setUp: @escaping @MainActor (ListItem) -> Void, bind: @escaping @MainActor (ListItem) -> Void,
    unbind: @escaping @MainActor (ListItem) -> Void, tearDown: @escaping @MainActor (ListItem) -> Void
  ) {
    factory = gtk_signal_list_item_factory_new()
    for (name, handler) in [("setup", setUp), ("bind", bind), ("unbind", unbind), ("teardown", tearDown)] {
      Signal.connect(factory, name) { item in if let item { handler(ListItem(OpaquePointer(item))) } }
    }
  }

  isolated deinit { g_object_unref(factory.gpointer) }
}

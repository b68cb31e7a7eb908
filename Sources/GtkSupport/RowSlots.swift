// RowSlots: a list model whose items are plain objects standing for rows, each naming its row with a string that
// can change in place. Main actor.

import CGtk
import GLibSupport

/// A list model of plain GObjects, each with a string (a row's key) kept here. `splice` makes new objects, as a
/// `GtkStringList` would, so that a list view's rows follow their items through an edit (the focus stays on its
/// task). `replaceAll` keeps the objects there are and only gives them other strings: the list view sees just the
/// change in count, and keeps its row widgets for the caller to bind again. GTK 4.8 otherwise destroys every row of
/// the items removed and makes new ones for the items added, telling the accessibility bus of each: switching a
/// planner of 10 000 tasks to another list spent three quarters of its time there (perf).
///
/// A long insertion at the end puts a screenful of items in the model at once and the rest when the main loop is
/// idle (after the frame that shows the first): GTK 4.8's list view keeps a row widget for each of up to 200 items
/// from its first (`GTK_LIST_VIEW_MAX_LIST_ITEMS`), however few its height shows, and a first start showing 12 rows
/// of a list of 500 made, bound and laid out 205 before its first frame (36 ms of the main thread to make them, more
/// to lay them out; the planner's factory makes them stand-ins, built as they come on screen).
/// Whatever changes or reads the model's positions first puts the waiting items in (`splice`, `replaceAll`, `flush`).
@MainActor
public final class RowSlots {
  /// The model (a `GListStore`), for the model above it.
  public let model: OpaquePointer
  private var objects: [UnsafeMutableRawPointer] = []
  private var strings: [UnsafeMutableRawPointer: String] = [:]
  /// The strings of the items still to come, after those in the model.
  private var waiting: [String] = []

  /// How many items a long insertion puts in the model at once: more than a screen of the list shows (its owner
  /// knows the window's height; 50 without one).
  public var screenful: @MainActor () -> Int = { 50 }

  public init() { model = b2c_object_store_new() }

  /// Replaces `remove` items at `at` with new items for `insert`, announcing one change; a long insertion at the end
  /// leaves its items past the first `screenful()` for the idle main loop.
  public func splice(at: Int, remove: Int, insert: [String]) {
    flush()
    let first = screenful()
    if remove == 0, at == objects.count, at + insert.count > first, insert.count > 1 {
      let now = max(0, first - at)
      waiting = Array(insert[now...])
      if now > 0 { place(at: at, remove: 0, insert: Array(insert[..<now])) }
      Idle.run { [weak self] in self?.flush() }
      return
    }
    place(at: at, remove: remove, insert: insert)
  }

  /// Puts every waiting item in the model now (the idle main loop does when nothing did before).
  public func flush() {
    guard !waiting.isEmpty else { return }
    let rest = waiting
    waiting = []
    place(at: objects.count, remove: 0, insert: rest)
  }

  private func place(at: Int, remove: Int, insert: [String]) {
    var made: [gpointer?] = []
    made.reserveCapacity(insert.count)
    for string in insert {
      let object = b2c_plain_object_new()
      strings[object] = string
      made.append(object)
    }
    for object in objects[at..<(at + remove)] { strings[object] = nil }
    objects.replaceSubrange(at..<(at + remove), with: made.map { $0! })
    made.withUnsafeMutableBufferPointer { buffer in
      g_list_store_splice(model, UInt32(at), UInt32(remove), buffer.baseAddress, UInt32(buffer.count))
    }
    for object in made { g_object_unref(object) }  // the store holds them
  }

  /// Makes the items say `all`: the items there are keep their objects and take the first strings (the list view
  /// is not told: bind its rows again), and items are added or removed at the end.
  public func replaceAll(_ all: [String]) {
    flush()
    let kept = min(objects.count, all.count)
    for index in 0..<kept { strings[objects[index]] = all[index] }
    if all.count > kept {
      splice(at: kept, remove: 0, insert: Array(all[kept...]))
    } else if objects.count > kept {
      splice(at: kept, remove: objects.count - kept, insert: [])
    }
  }

  /// The string of an item of this model, nil for an item no longer in it.
  public func string(of item: UnsafeMutableRawPointer) -> String? { strings[item] }

  /// A `GtkNoSelection` over this model, for a list view (which takes the reference returned).
  public func noSelection() -> OpaquePointer {
    g_object_ref(model.gpointer)
    return gtk_no_selection_new(model)
  }

  isolated deinit { g_object_unref(model.gpointer) }
}

// LateNames: the accessible names of list rows, set once a fast-moving list stops. Main actor.

import CGtk
import GtkSupport

/// When a row's accessible names are set. Each name set is a message on the accessibility bus once a screen reader
/// (or anything reading the bus) has looked at the list: a dragged scroll bar binds every row anew at every frame,
/// and naming them each time was a third of each frame (Tests/Benchmarks/RESULTS.md, the task list's lever 6). So a
/// row bound again within `settle` of its last bind is named once it has stayed put that long, or the moment it
/// takes the keyboard focus (a screen reader reads the focused row at once).
@MainActor
final class RowNaming {
  /// A row bound again within this many µs of its last bind is named once it has stayed put this long.
  static let settle: gint64 = 150_000
  /// When the row was last bound (GLib's monotonic clock, µs; 0: never).
  private var boundAt: gint64 = 0
  /// Whether the names wait for the row to stay put (it is in `LateNames`).
  private var waits = false
  private var retired = false
  /// The list item whose focus is watched.
  private var watchedItem: Widget?
  /// Sets the row's names.
  private let name: @MainActor () -> Void

  init(_ name: @escaping @MainActor () -> Void) { self.name = name }

  /// The row was bound to what it shows now, in `listItem`: names it now, or once it stays put. `needed`: whether
  /// its names differ from what they were last set for (false: nothing to wait for).
  func bound(in listItem: Widget?, needed: Bool = true) {
    let now = g_get_monotonic_time()
    let rebound = boundAt != 0 && now - boundAt < Self.settle
    boundAt = now
    watchFocus(listItem)
    if !rebound || listItem?.hasFocus == true {
      waits = false
      name()
    } else if !waits && needed {
      waits = true
      LateNames.add(self)
    }
  }

  /// A row whose names wait gets them the moment it takes the keyboard focus (Page Down pressed twice quickly binds
  /// rows again and then focuses one).
  private func watchFocus(_ listItem: Widget?) {
    guard let listItem, listItem.widget != watchedItem?.widget else { return }
    watchedItem = listItem
    listItem.onFocus(entering: true) { [weak self] in
      guard let self, self.waits, !self.retired else { return }
      self.waits = false
      self.name()
    }
  }

  /// The list item is gone: its widgets are no longer to be touched.
  func retire() { retired = true }

  /// Names the row if it has not been bound again for `settle` (or is done waiting): then it leaves `LateNames`.
  fileprivate func nameIfSettled() -> Bool {
    if retired || !waits { return true }
    guard g_get_monotonic_time() - boundAt >= Self.settle else { return false }
    waits = false
    name()
    return true
  }
}

/// The rows whose accessible names wait for the list to stop moving; checked every `settle`, until none waits.
@MainActor
private enum LateNames {
  private static var rows: [RowNaming] = []
  private static var checking = false

  static func add(_ row: RowNaming) {
    rows.append(row)
    guard !checking else { return }
    checking = true
    Task { @MainActor in
      while !rows.isEmpty {
        try? await Task.sleep(for: .milliseconds(150))
        rows.removeAll { $0.nameIfSettled() }
      }
      checking = false
    }
  }
}

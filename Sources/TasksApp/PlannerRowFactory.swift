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
  /// Whether a task can be dragged to another place (only in a list, among its open tasks).
  var canMove: (UUID) -> Bool = { _ in false }
  /// A task was dropped on another's row (answers whether it moves there).
  var onDropped: (_ task: UUID, _ onto: UUID) -> Bool = { _, _ in false }
  /// A right click on a task's row, at a point of it.
  var onContextClick: (UUID, PlannerRow, Double, Double) -> Void = { _, _, _, _ in }

  init() {
    let slots = slots
    binding = RowBinding(
      make: { [unowned self] in self.make() }, key: PlannerRowKey.init(modelString:),
      string: { [unowned slots] in slots.string(of: $0) },
      fill: { [unowned self] row, key in self.fill(row, key) },
      unbound: { row in row.key = nil }, retire: { row in row.retire() })
    slots.screenful = { [unowned self] in self.rowsOnScreen() }
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

  /// Keeps the keyboard focus on the row of `key` (answered at `position`) after the rows changed: when the list's
  /// next layout took it out (its row was moved: GTK makes a new row), the new row gets it, scrolled into view.
  /// Focus the user moved elsewhere meanwhile is left alone.
  private func keepFocus(on key: PlannerRowKey, tries: Int = 5, position: @escaping (PlannerRowKey) -> Int?) {
    guard let listView else { return }
    Idle.run {
      self.slots.flush()  // its position may be among the rows still to come
      let focus = listView.focusInWindow
      if let focus, focus.isMapped, !listView.contains(focus) || self.key(around: focus) == key { return }
      guard let index = position(key) else { return }
      _ = gtk_widget_activate_action_variant(
        listView.widget, "list.scroll-to-item", g_variant_new_uint32(UInt32(index)))
      if let item = self.binding.row(showing: key)?.box.parent, item.isMapped { _ = item.grabFocus() }
      if tries > 0 { self.keepFocus(on: key, tries: tries - 1, position: position) }
    }
  }

  /// How many rows a screen of the list can show, and a few more: its window's height (the tallest monitor's while
  /// maximised) over the shortest row, a title alone; 50 outside a window. A list's rows past them are put in the
  /// model when the main loop is idle (`RowSlots`), as stand-ins.
  private func rowsOnScreen() -> Int {
    guard let height = listView?.asWidget.windowHeight, height > 0 else { return 50 }
    return height / Self.shortestRow + 4
  }

  /// The height of a row showing a title alone, in pixels (less than GTK's, with its margins, is made).
  static let shortestRow = 32

  /// Puts the rows still to come in the list view's model now (before a position in it is used).
  func flush() { slots.flush() }

  // MARK: Stand-ins

  /// The window's frame clock and the handler of its layout, while the list view is realized.
  private var frames: (clock: OpaquePointer, handler: UInt)?

  /// Whether the row may stay a stand-in: while it is laid out off screen (GTK 4.8 unmaps those), or, made anew
  /// (not laid out yet), while the list shows its top (nothing scrolled) and the row is below what the window can
  /// show. GTK 4.8 makes rows for the 200 items from the top of a list; those below the window are built when they
  /// come on screen (`buildShown`).
  private func mayStandIn(_ row: PlannerRow) -> Bool {
    guard let item = row.box.parent, let listView else { return false }
    if gtk_widget_get_height(item.widget) > 0 { return !item.isMapped }
    guard let vertical = gtk_scrollable_get_vadjustment(OpaquePointer(listView.widget)),
      gtk_adjustment_get_value(vertical) <= 0, let position = binding.position(of: row)
    else { return false }
    return position >= rowsOnScreen()
  }

  /// Builds the stand-ins that are on screen. Runs in each frame's layout, after the window's: GTK 4.8's list view
  /// maps the rows it lays out on screen (and unmaps the rest), so a stand-in scrolled, jumped or resized into view
  /// is built before the frame is drawn (GDK lays out again when a layout asks for one).
  private func buildShown() {
    for row in binding.bound where row.isStandIn {
      // Laid out (a row GTK has just made is mapped before its first layout) and on screen.
      if let item = row.box.parent, item.isMapped, gtk_widget_get_height(item.widget) > 0 { build(row) }
    }
  }

  /// Follows the frames of the window the list view is in, while it is realized.
  private func followFrames(of listView: ListView) {
    Signal.connect(listView.widget, "realize") { [unowned self] in self.followFrames() }
    Signal.connect(listView.widget, "unrealize") { [unowned self] in self.stopFollowingFrames() }
    if gtk_widget_get_realized(listView.widget) != 0 { followFrames() }
  }

  private func followFrames() {
    stopFollowingFrames()
    guard let listView, let clock = gtk_widget_get_frame_clock(listView.widget) else { return }
    frames = (clock, Signal.connect(clock, "layout") { [unowned self] in self.buildShown() })
  }

  private func stopFollowingFrames() {
    if let frames { Signal.disconnect(frames.clock, frames.handler) }
    frames = nil
  }

  /// Makes a stand-in's widgets and what they answer to.
  private func build(_ row: PlannerRow) {
    let wasFilling = filling
    filling = true
    defer { filling = wasFilling }
    guard row.build() else { return }
    Signal.connect(row.check!, "toggled") { [unowned self, unowned row] in
      guard !self.filling, case .task(let id) = row.key, let check = row.check else { return }
      self.onToggled(id, check.isActive)
    }
    // Dragged with the mouse onto another row, a task takes its place.
    // (Pictured with its list item, which draws the row's card.)
    DragAndDrop.makeDraggable(row.box.asWidget, picture: { [unowned row] in row.box.parent }) {
      [unowned self, unowned row] in
      guard case .task(let id) = row.key, self.canMove(id) else { return nil }
      return Self.dragPrefix + id.uuidString
    }
    DragAndDrop.acceptDrops(on: row.box.asWidget) { [unowned self, unowned row] text in
      guard case .task(let target) = row.key, text.hasPrefix(Self.dragPrefix),
        let dragged = UUID(uuidString: String(text.dropFirst(Self.dragPrefix.count)))
      else { return false }
      return self.onDropped(dragged, target)
    }
    row.box.onPress(button: 3) { [unowned self, unowned row] x, y in
      if case .task(let id) = row.key { self.onContextClick(id, row, x, y) }
    }
  }

  /// The height of a built row of `shape`, measured on one bound now (nil if none is; GTK keeps a laid-out row's
  /// measure, and measures it again when the desktop's text or theme changes).
  private func height(of shape: PlannerRow.Shape) -> Int? {
    binding.bound.first { !$0.isStandIn && $0.shape == shape }?.builtHeight
  }

  /// The row widget showing `key`, if one is on screen.
  func row(showing key: PlannerRowKey) -> PlannerRow? { binding.row(showing: key) }

  /// Draws again every row on screen (a new day or minute).
  func refillAll() { binding.refillAll() }

  /// The rows' model, for the list view (which takes the reference).
  func model() -> OpaquePointer { slots.noSelection() }

  /// Shows `rows` after `edits` (GTK makes rows for the keys inserted), drawing again the rows of `refill`.
  func show(_ rows: [PlannerRowKey], edits: [KeyedEdit<PlannerRowKey>], refill: Set<PlannerRowKey>) {
    let focused = edits.isEmpty ? nil : followedFocus()
    for edit in edits { slots.splice(at: edit.at, remove: edit.remove, insert: edit.insert.map(\.modelString)) }
    binding.refill(refill)
    if let focused { keepFocus(on: focused) { rows.firstIndex(of: $0) } }
  }

  /// The list view the rows are in.
  var listView: ListView? {
    didSet { if let listView { followFrames(of: listView) } }
  }
  /// The task the user moved last: its row keeps the focus while it has it, though edits take it out and put it
  /// back elsewhere (the move shown, then what the service answered). Focus on another row ends that.
  var following: UUID?

  /// The row of `following`, when it has the focus or the focus was lost.
  private func followedFocus() -> PlannerRowKey? {
    guard let following, let listView else { return nil }
    let focus = listView.focusInWindow
    if focus.map({ !$0.isMapped }) ?? true || focus.flatMap(key(around:)) == .task(following) {
      return .task(following)
    }
    self.following = nil
    return nil
  }

  /// Shows `keys` instead of the rows shown (another entry's): the row widgets there are show the first of them.
  func replaceAll(with keys: [PlannerRowKey]) {
    slots.replaceAll(keys.map(\.modelString))
    binding.rebindAll()
  }

  private func make() -> (PlannerRow, Widget) {
    let row = PlannerRow()
    return (row, row.box.asWidget)
  }

  /// What a dragged row's text starts with.
  private static let dragPrefix = "b2c-tasks-task:"

  private func fill(_ row: PlannerRow, _ key: PlannerRowKey) {
    filling = true
    defer { filling = false }
    row.key = key
    switch key {
    case .day(let date): row.showHeading(heading(date))
    case .task(let id): if let content = content(id) { row.show(content) }
    }
    guard row.isStandIn else { return }
    // A stand-in stays one below the window, as tall as a built row of its kind (built when none is there to measure).
    if mayStandIn(row), let shape = row.shape, let height = height(of: shape) {
      row.standIn(height: height)
    } else {
      build(row)
    }
  }
}

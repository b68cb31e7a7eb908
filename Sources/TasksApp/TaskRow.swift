// TaskRow: the widgets of one on-screen row of the task list. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// The widgets of one on-screen row: a check button, the text (up to three lines) with a caption under it, and a
/// delete button shown on hover and focus. GTK 4.8's list view keeps up to 200 of them around what is on screen and
/// binds them to whichever task scrolls into view, so a row is kept light: two labels, and an entry made only for
/// the row being edited. The row itself is the one keyboard stop (the check and delete buttons are for the pointer; the
/// keyboard has Space, Delete and the context menu).
@MainActor
final class TaskRow {
  // Owned (by `box`, which the list item holds).
  let box = Box.new(horizontal: true, spacing: 12)
  let check = CheckButton.new()
  let texts = Box.new(horizontal: false, spacing: 2)
  let label = Label.new()
  let caption = Label.new()
  let delete = Button.new(iconName: "user-trash-symbolic")
  var key: RowKey?
  private var shown: RowContent?
  private var tooltip: String?
  private var wraps = false
  private var highlighted = false
  private var namedItem: Widget?
  /// What the accessible names were last set for (see `name`).
  private var named: RowContent?
  /// When the names are set (at once, or once a fast-moving list stops).
  private lazy var naming = RowNaming { [unowned self] in self.name() }
  /// Texts longer than this many characters may not fit a row's three lines: they get a tooltip with the whole
  /// text.
  private static let longText = 120
  /// Texts up to this many characters fit one line of a row at the window's narrowest: they do not wrap. A wrapping
  /// label has a height for each width, which GTK measures whenever a row is bound to another task: on every
  /// label, dragging the scroll bar through 10 000 tasks drew 19 frames a second instead of 50
  /// (Tests/Benchmarks/RESULTS.md). Only the rows that may need a second line pay for it.
  private static let oneLine = 24

  init() {
    for (side, widget) in [(12, box.asWidget), (0, check.asWidget), (0, texts.asWidget), (0, delete.asWidget)] {
      widget.centreVertically()
      widget.setMargins(start: Int32(side), end: Int32(side))
    }
    box.setMargins(top: 6, bottom: 6)
    texts.expandsHorizontally = true
    for text in [label, caption] {
      text.xalign = 0
      text.ellipsizesEnd = true
      texts.append(text)
    }
    // A long text wraps to three lines at most, then ends with "…" (the whole text is in the details, the tooltip
    // and the accessible name); see `show`.
    label.lines = 3
    caption.isSingleLine = true
    label.setCSSClass("task-text", true)
    caption.setCSSClass("task-note", true)
    caption.setCSSClass("caption", true)
    delete.setCSSClass("flat", true)
    delete.setCSSClass("task-delete", true)
    // Tooltips are given when GTK asks for them (see `Tooltip`): rows are made at start and, in GTK 4.8, again after
    // every jump down a long list, and a long text's tooltip changes with every bind while the scroll bar is dragged.
    Tooltip.set(delete, Phrases.deleteTooltip, describing: false)  // its name says it: "Delete “buy milk”"
    Tooltip.set(label) { [weak self] in self?.tooltip }
    label.hasTooltip = false  // until a long text needs it (`show`)
    box.setCSSClass("task-row", true)
    // One keyboard stop per row: the row. The buttons still take clicks.
    check.isFocusable = false
    delete.isFocusable = false
    for widget in [check.asWidget, texts.asWidget, delete.asWidget] { box.append(widget) }
  }

  /// The list's own row widget around this one (the one that takes keyboard focus), once the row is in the list.
  var listItem: Widget? { box.parent }

  /// Shows `content`, touching only what differs from what is shown. The names assistive technologies hear follow at
  /// once, or, for a row bound again within `settle` of its last bind (the list is moving fast: a dragged scroll bar
  /// binds every row anew at every frame), once the row has stayed put that long.
  func show(_ content: RowContent) {
    let old = shown
    shown = content
    if old?.text != content.text {
      label.text = content.text
      let wraps = Self.wraps(content.text)
      if wraps != self.wraps {
        label.wraps = wraps
        self.wraps = wraps
      }
      let tooltip = Self.longer(content.text, than: Self.longText) ? content.text : nil
      if (tooltip == nil) != (self.tooltip == nil) { label.hasTooltip = tooltip != nil }
      self.tooltip = tooltip
    }
    if old?.completed != content.completed {
      check.isActive = content.completed
      box.setCSSClass("completed", content.completed)
    }
    if old?.caption != content.caption {
      caption.text = content.caption
      caption.isVisible = !content.caption.isEmpty
    }
    if old?.confirmed != content.confirmed {
      check.isSensitive = content.confirmed
    }
    naming.bound(in: listItem, needed: content != named || namedItem?.widget != listItem?.widget)
  }

  /// Gives the row's widgets the names of what it shows, where they differ. Each name set is a message on the
  /// accessibility bus once a screen reader (or anything reading the bus) has looked at the list: three a row, 200
  /// rows a frame while the scroll bar is dragged, were a third of each frame (Tests/Benchmarks/RESULTS.md).
  private func name() {
    guard let content = shown else { return }
    let old = named
    named = content
    if old?.text != content.text {
      b2c_accessible_set_label(delete.widget, Phrases.delete.filled(content.text))
    }
    if old?.text != content.text || old?.caption != content.caption || old?.confirmed != content.confirmed {
      // The check box keeps the text alone (and the waiting note), as a pointer user sees it beside the box.
      b2c_accessible_set_label(check.widget, content.confirmed ? content.text : "\(content.text) — \(content.caption)")
    }
    // The list's row widget is what has the focus and what a screen reader reads.
    if let listItem, old != content || namedItem?.widget != listItem.widget {
      b2c_accessible_set_label(listItem.widget, content.spokenName)
      namedItem = listItem
    }
  }

  /// The list item is gone: its widgets are no longer to be touched.
  func retire() { naming.retire() }

  /// Whether `text` may take more than one line: longer than `oneLine` characters, or with a line break. (Counted
  /// in bytes first: counting characters walks the text's grapheme clusters, on every bind while scrolling.)
  private static func wraps(_ text: String) -> Bool {
    let breaks = text.unicodeScalars.contains { scalar in
      (0x0A...0x0D).contains(scalar.value) || scalar.value == 0x85 || scalar.value == 0x2028 || scalar.value == 0x2029
    }
    return breaks || longer(text, than: oneLine)
  }

  /// Whether `text` has more than `count` characters; a text of no more bytes has not.
  private static func longer(_ text: String, than count: Int) -> Bool {
    text.utf8.count > count && text.count > count
  }

  /// Draws the row as just added for a moment (a fading highlight), or not.
  func highlight(_ on: Bool) {
    guard on != highlighted else { return }
    highlighted = on
    box.setCSSClass("just-added", on)
  }
}

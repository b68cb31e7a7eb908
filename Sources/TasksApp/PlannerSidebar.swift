// PlannerSidebar: the planner's sidebar — Today, Upcoming and each list with its open tasks and who shares it — as
// a GtkListBox whose rows follow the core's `SidebarEntry`s. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// The sidebar's list box (`sidebar_list` in `main-window.ui`): one row per entry, updated in place while the entries
/// stay the same ones (a count or a name changed), made again when entries come or go. Selecting a row (click, arrow
/// keys, Ctrl+1…9, Alt+Up/Down) calls `onSelect`.
@MainActor
final class PlannerSidebar {
  /// The widgets of one entry's row.
  private struct Row {
    let selection: PlannerSelection
    let row: Widget
    let icon: Widget
    let name: Label
    let sharing: Label
    let count: Label
    /// The entry the row shows (nil until filled).
    var shown: SidebarEntry?
  }

  // Template widgets (the builder keeps them).
  private let listBox: Widget
  // Owned (by the list box).
  private var rows: [Row] = []
  /// Whether the code is selecting a row (its "row-selected" is then not the user's).
  private var selecting = false
  /// The user chose an entry.
  var onSelect: (PlannerSelection) -> Void = { _ in }

  init(builder: Builder) {
    listBox = builder.widget("sidebar_list")
    // A row chosen by the user: clicked, or Enter or Space on it (the arrow keys move the focus and the highlight;
    // Alt+Up/Down and Ctrl+1…9 switch at once). The list box also selects rows by itself (around a focus that
    // moves when a narrowing window folds the sidebar away), which must not switch what is shown.
    Signal.connect(listBox, "row-activated") { [unowned self] row in
      if let row { self.chose(row) }
    }
  }

  private var box: OpaquePointer { OpaquePointer(listBox.widget) }

  private func chose(_ row: UnsafeMutableRawPointer) {
    if let entry = rows.first(where: { $0.row.gpointer == row }) { onSelect(entry.selection) }
  }

  /// Shows `entries`, with `selected` selected.
  func show(_ entries: [SidebarEntry], selected: PlannerSelection) {
    if rows.map(\.selection) != entries.map(\.selection) {
      // Made again (an entry came, went or moved): what the list box selects or focuses meanwhile is no choice,
      // and a focus that was on a row goes to the selected one.
      let hadFocus = rows.contains { $0.row.hasFocus }
      selecting = true
      for row in rows { gtk_list_box_remove(box, row.row.widget) }
      rows = entries.map(makeRow)
      selecting = false
      for index in rows.indices { fill(&rows[index], entries[index]) }
      select(selected)
      if hadFocus { focus(selected) }
      return
    }
    // Only the rows whose entry changed: setting the same icon looks it up again, and the same accessible name tells
    // a screen reader of a change that is none.
    for index in rows.indices where rows[index].shown != entries[index] { fill(&rows[index], entries[index]) }
    select(selected)
  }

  /// Selects the row of `selection` without telling `onSelect`.
  func select(_ selection: PlannerSelection) {
    guard let row = rows.first(where: { $0.selection == selection }) else { return }
    selecting = true
    gtk_list_box_select_row(box, row.row.widget.cast(to: gtk_list_box_row_get_type()))
    selecting = false
  }

  /// Ctrl+L: the keyboard focus to the entry shown (selected again: the arrow keys may have moved the highlight).
  func focus(_ selection: PlannerSelection) {
    select(selection)
    if let row = rows.first(where: { $0.selection == selection }) {
      _ = row.row.grabFocus()
    } else {
      _ = listBox.grabFocus()
    }
  }

  private func makeRow(_ entry: SidebarEntry) -> Row {
    let content = Box.new(horizontal: true, spacing: 12)
    content.setMargins(top: 6, bottom: 6, start: 6, end: 6)
    let icon = Widget(gtk_image_new())
    content.append(icon)
    let texts = Box.new(horizontal: false, spacing: 0)
    texts.expandsHorizontally = true
    let name = Label.new()
    let sharing = Label.new()
    for label in [name, sharing] {
      label.xalign = 0
      label.ellipsizesEnd = true
      label.isSingleLine = true  // a shared list's name is another member's text: one line, whatever it holds
      texts.append(label)
    }
    sharing.setCSSClass("caption", true)
    sharing.setCSSClass("dim-label", true)
    content.append(texts)
    let count = Label.new()
    count.setCSSClass("dim-label", true)
    count.setCSSClass("numeric", true)
    content.append(count)
    gtk_list_box_append(box, content.widget)
    let row = Widget(UnsafeMutableRawPointer(gtk_widget_get_parent(content.widget)!))
    return Row(selection: entry.selection, row: row, icon: icon, name: name, sharing: sharing, count: count)
  }

  private func fill(_ row: inout Row, _ entry: SidebarEntry) {
    row.shown = entry
    let icon =
      switch entry.selection {
      case .today: "starred-symbolic"
      case .upcoming: "x-office-calendar-symbolic"
      case .list: entry.sharing == nil ? "view-list-bullet-symbolic" : "system-users-symbolic"
      }
    // (A list shared since the row was made shows the people icon.)
    gtk_image_set_from_icon_name(OpaquePointer(row.icon.widget), icon)
    row.name.text = Label.oneLine(entry.name)
    row.sharing.text = Label.oneLine(entry.sharing ?? "")
    row.sharing.isVisible = entry.sharing != nil
    row.count.text = entry.count == 0 ? "" : String(entry.count)
    row.row.setAccessibleLabel(entry.spokenName)
  }
}

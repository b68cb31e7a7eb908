// PlannerRow: the widgets of one on-screen row of the planner's list: a task (check, title, due date in words, the
// repeat, priority, subtasks and list) or a day's heading in Upcoming. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// One row widget, bound by `PlannerRowFactory` to whichever row scrolls into view: three labels and a check button,
/// so that long lists stay light. The due date has a label of its own (overdue: the error colour); the rest of the
/// facts share one caption ("↻ Monthly · High priority · 1/3 · Work").
///
/// A row starts as a stand-in: its box alone, as tall as a made row of its kind, named for what it shows but with
/// nothing inside. `build()` makes its widgets. GTK 4.8 keeps a row widget for each of up to 200 items from the top
/// of a list however few it shows, and a first start of a 500-task list made, bound and laid out 179 rows below the
/// window (about 50 ms of the main thread just after the first frame); the factory builds a row only when it comes on
/// screen (Tests/Benchmarks/RESULTS.md, "a twentieth time").
@MainActor
final class PlannerRow {
  // Owned (by `box`, which the list item holds).
  let box = Box.new(horizontal: true, spacing: 12)
  /// The row's widgets, once built.
  @MainActor
  private struct Parts {
    let check = CheckButton.new()
    let title = Label.new()
    let due = Label.new()
    let facts = Label.new()
  }
  private var parts: Parts?
  /// The check button, once the row is built.
  var check: CheckButton? { parts?.check }
  /// Whether the row is a stand-in, its widgets not made yet.
  var isStandIn: Bool { parts == nil }
  var key: PlannerRowKey?
  /// What the widgets show (nil: nothing yet).
  private var shown: PlannerRowContent?
  /// What the row is named for: a task's content, or a day's heading.
  private enum Name: Equatable {
    case task(PlannerRowContent)
    case heading(String)
  }
  /// What the row shows (a stand-in: once built), and is named for.
  private var toName: Name?
  private var named: Name?
  private var namedItem: Widget?
  /// When the names are set (at once, or once a fast-moving list stops: lever 6 of the task list).
  private lazy var naming = RowNaming { [unowned self] in self.name() }

  /// The kinds of row, each with its own height.
  enum Shape: Hashable {
    case heading
    /// A task's title alone.
    case title
    /// A task's title over its caption.
    case captioned
  }

  /// The kind of row it shows (nil: nothing yet).
  var shape: Shape? {
    switch toName {
    case .heading: .heading
    case .task(let content): content.due != nil || !Self.facts(content).isEmpty ? .captioned : .title
    case nil: nil
    }
  }

  init() {
    box.setMargins(top: 6, bottom: 6, start: 12, end: 12)
    box.setCSSClass("task-row", true)
  }

  /// Makes the row's widgets and shows in them what the row stands for; false if it had them.
  @discardableResult
  func build() -> Bool {
    guard parts == nil else { return false }
    let parts = Parts()
    self.parts = parts
    gtk_widget_set_size_request(box.widget, -1, -1)
    parts.check.centreVertically()
    parts.check.isFocusable = false  // one keyboard stop per row: the row (Space ticks it)
    let texts = Box.new(horizontal: false, spacing: 2)
    texts.expandsHorizontally = true
    texts.centreVertically()
    let captions = Box.new(horizontal: true, spacing: 8)
    // One line each, whatever the text holds (a line break in a title from another member or a CalDAV client, shown
    // as a space): every row of a kind is as tall as its stand-in was, and the list does not jump as rows are built.
    for label in [parts.title, parts.due, parts.facts] {
      label.xalign = 0
      label.ellipsizesEnd = true
      label.isSingleLine = true
    }
    parts.title.setCSSClass("task-text", true)
    for label in [parts.due, parts.facts] { label.setCSSClass("caption", true) }
    parts.facts.setCSSClass("dim-label", true)
    captions.append(parts.due)
    captions.append(parts.facts)
    texts.append(parts.title)
    texts.append(captions)
    box.append(parts.check)
    box.append(texts)
    if case .task(let content) = named { parts.check.setAccessibleLabel(Self.checkName(content)) }
    switch toName {
    case .heading(let text): showHeading(text)
    case .task(let content): show(content)
    case nil: break
    }
    return true
  }

  /// Gives a stand-in the height of a built row of its kind (nil: GTK's for an empty row).
  func standIn(height: Int?) {
    guard parts == nil else { return }
    gtk_widget_set_size_request(box.widget, -1, Int32(height ?? -1))
  }

  /// The height a built row's box asks for with what it shows now, within its margins (what a stand-in asks for
  /// to be as tall; nil for a stand-in).
  var builtHeight: Int? {
    guard parts != nil else { return nil }
    var natural: Int32 = 0
    gtk_widget_measure(box.widget, GTK_ORIENTATION_VERTICAL, -1, nil, &natural, nil, nil)
    return Int(natural - gtk_widget_get_margin_top(box.widget) - gtk_widget_get_margin_bottom(box.widget))
  }

  /// Shows a day's heading (Upcoming).
  func showHeading(_ text: String) {
    if let parts {
      shown = nil
      parts.check.isVisible = false
      parts.title.text = Label.oneLine(text)
      parts.title.setCSSClass("heading", true)
      parts.due.isVisible = false
      parts.facts.isVisible = false
    }
    named(.heading(text))
  }

  /// Shows a task, touching only what differs.
  func show(_ content: PlannerRowContent) {
    if let parts {
      let old = shown
      shown = content
      parts.check.isVisible = true
      parts.title.setCSSClass("heading", false)
      if old?.title != content.title { parts.title.text = Label.oneLine(content.title) }
      // The box as the task is, whatever a click left it at: a repeating task ticked moves on, open, and its box
      // stayed ticked (its `completed` had not changed); a tick that could not be recorded stays unticked at the
      // next refill. (A refill between a click and its recording, a few milliseconds, shows the box as it was.)
      if parts.check.isActive != content.completed { parts.check.isActive = content.completed }
      if old?.completed != content.completed { box.setCSSClass("completed", content.completed) }
      if old == nil || old?.due != content.due {
        parts.due.text = content.due?.text ?? ""
        parts.due.isVisible = content.due != nil
        parts.due.setCSSClass("error", content.due?.overdue == true)
      }
      let text = Self.facts(content)
      parts.facts.text = Label.oneLine(text)
      parts.facts.isVisible = !text.isEmpty
    }
    named(.task(content))
  }

  /// The list item is gone: its widgets are no longer to be touched.
  func retire() { naming.retire() }

  /// Names the row for `name`, now or once the list stops moving.
  private func named(_ name: Name) {
    toName = name
    naming.bound(in: box.parent, needed: name != named || namedItem?.widget != box.parent?.widget)
  }

  /// Gives the check button and the list's row widget (what has the focus and what a screen reader reads) the names
  /// of what the row shows, where they differ from the names set last.
  private func name() {
    guard let name = toName, let listItem = box.parent else { return }
    let old = named
    named = name
    switch name {
    case .task(let content):
      if case .task(let before) = old, before.title == content.title, before.changeWaiting == content.changeWaiting {
      } else {
        parts?.check.setAccessibleLabel(Self.checkName(content))
      }
      if old != name || namedItem?.widget != listItem.widget { listItem.setAccessibleLabel(content.spokenName) }
    case .heading(let text):
      if old != name || namedItem?.widget != listItem.widget { listItem.setAccessibleLabel(text) }
    }
    namedItem = listItem
  }

  /// The check box's name: the task's title (and that a change of it waits to be sent).
  private static func checkName(_ content: PlannerRowContent) -> String {
    content.changeWaiting ? content.title + " — " + Phrases.changeWaiting : content.title
  }

  /// The caption after the due date.
  private static func facts(_ content: PlannerRowContent) -> String {
    var parts: [String] = []
    if let repeats = content.repeats { parts.append("↻ " + repeats) }
    if content.priority != .none { parts.append(content.priority.label) }
    if let subtasks = content.subtaskCount { parts.append("☑ " + subtasks) }
    if let list = content.listName { parts.append(list) }
    if let who = content.changedBy { parts.append(Phrases.changedBy.filled(who)) }
    if content.changeWaiting { parts.append(Phrases.changeWaiting) }
    return parts.joined(separator: " · ")
  }
}

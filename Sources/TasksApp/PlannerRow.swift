// PlannerRow: the widgets of one on-screen row of the planner's list: a task (check, title, due date in words, the
// repeat, priority, subtasks and list) or a day's heading in Upcoming. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// One row widget, bound by `PlannerRowFactory` to whichever row scrolls into view: three labels and a check button,
/// so that long lists stay light. The due date has a label of its own (overdue: the error colour); the rest of the
/// facts share one caption ("↻ Monthly · High priority · 1/3 · Work").
@MainActor
final class PlannerRow {
  // Owned (by `box`, which the list item holds).
  let box = Box.new(horizontal: true, spacing: 12)
  let check = CheckButton.new()
  private let title = Label.new()
  private let due = Label.new()
  private let facts = Label.new()
  var key: PlannerRowKey?
  private var shown: PlannerRowContent?
  /// What the row is named for: a task's content, or a day's heading.
  private enum Name: Equatable {
    case task(PlannerRowContent)
    case heading(String)
  }
  private var toName: Name?
  private var named: Name?
  private var namedItem: Widget?
  /// When the names are set (at once, or once a fast-moving list stops: lever 6 of the task list).
  private lazy var naming = RowNaming { [unowned self] in self.name() }

  init() {
    box.setMargins(top: 6, bottom: 6, start: 12, end: 12)
    check.centreVertically()
    check.isFocusable = false  // one keyboard stop per row: the row (Space ticks it)
    let texts = Box.new(horizontal: false, spacing: 2)
    texts.expandsHorizontally = true
    texts.centreVertically()
    let captions = Box.new(horizontal: true, spacing: 8)
    for label in [title, due, facts] {
      label.xalign = 0
      label.ellipsizesEnd = true
    }
    title.setCSSClass("task-text", true)
    for label in [due, facts] { label.setCSSClass("caption", true) }
    facts.setCSSClass("dim-label", true)
    captions.append(due)
    captions.append(facts)
    texts.append(title)
    texts.append(captions)
    box.append(check)
    box.append(texts)
    box.setCSSClass("task-row", true)
  }

  /// Shows a day's heading (Upcoming).
  func showHeading(_ text: String) {
    shown = nil
    check.isVisible = false
    title.text = text
    title.setCSSClass("heading", true)
    due.isVisible = false
    facts.isVisible = false
    named(.heading(text))
  }

  /// Shows a task, touching only what differs.
  func show(_ content: PlannerRowContent) {
    let old = shown
    shown = content
    check.isVisible = true
    title.setCSSClass("heading", false)
    if old?.title != content.title { title.text = content.title }
    if old?.completed != content.completed {
      check.isActive = content.completed
      box.setCSSClass("completed", content.completed)
    }
    if old == nil || old?.due != content.due {
      due.text = content.due?.text ?? ""
      due.isVisible = content.due != nil
      due.setCSSClass("error", content.due?.overdue == true)
    }
    let text = Self.facts(content)
    facts.text = text
    facts.isVisible = !text.isEmpty
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
      // The check box is named for the task (and says when a change of it waits to be sent).
      let checkName = content.changeWaiting ? content.title + " — " + Phrases.changeWaiting : content.title
      if case .task(let before) = old, before.title == content.title, before.changeWaiting == content.changeWaiting {
      } else {
        check.setAccessibleLabel(checkName)
      }
      if old != name || namedItem?.widget != listItem.widget { listItem.setAccessibleLabel(content.spokenName) }
    case .heading(let text):
      if old != name || namedItem?.widget != listItem.widget { listItem.setAccessibleLabel(text) }
    }
    namedItem = listItem
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

// DetailsSubtasks: the details' subtasks — each with its check, Move Up, Move Down and Delete, and an entry that
// adds one at the end. Their order is their sort keys (TasksCore's `ManualOrder`). Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksAccount
import TasksCore

/// The subtasks group of a task's details (hidden for a subtask: they go one level deep). Each change is an outbox
/// edit of the subtask.
@MainActor
final class DetailsSubtasks {
  let group: Widget
  private var preferences: PreferencesGroup { PreferencesGroup(group) }
  private let add = EntryRow(title: tr("Add a subtask"), applyName: tr("Apply"))
  private var rows: [Widget] = []
  private var parent: PlannerItem?
  private var children: [PlannerItem] = []
  weak var planner: PlannerOperations?

  init() {
    group = PreferencesGroup(adw_preferences_group_new()).asWidget
    adw_preferences_group_set_title(group.widget.cast(to: adw_preferences_group_get_type()), tr("Subtasks"))
    add.onApply { [unowned self] in self.addTyped() }
    preferences.add(add)
    g_object_ref(add.gpointer)  // kept while the rows above it are made again (removing it would drop it)
  }

  isolated deinit { g_object_unref(add.gpointer) }

  /// Shows `parent`'s subtasks, in order (rows made again only when they changed).
  func show(_ parent: PlannerItem, children: [PlannerItem]) {
    self.parent = parent
    group.isVisible = parent.parentID == nil
    guard children != self.children || rows.count != children.count else { return }
    self.children = children
    for row in rows { preferences.remove(row) }
    rows = children.enumerated().map { index, child in row(child, at: index, of: children.count) }
    let typing = add.hasFocusWithin  // removing the entry takes the focus from it: it goes back
    preferences.remove(add)
    for row in rows { preferences.add(row) }
    preferences.add(add)
    if typing { _ = add.grabFocus() }
  }

  private func row(_ child: PlannerItem, at index: Int, of count: Int) -> Widget {
    let row = ActionRow.new(title: child.title, subtitle: "")
    let check = CheckButton.new()
    check.isActive = child.status == .completed
    check.centreVertically()
    check.setAccessibleLabel(child.title)
    Signal.connect(check, "toggled") { [unowned self] in self.setDone(child.id, check.isActive) }
    adw_action_row_add_prefix(row.widget.cast(to: adw_action_row_get_type()), check.widget)
    let up = iconButton("go-up-symbolic", String(template: tr("Move “%@” Up"), child.title)) { [unowned self] in
      self.move(index, by: -1)
    }
    up.isSensitive = index > 0
    let down = iconButton("go-down-symbolic", String(template: tr("Move “%@” Down"), child.title)) {
      [unowned self] in
      self.move(index, by: 1)
    }
    down.isSensitive = index + 1 < count
    let delete = iconButton("user-trash-symbolic", String(template: tr("Delete Subtask “%@”"), child.title)) {
      [unowned self] in
      self.record(.deleteTask(list: child.listID, id: child.id))
    }
    for button in [up, down, delete] { row.addSuffix(button) }
    return row.asWidget
  }

  private func addTyped() {
    let title = add.editable.text.trimmed()
    guard let parent, !title.isEmpty else { return add.errorBell() }
    var item = PlannerItem(id: UUID(), listID: parent.listID, title: title, createdAt: Date())
    item.parentID = parent.id
    item.sortKey = ManualOrder.keyAfter(children)
    add.editable.text = ""
    record(.createTask(item))
  }

  private func setDone(_ id: UUID, _ done: Bool) {
    guard let child = children.first(where: { $0.id == id }), (child.status == .completed) != done else { return }
    if done {
      let today = DueLabel.now().today
      return record(.complete(list: child.listID, id: id, occurrence: child.due?.date ?? today, today: today))
    }
    var mine = child
    mine.status = .needsAction
    mine.completedAt = nil
    record(.changeTask(base: child, mine: mine))
  }

  private func move(_ index: Int, by offset: Int) {
    for changed in ManualOrder.move(children, from: index, to: index + offset) {
      guard let base = children.first(where: { $0.id == changed.id }) else { continue }
      record(.changeTask(base: base, mine: changed))
    }
  }

  private func record(_ edit: PlannerEdit) {
    guard let planner else { return }
    planner.soon { await $0.record(edit) }
  }
}

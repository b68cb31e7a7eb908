// PlannerRowMenu: the context menu of a task's row, from ui/task-row-menu.ui, run through the "row" actions. Main
// actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// The row's context menu: Details, Mark as Done or Not Done, Copy Text, Delete. The items are in
/// `ui/task-row-menu.ui`; which of them can be used for a row is set on the "row" actions when it opens.
@MainActor
final class PlannerRowMenu {
  /// What an item of the menu (or a row's key) asks for.
  enum Command: String, CaseIterable {
    case details
    case markDone = "mark-done"
    case markNotDone = "mark-not-done"
    case copy, delete
    /// Space on a row (no menu item).
    case toggle
  }

  private let builder = Builder(resource: Installation.resourceBase + "/ui/task-row-menu.ui")
  private var actions: [Command: OpaquePointer] = [:]
  private var task: UUID?
  /// Whether the task the menu opens for is done (its menu offers Mark as Not Done).
  var isDone: (UUID) -> Bool = { _ in false }
  /// Runs an item's command for the row the menu was opened on.
  var onCommand: (Command, UUID) -> Void = { _, _ in }

  /// Puts the "row" actions on `list` (the menus it parents find them there).
  init(on list: Widget) {
    let group = g_simple_action_group_new()!
    for command in Command.allCases where command != .toggle {
      actions[command] = Actions.add(command.rawValue, to: group) { [unowned self] in
        if let task = self.task { self.onCommand(command, task) }
      }
    }
    list.insertActions(group, as: "row")
    g_object_unref(group.gpointer)
  }

  /// Opens the menu for `task`'s row, at the pointer or under the row.
  func open(for task: UUID, on row: PlannerRow, at point: (Double, Double)?) {
    self.task = task
    let done = isDone(task)
    for (command, action) in actions {
      Actions.setEnabled(action, command == .markDone ? !done : command == .markNotDone ? done : true)
    }
    let model = builder.object("row_menu", g_menu_model_get_type(), as: GMenuModel.self)
    let popover = PopoverMenu.new(model, on: row.box)
    if let (x, y) = point { popover.point(atX: x, y: y) }
    Signal.connect(popover, "closed") { [weak row] in
      // After the chosen item's action has run. The focus, left in the closing menu, goes back to the row (unless
      // the action put it somewhere, the details window say).
      Task {
        popover.unparent()
        guard let item = row?.box.parent, item.isInWindow else { return }
        if item.focusInWindow?.isMapped != true { _ = item.grabFocus() }
      }
    }
    popover.popup()
  }
}

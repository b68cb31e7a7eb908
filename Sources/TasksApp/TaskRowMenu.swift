// TaskRowMenu: the context menu of a task's row, from ui/task-row-menu.ui, run through the "row" actions. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// What an item of the row's menu asks for.
enum RowMenuCommand: String, CaseIterable {
  case edit, details
  case markDone = "mark-done"
  case markNotDone = "mark-not-done"
  case copy, delete
}

/// The row's context menu: Edit, Details, Mark as Done or Not Done, Copy Text, Delete. The items are in
/// `ui/task-row-menu.ui`; which of them can be used for a row is set on the "row" actions when it opens.
@MainActor
final class TaskRowMenu {
  private let builder = Builder(resource: Installation.resourceBase + "/ui/task-row-menu.ui")
  private var actions: [RowMenuCommand: OpaquePointer] = [:]
  private var key: RowKey?
  /// Runs an item's command for the row the menu was opened on.
  var onCommand: (RowMenuCommand, RowKey) -> Void = { _, _ in }

  /// Puts the "row" actions on `list` (the menus it parents find them there).
  init(on list: Widget) {
    let group = g_simple_action_group_new()!
    for command in RowMenuCommand.allCases {
      actions[command] = Actions.add(command.rawValue, to: group) { [unowned self] in
        if let key = self.key { self.onCommand(command, key) }
      }
    }
    list.insertActions(group, as: "row")
    g_object_unref(group.gpointer)
  }

  /// Opens the menu for `key`'s row (`task`: the server's task, nil for one still waiting), at the pointer or
  /// under the row.
  func open(for row: TaskRow, key: RowKey, task: TaskItem?, at point: (Double, Double)?) {
    self.key = key
    let enabled: [RowMenuCommand: Bool] = [
      .edit: task != nil, .details: task != nil, .markDone: task?.completed == false,
      .markNotDone: task?.completed == true, .copy: true, .delete: true,
    ]
    for (command, action) in actions { Actions.setEnabled(action, enabled[command] ?? false) }
    let model = builder.object("row_menu", g_menu_model_get_type(), as: GMenuModel.self)
    let popover = PopoverMenu.new(model, on: row.box)
    if let (x, y) = point { popover.point(atX: x, y: y) }
    Signal.connect(popover, "closed") { [weak row] in
      // After the chosen item's action has run. The focus, left in the closing menu, goes back to the row (unless
      // the action put it somewhere, the editor say).
      Task {
        popover.unparent()
        guard let item = row?.listItem, item.isInWindow else { return }
        if item.focusInWindow?.isMapped != true { item.grabFocus() }
      }
    }
    popover.popup()
  }
}

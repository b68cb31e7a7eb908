// TaskListEmptyPage: what the list page shows when no row is shown, and why. Main actor.

import FoundationEssentials
import GtkSupport
import TasksCore

/// The list page's stack: the rows, or a status page saying why there are none (no tasks, no match for the search,
/// all done and hidden), with the Add Task button only when there are no tasks at all.
@MainActor
struct TaskListEmptyPage {
  // Template widgets (the builder keeps them).
  private let stack: Stack
  private let page: StatusPage
  private let addButton: Widget

  init(builder: Builder) {
    stack = builder.widget("list_stack", as: Stack.init)
    page = builder.widget("empty_page", as: StatusPage.init)
    addButton = builder.widget("empty_add_task_button")
  }

  /// Shows the rows (`reason` nil) or the empty page for `reason`; the page not shown is hidden too, for keyboard
  /// focus and assistive technologies.
  func show(_ reason: EmptyReason?) {
    let list = stack.child(named: "list")
    let empty = stack.child(named: "empty")
    let (shown, hidden) = reason == nil ? (list, empty) : (empty, list)
    shown.isVisible = true
    stack.visibleChild = shown
    hidden.isVisible = false
    guard let reason else { return }
    let (title, description): (String, String) =
      switch reason {
      case .noTasks: (tr("No Tasks"), tr("Tasks you add appear here."))
      case .noMatches: (tr("No Matching Tasks"), tr("No task contains what you searched for."))
      case .allDone: (tr("All Done"), tr("Your completed tasks are hidden. Show them from the main menu."))
      }
    page.title = title
    page.setDescription(description)
    addButton.isVisible = reason == .noTasks
  }
}

// TaskWindows, LiveRefresh: the add-task window (one at a time) over the main window, and the refresh that brings
// changes made elsewhere without F5. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksAccount
import TasksCore

/// The add-task window of the main window: one at a time (Ctrl+Shift+N again brings it to the front); it adds to the
/// list shown (from Today and Upcoming, to the default list, due then).
@MainActor
final class TaskWindows {
  // Borrowed.
  private let window: Window
  private unowned let planner: PlannerController
  // Owned.
  private var addWindow: AddTaskWindow?

  init(window: Window, planner: PlannerController) {
    self.window = window
    self.planner = planner
  }

  /// Ctrl+Shift+N: the add-task window.
  func openAddTask() {
    if let addWindow { return addWindow.present() }
    let listName = (planner.selectedList ?? planner.state.defaultList).map(PlannerViewState.name(of:))
    let opened = AddTaskWindow(parent: window, listName: listName) { [unowned self] reading, notes in
      self.planner.add(reading, notes: notes)
    }
    // Released on the next main-loop turn: the window may be closing from inside one of its own handlers.
    opened.onClose { [unowned self, weak opened] in
      Task { if self.addWindow === opened { self.addWindow = nil } }
    }
    addWindow = opened
    opened.present()
  }

  /// Closes the add-task window, if one is open.
  func close() { addWindow?.close() }
}

/// Changes made elsewhere (the CLI, another device) appear without F5: when the window gets the focus, and every
/// minute while it has it (which also moves the rows' dates on).
@MainActor
enum LiveRefresh {
  static func start(window: Window, planner: PlannerOperations) {
    Signal.connect(window, "notify::is-active") { [weak planner] (_: UnsafeMutableRawPointer?) in
      guard window.isActive, let planner, planner.shown != nil else { return }
      Task { await planner.refreshQuietly(atMostEvery: .seconds(3)) }
    }
    Task { [weak planner] in
      while true {
        try? await Task.sleep(for: .seconds(60))
        guard let planner else { return }
        if window.isActive, planner.shown != nil { await planner.refreshQuietly(atMostEvery: .seconds(50)) }
      }
    }
  }
}

// TaskWindows, LiveRefresh: the add-task window (one at a time) over the main window, and the long poll that brings
// changes made elsewhere without F5. Main actor.

import CGtk
import FoundationEssentials
import GLibSupport
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
}

/// Changes made elsewhere (the CLI, another device) appear without F5, within a moment: while the window has the
/// focus it holds one long poll of the change feed, which the service answers when something changed for the
/// account. It reads at once when the window gets the focus, when the network comes back and when the machine wakes
/// up (the long poll's connection may be dead: it is started again). While another window has the focus (a task's
/// details, another app) it reads nothing new, as before: the details window's edit keeps the base it was opened on,
/// so a field changed elsewhere meanwhile is a conflict the user sees, not a change silently overwritten. After a
/// failure (offline, the service failing) it waits, 15 s and then longer, and refreshes before it waits again; while
/// offline the banner's own retry goes on as before.
@MainActor
final class LiveRefresh {
  private let window: Window
  private weak var planner: PlannerOperations?
  private var following: Task<Void, Never>?
  private var connectivity: ConnectivityWatch?

  init(window: Window, planner: PlannerOperations) {
    self.window = window
    self.planner = planner
    Signal.connect(window, "notify::is-active") { [weak self] (_: UnsafeMutableRawPointer?) in
      guard let self else { return }
      guard window.isActive else { return self.pause() }
      if let planner = self.planner, planner.shown != nil {
        Task { await planner.refreshQuietly(atMostEvery: .seconds(3)) }
      }
      self.restart()
    }
    connectivity = ConnectivityWatch { [unowned self] in
      guard window.isActive else { return }
      self.restart()
      Task { [weak planner] in await planner?.refreshQuietly(atMostEvery: .seconds(1)) }
    }
    if window.isActive { restart() }
  }

  /// Stops following (the window is gone).
  func stop() {
    pause()
    connectivity = nil
  }

  /// Gives up the long poll under way (another window has the focus): its answer, if it comes, is not applied.
  private func pause() {
    following?.cancel()
    following = nil
  }

  /// Gives up the long poll under way, if any, and holds a new one.
  private func restart() {
    following?.cancel()
    following = Task { [weak planner] in
      var backOff = 15
      while !Task.isCancelled {
        guard let planner else { return }
        // Nothing read yet (the first start before the lists are known, signed out): from the lists read.
        await planner.untilShown()
        if Task.isCancelled { return }
        if await planner.waitForChanges() {
          backOff = 15
          continue
        }
        guard !Task.isCancelled, planner.shown != nil else { continue }
        try? await Task.sleep(for: .seconds(backOff))
        backOff = min(backOff * 2, 300)
        await planner.refreshQuietly(atMostEvery: .seconds(backOff / 2))
      }
    }
  }
}

// UndoQueue: what Ctrl+Z and a toast's Undo take back. Main actor.

import FoundationEssentials
import GtkSupport
import TasksCore

/// Rows deleted in the list (one, or every completed task) whose deletion waits for their Undo toast to go away.
struct PendingDeletion {
  var keys: [RowKey]
  var toast: Toast
}

/// What can be taken back: the deletion whose Undo toast shows (one at a time: a new one carries out the one before)
/// and, after it, the last completion the user made.
@MainActor
final class UndoQueue {
  /// What Ctrl+Z takes back.
  enum Step {
    case deletion(PendingDeletion)
    case completion(TaskItem, done: Bool)
  }

  private var deletion: PendingDeletion?
  private var completion: (task: TaskItem, done: Bool)?

  /// Remembers that the user ticked (`done`) or unticked `task`.
  func recordCompletion(_ task: TaskItem, done: Bool) {
    completion = (task, done)
  }

  /// Starts a deletion whose `toast` offers Undo; answers the one it replaces, to be carried out now.
  func begin(_ new: PendingDeletion) -> PendingDeletion? {
    defer { deletion = new }
    return deletion
  }

  /// Ends the deletion shown by `toast` (any, when nil) and answers it: its toast went (carry it out) or it is
  /// undone. Nil when it was already ended.
  func endDeletion(shownBy toast: Toast? = nil) -> PendingDeletion? {
    guard let current = deletion, toast == nil || current.toast == toast else { return nil }
    deletion = nil
    return current
  }

  /// Takes the last step out: the deletion whose toast shows, else the last completion.
  func takeLast() -> Step? {
    if let current = deletion {
      deletion = nil
      return .deletion(current)
    }
    guard let (task, done) = completion else { return nil }
    completion = nil
    return .completion(task, done: done)
  }
}

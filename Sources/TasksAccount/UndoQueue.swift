// UndoQueue: what Ctrl+Z and a notice's Undo take back. Main actor.

import FoundationEssentials
import TasksCore

/// Rows deleted in the list (one, or every completed task) whose deletion waits for their Undo notice to go away.
public struct PendingDeletion {
  /// Tells this deletion from the others (its notice's callbacks name it).
  public let id: Int
  public var keys: [RowKey]
  public var notice: any UndoNotice
}

/// What can be taken back: the deletion whose Undo notice shows (one at a time: a new one carries out the one before)
/// and, after it, the last completion the user made.
@MainActor
public final class UndoQueue {
  /// What Ctrl+Z takes back.
  public enum Step {
    case deletion(PendingDeletion)
    case completion(TaskItem, done: Bool)
  }

  private var deletion: PendingDeletion?
  private var completion: (task: TaskItem, done: Bool)?
  private var lastID = 0

  public init() {}

  /// A new deletion's id.
  func nextID() -> Int {
    lastID += 1
    return lastID
  }

  /// Remembers that the user ticked (`done`) or unticked `task`.
  func recordCompletion(_ task: TaskItem, done: Bool) {
    completion = (task, done)
  }

  /// Starts a deletion whose notice offers Undo; answers the one it replaces, to be carried out now.
  func begin(_ new: PendingDeletion) -> PendingDeletion? {
    defer { deletion = new }
    return deletion
  }

  /// Ends the deletion `id` (any, when nil) and answers it: its notice went (carry it out) or it is undone. Nil when
  /// it was already ended.
  func endDeletion(_ id: Int? = nil) -> PendingDeletion? {
    guard let current = deletion, id == nil || current.id == id else { return nil }
    deletion = nil
    return current
  }

  /// Takes the last step out: the deletion whose notice shows, else the last completion.
  func takeLast() -> Step? {
    if let current = deletion {
      deletion = nil
      return .deletion(current)
    }
    guard let (task, done) = completion else { return nil }
    completion = nil
    return .completion(task, done: done)
  }

  /// Forgets everything (signed out: nothing of the last account can be taken back in the next one).
  func clear() {
    deletion = nil
    completion = nil
  }
}

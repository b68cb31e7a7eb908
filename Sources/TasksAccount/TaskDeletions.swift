// TaskDeletions: deleting tasks with an Undo notice: the rows go at once, the deletion when the notice does. Main
// actor.

import FoundationEssentials
import TasksCore

/// Deletions of rows, one Undo at a time: the rows leave the list at once and a notice offers Undo; when it goes,
/// each deletion is kept in the outbox (on disk) and sent (offline, it waits there).
@MainActor
final class TaskDeletions {
  private unowned let list: TaskListOperations
  private let undoQueue: UndoQueue
  private unowned let host: any AccountHost

  init(list: TaskListOperations, undoQueue: UndoQueue, host: any AccountHost) {
    self.list = list
    self.undoQueue = undoQueue
    self.host = host
  }

  /// Takes the rows out at once and shows an Undo notice; the server hears of it when the notice goes away.
  func delete(_ keys: [RowKey]) {
    guard !keys.isEmpty, let presenter = list.presenter else { return }
    // One Undo at a time: an earlier deletion happens now.
    if let earlier = undoQueue.endDeletion() {
      earlier.notice.dismiss()
      commit(earlier)
    }
    list.view?.remove(keys)
    list.listChanged()
    // Short, as GNOME's toasts are: the task's text may be long, and the row is gone from view anyway.
    let title =
      keys.count == 1
      ? tr("Task deleted") : String(template: trn("%d task deleted", "%d tasks deleted", keys.count), keys.count)
    let id = undoQueue.nextID()
    let notice = presenter.showUndo(
      title,
      undo: { [unowned self] in if let deletion = self.undoQueue.endDeletion(id) { self.undo(deletion) } },
      dismissed: { [unowned self] in if let deletion = self.undoQueue.endDeletion(id) { self.commit(deletion) } })
    _ = undoQueue.begin(PendingDeletion(id: id, keys: keys, notice: notice))
  }

  /// Puts the rows of a deletion whose notice still shows back (Undo, Ctrl+Z; the queue has let go of it).
  func undo(_ deletion: PendingDeletion) {
    list.view?.restore(deletion.keys, focusing: true)
    list.listChanged()
    deletion.notice.dismiss()
  }

  /// Carries out a deletion whose notice is still showing (quitting, signing out, deleting another); answers the
  /// request, for a caller that must wait for it.
  @discardableResult
  func finishPending() -> Task<Void, Never>? {
    guard let deletion = undoQueue.endDeletion() else { return nil }
    deletion.notice.dismiss()
    return commit(deletion)
  }

  /// Carries out a deletion: each task's goes into the outbox (on disk) and the row is gone for good; then the
  /// outbox is sent (offline, the deletions wait there). The app is held until the server has answered, so that
  /// quitting does not cut the request short.
  @discardableResult
  private func commit(_ deletion: PendingDeletion) -> Task<Void, Never>? {
    let release = host.holdApplication()
    return Task {
      defer { release() }
      guard let files = await list.currentFiles() else { return }
      let outbox = files.outbox
      var unsaved: [RowKey] = []
      for key in deletion.keys {
        do {
          switch key {
          case .task(let id): try await outbox.delete(id)
          case .pending(let id): try await outbox.remove(id)
          }
          list.view?.forget(key)
        } catch {
          unsaved.append(key)
        }
      }
      if !unsaved.isEmpty {
        list.view?.restore(unsaved, focusing: false)
        list.listChanged()
        list.presenter?.showMessage(
          tr("The task could not be deleted. Check that your disk is not full."), aboutList: true)
      }
      await list.sendChanges(files)
    }
  }
}

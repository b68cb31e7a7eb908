// TaskDeletions: deleting tasks with an Undo toast: the rows go at once, the deletion when the toast does. Main
// actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// Deletions of rows, one Undo at a time: the rows leave the list at once and a toast offers Undo; when it goes,
/// each deletion is kept in the outbox (on disk) and sent (offline, it waits there).
@MainActor
final class TaskDeletions {
  private let list: TaskListController
  private let undoQueue: UndoQueue
  private unowned let window: any TaskListWindow
  /// The signed-in account's files (nil: nobody is signed in).
  private let files: @MainActor () async -> AccountFiles?
  /// Sends what waits in an outbox.
  private let send: @MainActor (AccountFiles) async -> Void

  init(
    list: TaskListController, undoQueue: UndoQueue, window: any TaskListWindow,
    files: @escaping @MainActor () async -> AccountFiles?, send: @escaping @MainActor (AccountFiles) async -> Void
  ) {
    self.list = list
    self.undoQueue = undoQueue
    self.window = window
    self.files = files
    self.send = send
  }

  /// Takes the rows out at once and shows an Undo toast; the server hears of it when the toast goes away.
  func delete(_ keys: [RowKey]) {
    guard !keys.isEmpty else { return }
    list.remove(keys)
    window.showTasksPage()
    // Short, as GNOME's toasts are: the task's text may be long, and the row is gone from view anyway.
    let title =
      keys.count == 1
      ? tr("Task deleted") : String(template: trn("%d task deleted", "%d tasks deleted", keys.count), keys.count)
    let toast = Toast.new(title, button: tr("Undo"), urgent: true)
    // One Undo at a time: an earlier deletion happens now.
    if let earlier = undoQueue.begin(PendingDeletion(keys: keys, toast: toast)) {
      earlier.toast.dismiss()
      commit(earlier)
    }
    toast.onButtonClicked { [unowned self] in
      if let deletion = self.undoQueue.endDeletion(shownBy: toast) { self.undo(deletion) }
    }
    toast.onDismissed { [unowned self] in
      if let deletion = self.undoQueue.endDeletion(shownBy: toast) { self.commit(deletion) }
    }
    window.present(toast)
  }

  /// Puts the rows of a deletion whose toast still shows back (Undo, Ctrl+Z; the queue has let go of it).
  func undo(_ deletion: PendingDeletion) {
    list.restore(deletion.keys, focusing: true)
    window.showTasksPage()
    deletion.toast.dismiss()
  }

  /// Carries out a deletion whose toast is still showing (quitting, signing out, deleting another); answers the
  /// request, for a caller that must wait for it. The app is held until the server has answered, so that quitting
  /// does not cut the request short.
  @discardableResult
  func finishPending() -> Task<Void, Never>? {
    guard let deletion = undoQueue.endDeletion() else { return nil }
    deletion.toast.dismiss()
    return commit(deletion)
  }

  /// Carries out a deletion: each task's goes into the outbox (on disk) and the row is gone for good; then the
  /// outbox is sent (offline, the deletions wait there).
  @discardableResult
  private func commit(_ deletion: PendingDeletion) -> Task<Void, Never>? {
    let release = window.holdApplication()
    return Task {
      defer { release() }
      guard let files = await files() else { return }
      let outbox = files.outbox
      var unsaved: [RowKey] = []
      for key in deletion.keys {
        do {
          switch key {
          case .task(let id): try await outbox.delete(id)
          case .pending(let id): try await outbox.remove(id)
          }
          list.forget(key)
        } catch {
          unsaved.append(key)
        }
      }
      if !unsaved.isEmpty {
        list.restore(unsaved)
        window.showTasksPage()
        window.showToast(tr("The task could not be deleted. Check that your disk is not full."), aboutList: true)
      }
      await send(files)
    }
  }
}

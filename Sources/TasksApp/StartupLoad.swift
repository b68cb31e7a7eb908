// StartupLoad: what a signed-in start needs (the session, the account's files and its copy of the lists), read while
// GTK builds the window.

import FoundationEssentials
import TasksAccount
import TasksCore

/// Started with the application, before the window exists: asks the keyring for the session on another thread while
/// the main thread builds and paints the window, then reads the account's copy of the lists on that thread too. A
/// signed-in start then waits for the keyring and the disk only for as long as they take beyond GTK's own start; the
/// copy is shown in the first frame, then what the service says.
final class StartupLoad: Sendable {
  /// The restored account with its files and the copy of its lists on disk.
  struct Restored: Sendable {
    let account: Account
    let files: AccountFiles
    let saved: PlannerOperations.SavedCopy
  }

  /// The session from the keyring: nil when no one is signed in (or the stored one can no longer be used).
  let restored: Task<Result<Restored?, SessionError>, Never>

  /// Starts restoring `session`'s account.
  init(session: Session) {
    restored = Task.detached { () -> Result<Restored?, SessionError> in
      do throws(SessionError) {
        guard let account = try await session.restore() else { return .success(nil) }
        // The first sync follows: its connection is opened while the copy is read and the window drawn.
        await session.http.prepare(for: session.settings.taskAPI)
        let files = AccountFiles(account: account, in: session.key)
        return .success(Restored(account: account, files: files, saved: PlannerOperations.readSaved(files)))
      } catch {
        return .failure(error)
      }
    }
  }
}

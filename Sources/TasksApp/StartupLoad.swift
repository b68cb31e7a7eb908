// StartupLoad: what a signed-in start needs (the session and the account's files), read while GTK builds the window.

import FoundationEssentials
import TasksAccount
import TasksCore

/// Started with the application, before the window exists: asks the keyring for the session on another thread while
/// the main thread builds and paints the window. A signed-in start then waits for the keyring only for as long as it
/// takes beyond GTK's own start; the planner's copy on disk is shown next, then what the service says.
final class StartupLoad: Sendable {
  /// The restored account with its files.
  struct Restored: Sendable {
    let account: Account
    let files: AccountFiles
  }

  /// The session from the keyring: nil when no one is signed in (or the stored one can no longer be used).
  let restored: Task<Result<Restored?, SessionError>, Never>

  /// Starts restoring `session`'s account.
  init(session: Session) {
    restored = Task.detached { () -> Result<Restored?, SessionError> in
      do throws(SessionError) {
        guard let account = try await session.restore() else { return .success(nil) }
        return .success(Restored(account: account, files: AccountFiles(account: account, in: session.key)))
      } catch {
        return .failure(error)
      }
    }
  }
}

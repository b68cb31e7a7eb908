// StartupLoad: what a signed-in start needs (session, offline copy, list), fetched while GTK builds the window.

import FoundationEssentials
import Synchronization
import TasksAccount
import TasksCore
import TasksKeyring
import TasksSoup

/// Started with the application, before the window exists: asks the keyring for the session, reads the offline
/// copy and loads the list on other threads while the main thread builds and paints the window. A signed-in start
/// then waits for the keyring and the network only for as long as they take beyond GTK's own start.
final class StartupLoad: Sendable {
  /// The restored account with its files and, when there is one, the list kept from the last time.
  struct Restored: Sendable {
    let account: Account
    let files: AccountFiles
    let offlineCopy: CachedTaskList?
  }

  let session: Session
  /// The session from the keyring: nil when no one is signed in (or the stored one can no longer be used).
  let restored: Task<Result<Restored?, SessionError>, Never>
  /// The first load of the list; nil when there is no account.
  let list: Task<ListFetch?, Never>
  private let listArrived = Flag()

  /// Starts loading `session`'s account and list.
  init(session: Session) {
    self.session = session
    let restored = Task.detached { () -> Result<Restored?, SessionError> in
      do throws(SessionError) {
        guard let account = try await session.restore() else { return .success(nil) }
        let files = AccountFiles(account: account, in: session.key)
        return .success(Restored(account: account, files: files, offlineCopy: try? await files.cache.load()))
      } catch {
        return .failure(error)
      }
    }
    self.restored = restored
    let arrived = listArrived
    list = Task.detached {
      guard case .success(let restored?) = await restored.value else { return nil }
      let fetch = await ListFetch.run(session, restored.files)
      arrived.set()
      return fetch
    }
  }

  /// Whether the list has been loaded already (then showing the offline copy first would only cost time).
  var listIsReady: Bool { listArrived.isSet }

  private final class Flag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
  }
}

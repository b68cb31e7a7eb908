// StartupLoad: what a signed-in start needs (session, offline copy, list), fetched while GTK builds the window.

import FoundationEssentials
import Synchronization
import TasksCore
import TasksKeyring
import TasksSoup

/// One load of the list: what the outbox sent on the way, then the server's list or why it could not be had.
struct ListFetch: Sendable {
  var flushed: Outbox.FlushResult
  var tasks: Result<[TaskItem], TaskAPIError>
  /// The server's version of the list loaded (its ETag), when it sent one.
  var version: String?

  /// Sends what waits in `files`' outbox, then asks the server for the list: only if it changed, when `known` is
  /// this account's last list with its version (a live refresh of an unchanged list then costs a 304, not the
  /// whole list). Runs on no particular thread.
  static func run(_ session: Session, _ files: AccountFiles, known: KnownList? = nil) async -> ListFetch {
    // Bound to the account whose files these are: if the session switches to another account meanwhile, nothing of
    // this one's is sent with the other's token, and the other's list is not kept as this one's copy.
    let client = TaskAPIClient(session: session, account: files.objectID)
    let flushed = await files.outbox.flush(client)
    let known = known?.objectID == files.objectID ? known : nil
    do throws(TaskAPIError) {
      // nil (304) only when asked with `known`'s version: then it is `known`'s list.
      guard let list = try await client.list(unlessStill: known?.list.version) ?? known?.list else {
        throw .badResponse("304 Not Modified to a request without If-None-Match")
      }
      return ListFetch(flushed: flushed, tasks: .success(list.tasks), version: list.version)
    } catch {
      return ListFetch(flushed: flushed, tasks: .failure(error))
    }
  }
}

/// An account's last list from the server, with its version: what a refresh asks "has it changed?" about.
struct KnownList: Sendable {
  /// The account's object id (versions are the server's per user: never sent for another account).
  let objectID: String
  let list: TaskList
}

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

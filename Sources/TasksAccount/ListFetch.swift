// ListFetch, KnownList: one load of an account's list: the outbox sent first, then the server's list, asked only if
// it changed.

import FoundationEssentials
import TasksCore

/// One load of the list: what the outbox sent on the way, then the server's list or why it could not be had.
public struct ListFetch: Sendable {
  public var flushed: Outbox.FlushResult
  public var tasks: Result<[TaskItem], TaskAPIError>
  /// The server's version of the list loaded (its ETag), when it sent one.
  public var version: String?

  public init(flushed: Outbox.FlushResult, tasks: Result<[TaskItem], TaskAPIError>, version: String? = nil) {
    self.flushed = flushed
    self.tasks = tasks
    self.version = version
  }

  /// Sends what waits in `files`' outbox, then asks the server for the list: only if it changed, when `known` is
  /// this account's last list with its version (a live refresh of an unchanged list then costs a 304, not the
  /// whole list). Runs on no particular thread.
  public static func run(_ session: Session, _ files: AccountFiles, known: KnownList? = nil) async -> ListFetch {
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
public struct KnownList: Sendable {
  /// The account's object id (versions are the server's per user: never sent for another account).
  public let objectID: String
  public let list: TaskList

  public init(objectID: String, list: TaskList) {
    self.objectID = objectID
    self.list = list
  }
}

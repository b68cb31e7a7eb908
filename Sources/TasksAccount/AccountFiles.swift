// AccountFiles, WebSessionFolders: what an account leaves on this computer besides the keyring: its outbox, its
// offline copy, and the provider's cookies kept for "Keep me signed in". Made here and nowhere else.

import FoundationEssentials
import TasksCore

/// One account's files: the outbox of tasks and changes waiting to be sent and the offline copy of the list.
public struct AccountFiles: Sendable {
  /// The account's object id (the files are the account's own: never read for another).
  public let objectID: String
  /// Whose files they are.
  public let account: Account
  public let outbox: Outbox
  public let cache: TaskCache

  /// The files of `account` under the session `key` (its keychain group), in the XDG folders of `environment`.
  public init(
    account: Account, in key: SessionKey, environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    objectID = account.objectID
    self.account = account
    outbox = Outbox(file: Outbox.file(for: account, in: key, environment: environment))
    cache = TaskCache(account: account, in: key, environment: environment)
  }
}

/// Where the embedded sign-in view keeps the provider's cookies and storage when the user chose "Keep me signed in":
/// its website data and its cache. Sign-out removes both, so the next sign-in asks for the password again.
public struct WebSessionFolders: Sendable, Equatable {
  public let data: URL
  public let cache: URL

  /// The app's folders in the XDG folders of `environment`.
  public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    data = XDGDirectory.data.appFolder(environment: environment).appending(
      path: "web-session", directoryHint: .isDirectory)
    cache = XDGDirectory.cache.appFolder(environment: environment).appending(
      path: "web-session", directoryHint: .isDirectory)
  }

  /// Deletes both folders and what is in them.
  public func remove() {
    try? FileManager.default.removeItem(at: data)
    try? FileManager.default.removeItem(at: cache)
  }
}

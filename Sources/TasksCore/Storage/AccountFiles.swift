// AccountFiles, WebSessionFolders: every file an account leaves on this computer besides the keyring, named here and
// nowhere else (the window, the CLI and the reminder service all take them from here), and what a sign-out forgets.
// Values; any thread.

import FoundationEssentials

/// One account's files, each the account's own (never read for another), in the XDG folders of an environment:
/// - the planner's copy of the change feed (`replica`) and the outbox of its edits (`plannerOutbox`);
/// - the reminder service's agenda (`reminderAgenda`), the reminders it showed (`reminderLedger`) and the outbox of
///   its buttons' edits (`reminderOutbox`: two processes never write one file);
/// - what the versions before the planner kept: the sample's list outbox (`legacyOutbox`, carried over to the service
///   at the planner's first read, then removed) and its offline copy (`legacyOfflineCopy`, removed).
/// A sign-out removes them all (`forget`).
public struct AccountFiles: Sendable {
  /// Whose files they are.
  public let account: Account
  /// The planner's copy of the change feed (`data/…/planner/`).
  public let replica: URL
  /// The window's and the CLI's edits waiting to be sent (`data/…/planner-outbox/`).
  public let plannerOutbox: URL
  /// The reminder service's agenda with the feed's token (`data/…/reminders/*.json`).
  public let reminderAgenda: URL
  /// The reminders the service showed: task ids and moments (`data/…/reminders/*.fired`).
  public let reminderLedger: URL
  /// The reminder service's buttons' edits waiting to be sent (`data/…/reminders-outbox/`).
  public let reminderOutbox: URL
  /// The edits of the sample's list that an earlier version kept while offline (sent through the sample's API).
  public let legacyOutbox: URL
  /// The sample's list as an earlier version kept it offline (the replica is the offline copy now).
  public let legacyOfflineCopy: URL

  /// The account's object id.
  public var objectID: String { account.objectID }

  /// The files of `account` under the session `key` (its keychain group), in the XDG folders of `environment`.
  public init(
    account: Account, in key: SessionKey, environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    self.account = account
    let data = XDGDirectory.data.appFolder(environment: environment)
    func file(_ folder: URL, _ suffix: String = "json") -> URL {
      XDGDirectory.accountFile(folder, for: account, in: key, extension: suffix)
    }
    replica = file(data.appending(path: "planner"))
    plannerOutbox = file(data.appending(path: "planner-outbox"))
    reminderAgenda = file(data.appending(path: "reminders"))
    reminderLedger = file(data.appending(path: "reminders"), "fired")
    reminderOutbox = file(data.appending(path: "reminders-outbox"))
    legacyOutbox = file(data.appending(path: "outbox"))
    legacyOfflineCopy = file(XDGDirectory.cache.appFolder(environment: environment).appending(path: "tasks"))
  }

  /// Every file of the account.
  public var all: [URL] {
    [replica, plannerOutbox, reminderAgenda, reminderLedger, reminderOutbox, legacyOutbox, legacyOfflineCopy]
  }

  /// How many edits wait to be sent in the account's outboxes (the window's, the reminder service's buttons', and an
  /// earlier version's): what a sign-out would discard if they cannot be sent first. Edits the service refused are
  /// not counted (they are never sent again); the files are only read.
  public func waitingChanges() async -> Int {
    var count = PlannerOutbox.waiting(in: plannerOutbox) + PlannerOutbox.waiting(in: reminderOutbox)
    if FileManager.default.fileExists(atPath: legacyOutbox.path) {
      let legacy = Outbox(file: legacyOutbox)
      count += await legacy.pending.count + legacy.pendingChanges.count
    }
    return count
  }

  /// What a sign-out forgets, through every door (the window, the CLI, the broker, another app's sign-out): every
  /// file of the account, the reminder service's agenda, ledger and outbox included, so that nothing of the account
  /// (nor of the people who share lists with it) stays on this computer. Each door first sends what waits, and the
  /// window and the CLI ask before discarding what cannot be sent (`waitingChanges`). Signed in again, a reminder
  /// that had fired and was never dismissed shows once more, as missed.
  public func forget() {
    for file in all { try? FileManager.default.removeItem(at: file) }
  }

  /// What signing in as someone else forgets of the account before (not signed out: its session went, or another
  /// app signed in as someone else): the copies of its lists and tasks, the feed's and the reminder agenda; what
  /// waits in its outboxes, and its ledger, stay for its next sign-in. `outbox`: the planner outbox this process
  /// writes the account's edits through, when it has one (asked, not read anew: an edit it writes meanwhile stays).
  public func forgetCopies(outbox: PlannerOutbox? = nil) async {
    for copy in [replica, reminderAgenda, legacyOfflineCopy] { try? FileManager.default.removeItem(at: copy) }
    await (outbox ?? PlannerOutbox(file: plannerOutbox)).removeFileIfEmpty()
    await PlannerOutbox(file: reminderOutbox).removeFileIfEmpty()
  }
}

/// Where the embedded sign-in view keeps the provider's cookies and storage when the user chose "Keep me signed in":
/// its website data and its cache. Sign-out removes both, so the next sign-in asks for the password again.
public struct WebSessionFolders: Sendable, Equatable {
  /// The web view's website data.
  public let data: URL
  /// The web view's cache.
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

// DAVStore: what the CalDAV face reads and writes besides a task's fields: each task's resource (the name a client
// gave it, its iCalendar UID, the text it last wrote), a collection read at once with its sync position, and the app
// passwords CalDAV clients sign in with. Sendable values.

import Foundation

/// A task's CalDAV resource. A task made through the JSON API or the app has none of it: its name is its id with
/// `.ics`, its UID its id. The text is kept as the client wrote it: what the service does not model is given back.
public struct DAVRecord: Sendable, Equatable {
  public var name: String?
  public var uid: String?
  public var ical: String?

  public init(name: String? = nil, uid: String? = nil, ical: String? = nil) {
    self.name = name
    self.uid = uid
    self.ical = ical
  }
}

/// A task as a CalDAV resource.
public struct DAVTask: Sendable, Equatable {
  public var stored: StoredTask
  public var record: DAVRecord
  /// The UID of the task's parent (a subtask's), as the parent's resource says it.
  public var parentUID: String?

  public init(stored: StoredTask, record: DAVRecord, parentUID: String?) {
    self.stored = stored
    self.record = record
    self.parentUID = parentUID
  }

  /// The resource's name in its collection.
  public var name: String { record.name ?? stored.id.lowercased + ".ics" }
  public var uid: String { record.uid ?? stored.id.lowercased }
  /// Strong: the task's version, which every change of its fields or of its text moves on.
  public var etag: String { stored.etag }

  /// The id a name without a record stands for (`<uuid>.ics`).
  public static func id(ofDefaultName name: String) -> UUID? {
    guard name.hasSuffix(".ics") else { return nil }
    return UUID(uuidString: String(name.dropLast(4)))
  }
}

/// Which tasks of a collection a read returns.
public enum DAVSelection: Sendable, Equatable {
  /// None: the collection's properties alone.
  case none
  case all
  /// Those named, and those whose UID is one of `uids`.
  case lookup(names: [String], uids: [String])
  /// Those changed after a sync position, and the names of those gone since (`DAVCollection.deleted`).
  case since(Int64)
}

/// A collection (a list) as one member reads it, at one moment.
public struct DAVCollection: Sendable, Equatable {
  public var list: PlannerListView
  /// The list's position on the change feed: any change of its tasks moves it on (the sync token and the ctag).
  public var position: Int64
  /// The name the owner's client made the collection under (`MKCALENDAR …/work/`), if not its id.
  public var name: String?
  /// The colour the caller's CalDAV clients gave it (`#RRGGBB` or `#RRGGBBAA`; each member's own).
  public var color: String?
  public var tasks: [DAVTask] = []
  /// With `.since`: the names of the resources gone from the list after that position.
  public var deleted: [String] = []

  public init(list: PlannerListView, position: Int64, name: String? = nil) {
    self.list = list
    self.position = position
    self.name = name
  }
}

/// An app password as kept: never the password itself, only its slow salted hash.
public struct AppPasswordRecord: Sendable, Equatable {
  public var id: UUID
  /// The account (`TaskOwner.key`) it signs in as, and the name the account's token gave when it was made.
  public var owner: String
  public var displayName: String?
  public var username: String
  /// What the user called it ("Phone").
  public var name: String
  public var hash: String
  public var createdAt: Date
  public var lastUsedAt: Date?

  public init(
    id: UUID, owner: String, displayName: String?, username: String, name: String, hash: String, createdAt: Date,
    lastUsedAt: Date? = nil
  ) {
    self.id = id
    self.owner = owner
    self.displayName = displayName
    self.username = username
    self.name = name
    self.hash = hash
    self.createdAt = createdAt
    self.lastUsedAt = lastUsedAt
  }
}

/// The CalDAV face's storage, beside `PlannerStore`'s.
public protocol DAVStore: PlannerStore {
  /// The caller's list `listID` with the tasks `selection` picks, or nil when the caller is no member of it; throws
  /// `PlannerFeedRefusal.gone` for a position from before the deletions the feed forgot.
  func davCollection(caller: String, listID: UUID, _ selection: DAVSelection) async throws -> DAVCollection?
  /// Keeps the name a client made the caller's own list `listID` under (its address in the caller's home).
  func nameCollection(caller: String, listID: UUID, name: String) async throws
  /// Keeps the colour (nil: none) the caller's clients gave list `listID`, the caller's own.
  func colorCollection(caller: String, listID: UUID, color: String?) async throws
  /// Keeps a new app password; false when the account has `AppPasswords.maxPerAccount` already.
  func addAppPassword(_ record: AppPasswordRecord) async throws -> Bool
  /// The account's app passwords, oldest first.
  func appPasswords(owner: String) async throws -> [AppPasswordRecord]
  /// The app passwords a username signs in with.
  func appPasswords(username: String) async throws -> [AppPasswordRecord]
  /// Revokes one of the account's app passwords; false when it has no such one.
  func deleteAppPassword(owner: String, id: UUID) async throws -> Bool
  /// Notes that an app password was used at `at`.
  func appPasswordUsed(id: UUID, at: Date) async throws
}

extension PlannerStore {
  /// A write through the JSON API (the task's CalDAV resource stays as it is).
  public func writeTask(caller: String, listID: UUID, id: UUID, _ write: PlannerTaskWrite, now: Date) async throws
    -> PlannerOutcome<StoredTask>
  {
    try await writeTask(caller: caller, listID: listID, id: id, write, record: nil, now: now)
  }
}

extension PlannerRules {
  /// What a write that also sets the task's CalDAV resource answers: the task's next version when its fields stayed
  /// as they were but its resource changed (clients read it again), else `outcome`.
  public static func withRecord(
    _ outcome: PlannerOutcome<StoredTask>, unchanged current: StoredTask?, recordChanged: Bool, now: Date
  ) -> PlannerOutcome<StoredTask> {
    guard recordChanged, case .done(var task) = outcome, task == current else { return outcome }
    task.version += 1
    task.updatedAt = now
    return .done(task)
  }
}

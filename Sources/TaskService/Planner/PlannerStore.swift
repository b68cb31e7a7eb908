// PlannerStore: the task API v2's storage (lists, their members, tasks, the change feed), its values, and the rules
// every store applies the same way (PlannerRules: what a write does to what is stored). Sendable values.

import Foundation
import TasksCalendar

/// Who calls: the owner key (`TaskOwner.key`) and the name the token gives (`name`), if any.
public struct PlannerCaller: Sendable, Equatable {
  public let key: String
  public let displayName: String?

  public init(key: String, displayName: String?) {
    self.key = key
    self.displayName = displayName
  }
}

/// A list as one member sees it.
public struct PlannerListView: Sendable, Equatable {
  public enum Role: String, Sendable { case owner, member }
  public var id: UUID
  public var name: String
  public var sortKey: String
  public var isDefault: Bool
  public var createdAt: Date
  public var updatedAt: Date
  public var version: Int64
  public var role: Role
  /// How many accounts share it (1: the owner alone).
  public var memberCount: Int

  public init(
    id: UUID, name: String, sortKey: String, isDefault: Bool, createdAt: Date, updatedAt: Date, version: Int64,
    role: Role, memberCount: Int
  ) {
    self.id = id
    self.name = name
    self.sortKey = sortKey
    self.isDefault = isDefault
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.version = version
    self.role = role
    self.memberCount = memberCount
  }

  public var etag: String { "\"\(version)\"" }

  public var jsonObject: [String: Any] {
    [
      "id": id.uuidString.lowercased(), "name": name, "sortKey": sortKey, "isDefault": isDefault,
      "createdAt": JSONWriter.timestamp(createdAt), "updatedAt": JSONWriter.timestamp(updatedAt), "version": version,
      "role": role.rawValue, "shared": memberCount > 1,
    ]
  }
}

/// A member of a list, as the list's members see them: an id of the membership (not the account's key), the name
/// their token gave, and their role.
public struct PlannerMember: Sendable, Equatable {
  public var id: UUID
  public var displayName: String?
  public var role: PlannerListView.Role
  /// Whether this member is the caller.
  public var isCaller: Bool

  public init(id: UUID, displayName: String?, role: PlannerListView.Role, isCaller: Bool) {
    self.id = id
    self.displayName = displayName
    self.role = role
    self.isCaller = isCaller
  }

  public var jsonObject: [String: Any] {
    [
      "id": id.uuidString.lowercased(), "displayName": displayName ?? NSNull(), "role": role.rawValue,
      "you": isCaller,
    ]
  }
}

/// What changed for a caller after a feed position: lists and tasks as they are now, the ids of lists the caller
/// no longer has and of tasks gone from the lists the caller has, and the position to ask from next.
public struct PlannerFeedPage: Sendable, Equatable {
  public var lists: [PlannerListView] = []
  public var tasks: [StoredTask] = []
  public var deletedLists: [UUID] = []
  public var deletedTasks: [UUID] = []
  /// The position this read is up to (the caller's position when it began).
  public var next: Int64
  /// Where the next page of this read starts, when there is one (the page held `limit` tasks and more were left).
  public var more: PlannerFeedCursor?

  public init(next: Int64) { self.next = next }

  /// The token the answer names as `next`.
  public var nextToken: String { more?.token ?? PlannerFeedCursor(after: next).token }
}

/// Where a feed read starts: after a position (nil: everything), or, in a read cut into pages, after the last task
/// sent of those changed up to the position the read began at (`upTo`).
///
/// A read cut into pages is one read: its tasks are those whose change (or whose list's joining) is after `after`
/// and at most `upTo`, sent in id order (SQLite: in list order, then id order within a list, which its indexes walk
/// without sorting; the cursor then also names the last task's list); lists and deletions come with its first page.
/// A task changed while the pages are read gets a number after `upTo`, leaves this read and comes with the next one,
/// which starts at `upTo`: nothing is skipped however the writes and the pages interleave (a task's list changes only
/// with a change, so the order of the tasks left in a read does not).
public struct PlannerFeedCursor: Sendable, Equatable {
  public var after: Int64?
  public var upTo: Int64?
  /// The list of the last task sent, when the store sends a read's tasks in list order.
  public var lastList: UUID?
  public var lastTask: UUID?

  public init(after: Int64?, upTo: Int64? = nil, lastList: UUID? = nil, lastTask: UUID? = nil) {
    self.after = after
    self.upTo = upTo
    self.lastList = lastList
    self.lastTask = lastTask
  }

  /// `c7` (after 7), `c.40.<id>` (everything up to 40, after the task id), `c7.40.<id>`, or with the last task's
  /// list: `c7.40.<list>.<id>`, both in base64url (22 characters each: clients take tokens of at most 96).
  public init?(token: String) {
    guard token.first == "c", token.utf8.count <= 96 else { return nil }
    let parts = token.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
    func number(_ text: Substring) -> Int64? {
      guard (1...18).contains(text.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
      return Int64(text)
    }
    func id(_ text: Substring) -> UUID? {
      guard let id = UUID(uuidString: String(text)), text == id.uuidString.lowercased() else { return nil }
      return id
    }
    func compact(_ text: Substring) -> UUID? {
      guard text.utf8.count == 22, let id = UUID(base64URL: text), id.base64URL == text else { return nil }
      return id
    }
    switch parts.count {
    case 1:
      guard let after = number(parts[0]) else { return nil }
      self.init(after: after)
    case 3, 4:
      guard let upTo = number(parts[1]) else { return nil }
      let (lastList, lastTask) = parts.count == 4 ? (compact(parts[2]), compact(parts[3])) : (nil, id(parts[2]))
      guard let last = lastTask, parts.count == 3 || lastList != nil else { return nil }
      var after: Int64?
      if !parts[0].isEmpty {
        guard let number = number(parts[0]) else { return nil }
        after = number
      }
      self.init(after: after, upTo: upTo, lastList: lastList, lastTask: last)
    default: return nil
    }
  }

  public var token: String {
    let start = after.map(String.init) ?? ""
    guard let upTo, let lastTask else { return "c" + start }
    if let lastList { return "c\(start).\(upTo).\(lastList.base64URL).\(lastTask.base64URL)" }
    return "c\(start).\(upTo).\(lastTask.uuidString.lowercased())"
  }

  /// Whether this starts a read (not a page after the first).
  public var isFirstPage: Bool { upTo == nil }

  /// The position the read is up to, given the caller's position now; throws when the store cannot answer.
  public func upTo(position: Int64, horizon: Int64) throws(PlannerFeedRefusal) -> Int64 {
    if let upTo {
      // Later pages send no deletions: only a position past the caller's (a restored backup) is refused, and a
      // token no answer wrote (starting after where it ends).
      if upTo > position || (after ?? -1) > upTo { throw .gone }
      return upTo
    }
    if let after { try PlannerFeedRefusal.check(after, position: position, horizon: horizon) }
    return position
  }

  /// The first page of a read sends no more than this many tasks unless the client asks otherwise.
  public static let pageSize = 1_000
  /// The most tasks a page may hold.
  public static let maxPageSize = 5_000
}

/// A feed position the store cannot answer from: its deletions were pruned, or it is past the caller's position
/// (the database was restored from a backup older than the token). Either way the client reads everything again.
public enum PlannerFeedRefusal: Error, Sendable, Equatable {
  case gone

  public static func check(_ since: Int64, position: Int64, horizon: Int64) throws(PlannerFeedRefusal) {
    if since > position || since < horizon { throw .gone }
  }
}

/// What to do to a list.
public enum PlannerListWrite: Sendable, Equatable {
  /// Create with the client's id; an existing list of the caller's with this id is answered as it is (a replay).
  case create(name: String, sortKey: String)
  case change(name: String?, sortKey: String?, ifMatch: Int64?)
  case delete(ifMatch: Int64?)
}

/// What to do to a task.
public enum PlannerTaskWrite: Sendable, Equatable {
  /// Create with the client's id; an existing task of this list with this id is answered as it is (a replay).
  case create(TaskChanges)
  case change(TaskChanges, ifMatch: Int64?)
  /// Finish the occurrence due on `occurrence`, the user's day being `today`.
  case complete(occurrence: CalendarDate, today: CalendarDate)
  case delete(ifMatch: Int64?)
}

/// How a write went.
public enum PlannerOutcome<Value: Sendable>: Sendable {
  case created(Value)
  case done(Value)
  case deleted
  /// No such list or task for this caller (also when it exists for others: never a hint that it does).
  case notFound
  /// `If-Match` named an older version: the current one.
  case preconditionFailed(Value)
  case invalid(FieldError)
  /// The caller may see it but not do this (a member deleting a shared list).
  case forbidden(String)
  /// It cannot be done as things are (the id is another's, the default list cannot be deleted).
  case conflict(String)
}

/// The task API v2's storage. Every call names the caller, and answers only what the caller's lists hold.
public protocol PlannerStore: Sendable {
  /// The caller's lists (the default one made if the caller has none yet).
  func lists(caller: PlannerCaller) async throws -> [PlannerListView]
  func list(caller: String, id: UUID) async throws -> PlannerListView?
  func writeList(caller: PlannerCaller, id: UUID, _ write: PlannerListWrite, now: Date) async throws
    -> PlannerOutcome<PlannerListView>
  /// A list's tasks, or nil when the caller has no such list.
  func tasks(caller: String, listID: UUID) async throws -> [StoredTask]?
  func task(caller: String, listID: UUID, id: UUID) async throws -> StoredTask?
  /// A task write; with `record`, the task's CalDAV resource is set in the same transaction (a change of the
  /// resource alone moves the task's version on, see `PlannerRules.withRecord`).
  func writeTask(
    caller: String, listID: UUID, id: UUID, _ write: PlannerTaskWrite, record: DAVRecord?, now: Date
  ) async throws -> PlannerOutcome<StoredTask>
  /// What changed for the caller from `cursor` (see `PlannerFeedCursor`), at most `limit` tasks; throws
  /// `PlannerFeedRefusal`. The first page's `next` is the caller's feed position (see `readFeedPositions`).
  func changes(caller: PlannerCaller, from cursor: PlannerFeedCursor, limit: Int) async throws -> PlannerFeedPage
  /// For each member, the number of the last change of anything they have (a list, its tasks, its members, their
  /// own removal from a list), kept by the database on every write; a member left out has none yet. A feed token
  /// equal to it means nothing changed: answered from this one-row read, which concurrent feed requests share
  /// (`ListVersionReads`). Calls `completion` once, on any thread.
  func readFeedPositions(
    members: [String], completion: @escaping @Sendable (Result<[String: Int64], any Error>) -> Void)
  /// Rung with the members whose feed position moved, once the change is committed (the long poll's wake-up).
  var feedBell: FeedBell { get }
  /// Keeps an invitation to the caller's own list (by the code's hash); false when the caller does not own it.
  func invite(caller: String, listID: UUID, codeHash: Data, expiresAt: Date) async throws -> Bool
  /// Uses an invitation: the caller becomes a member of its list. Nil when the code is unknown, used or expired.
  func join(caller: PlannerCaller, codeHash: Data, now: Date) async throws -> PlannerListView?
  /// The list's members, or nil when the caller is none of them.
  func members(caller: String, listID: UUID) async throws -> [PlannerMember]?
  /// Removes a member (the owner removes anyone else, a member themself): `.deleted`, `.notFound`, `.forbidden`.
  func removeMember(caller: String, listID: UUID, memberID: UUID, now: Date) async throws -> PlannerOutcome<
    PlannerMember
  >
  /// Forgets deletions older than `before` (then a feed position from before them is `gone`).
  func pruneFeed(before: Date) async throws
}

extension StoredTask {
  /// The stored task with `task` as its fields: its next version, changed at `now`; itself when nothing changed.
  func becoming(_ task: PlannerTask, at now: Date) -> StoredTask {
    guard task != self.task else { return self }
    var next = self
    next.task = task
    next.updatedAt = now
    next.version += 1
    return next
  }
}

/// The rules of writes, the same for every store: each store reads what a write needs (in its transaction, locked),
/// asks these, and stores what they answer.
public enum PlannerRules {
  /// The longest list name, in code points.
  public static let maxListName = 200
  /// The most lists an account may own, and tasks a list may hold (a bound on what one account can make the
  /// service keep).
  public static let maxLists = 500
  public static let maxTasksPerList = 50_000
  /// The most invitations a list may have open (not used, not expired), and members (its owner included): one
  /// account cannot make the service keep unbounded rows for a list.
  public static let maxOpenInvitations = 20
  public static let maxMembers = 100

  /// What a store throws when a cap is reached (answered 409 with the message).
  public struct CapReached: Error, Equatable, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public static let invitations = CapReached(
      "A list can have at most \(maxOpenInvitations) invitations open; each can be used once, for 7 days.")
    public static let members = CapReached("A list can have at most \(maxMembers) members.")
  }

  /// What a task write makes of `current` (the stored task with this id in this list, if any; `elsewhere`: the id
  /// is taken by a task of another list). `parent` is the stored task a change names as parent, if it exists in
  /// this list; `hasSubtasks` whether any task names `current` as its parent.
  public static func task(
    _ write: PlannerTaskWrite, current: StoredTask?, elsewhere: Bool, id: UUID, listID: UUID,
    parent: StoredTask?, hasSubtasks: Bool, taskCount: Int, targetAllowed: Bool = false, now: Date
  ) -> PlannerOutcome<StoredTask> {
    // An id another list's task has: as if the list were not there (its owner may be someone else).
    if elsewhere { return .notFound }
    if let current, current.unreadable != nil {
      guard case .delete = write else { return .conflict(unreadableMessage) }
    }
    switch write {
    case .create(let changes):
      guard case .set(let title) = changes.title else { return .invalid(FieldError("title", "a task needs a title")) }
      if let current { return .done(current) }
      if taskCount >= maxTasksPerList { return .conflict("A list can hold at most \(maxTasksPerList) tasks.") }
      do throws(FieldError) {
        let task = try PlannerTask(title: title).applying(changes, now: now)
        if let problem = parentProblem(task.parentID, of: id, parent: parent, hasSubtasks: false) {
          return .invalid(problem)
        }
        return .created(StoredTask(id: id, listID: listID, task: task, createdAt: now, updatedAt: now, version: 1))
      } catch { return .invalid(error) }
    case .change(let changes, let ifMatch):
      guard let stored = current else { return .notFound }
      if let ifMatch, ifMatch != stored.version { return .preconditionFailed(stored) }
      do throws(FieldError) {
        let task = try stored.task.applying(changes, now: now)
        let moving = changes.listID.map { $0 != listID } ?? false
        if task.parentID != stored.task.parentID, !moving,
          let problem = parentProblem(task.parentID, of: id, parent: parent, hasSubtasks: hasSubtasks)
        {
          return .invalid(problem)
        }
        guard moving, let target = changes.listID else { return .done(stored.becoming(task, at: now)) }
        // A move: to a list of the caller's (else as if it did not exist), with the task's subtasks; a subtask
        // moves alone only out of its parent.
        guard targetAllowed else { return .notFound }
        if task.parentID != nil {
          return .invalid(FieldError("listId", "a subtask moves with its parent: clear parentId to move it alone"))
        }
        var moved = stored.becoming(task, at: now)
        if moved.version == stored.version { moved.version += 1 }
        moved.listID = target
        moved.updatedAt = now
        return .done(moved)
      } catch { return .invalid(error) }
    case .complete(let occurrence, let today):
      guard let stored = current else { return .notFound }
      do throws(FieldError) {
        return .done(
          stored.becoming(try stored.task.completing(occurrence: occurrence, today: today, now: now), at: now))
      } catch { return .invalid(error) }
    case .delete(let ifMatch):
      guard let stored = current else { return .notFound }
      if let ifMatch, ifMatch != stored.version { return .preconditionFailed(stored) }
      return .deleted
    }
  }

  /// What a read or write of an unreadable task answers.
  public static let unreadableMessage =
    "This task was stored in a form this service cannot read: it can only be deleted. The service's log names it."

  /// Why `parentID` cannot be the parent of task `id`: it is not a task of this list, it is a subtask itself, the
  /// task is its own parent, or the task has subtasks (one level deep).
  static func parentProblem(_ parentID: UUID?, of id: UUID, parent: StoredTask?, hasSubtasks: Bool) -> FieldError? {
    guard let parentID else { return nil }
    if parentID == id { return FieldError("parentId", "a task cannot be its own subtask") }
    guard let parent, parent.id == parentID else { return FieldError("parentId", "no task of this list has this id") }
    if parent.task.parentID != nil { return FieldError("parentId", "a subtask cannot have subtasks") }
    if hasSubtasks { return FieldError("parentId", "a task with subtasks cannot become a subtask") }
    return nil
  }

  /// The list a write moves the task to, if it moves it: the store checks the caller is a member (and locks both
  /// lists, in id order) before asking `task`.
  /// A task written (`.created`, or `.done` unlike `unchanged`) with who wrote it: the writer's member id in the
  /// list it is in now, as `memberID` finds it.
  public static func stamped(
    _ outcome: PlannerOutcome<StoredTask>, unchanged: StoredTask?, memberID: (UUID) throws -> UUID?
  ) rethrows -> PlannerOutcome<StoredTask> {
    switch outcome {
    case .created(var task):
      task.changedBy = try memberID(task.listID)
      return .created(task)
    case .done(var task) where task != unchanged:
      task.changedBy = try memberID(task.listID)
      return .done(task)
    default: return outcome
    }
  }

  public static func moveTarget(_ write: PlannerTaskWrite, from listID: UUID) -> UUID? {
    guard case .change(let changes, _) = write, let target = changes.listID, target != listID else { return nil }
    return target
  }

  /// The parent a write would give the task, to read before asking `task` (nil: none to check).
  public static func parentToCheck(_ write: PlannerTaskWrite) -> UUID? {
    switch write {
    case .create(let changes), .change(let changes, _):
      if case .set(let id) = changes.parentID { return id }
      return nil
    default: return nil
    }
  }

  /// What a list write makes of `current` (the caller's view of the list with this id, if the caller has it;
  /// `elsewhere`: the id is taken by a list the caller does not have).
  public static func list(
    _ write: PlannerListWrite, current: PlannerListView?, elsewhere: Bool, id: UUID, ownedCount: Int, now: Date
  ) -> PlannerOutcome<PlannerListView> {
    switch write {
    case .create(let name, let sortKey):
      // A replay is checked as the first sending was: a body that would not create answers 400, not the list.
      if let problem = nameProblem(name) ?? sortKeyProblem(sortKey) { return .invalid(problem) }
      if let current { return .done(current) }
      if elsewhere { return .notFound }
      if ownedCount >= maxLists { return .conflict("An account can have at most \(maxLists) lists.") }
      return .created(
        PlannerListView(
          id: id, name: name, sortKey: sortKey, isDefault: false, createdAt: now, updatedAt: now, version: 1,
          role: .owner, memberCount: 1))
    case .change(let name, let sortKey, let ifMatch):
      guard var list = current else { return .notFound }
      // The body first: a change that could never be made is a 400 whatever the version.
      if let problem = name.flatMap(nameProblem) ?? sortKey.flatMap(sortKeyProblem) { return .invalid(problem) }
      if let ifMatch, ifMatch != list.version { return .preconditionFailed(list) }
      if name != nil && name != list.name && list.role != .owner {
        return .forbidden("Only the list's owner can rename it.")
      }
      let changed = PlannerListView(
        id: list.id, name: name ?? list.name, sortKey: sortKey ?? list.sortKey, isDefault: list.isDefault,
        createdAt: list.createdAt, updatedAt: list.updatedAt, version: list.version, role: list.role,
        memberCount: list.memberCount)
      if changed == list { return .done(list) }
      // The order among the caller's lists is the caller's own (each member keeps one): it changes no version.
      let renamed = changed.name != list.name
      list = changed
      if renamed {
        list.updatedAt = now
        list.version += 1
      }
      return .done(list)
    case .delete(let ifMatch):
      guard let list = current else { return .notFound }
      if let ifMatch, ifMatch != list.version { return .preconditionFailed(list) }
      if list.role != .owner { return .forbidden("Only the list's owner can delete it; leave it instead.") }
      if list.isDefault { return .conflict("The default list cannot be deleted.") }
      return .deleted
    }
  }

  /// Whether the caller may remove a member: the owner removes anyone but themself (the owner deletes the list
  /// instead), a member removes themself.
  public static func removal(callerIsOwner: Bool, targetIsCaller: Bool, targetIsOwner: Bool) -> PlannerOutcome<
    PlannerMember
  > {
    if targetIsOwner { return .forbidden("The owner cannot leave the list; delete it instead.") }
    if !callerIsOwner && !targetIsCaller { return .forbidden("Only the list's owner can remove others.") }
    return .deleted
  }

  static func nameProblem(_ name: String) -> FieldError? {
    do throws(FieldError) {
      let text = try FieldReader([:]).text(name, "name", max: maxListName, lineBreaks: false)
      if !text.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) {
        return FieldError("name", "a list needs a name")
      }
      return nil
    } catch { return error }
  }

  static func sortKeyProblem(_ key: String) -> FieldError? {
    do throws(FieldError) {
      _ = try FieldReader([:]).text(key, "sortKey", max: PlannerTask.maxSortKeyLength, lineBreaks: false)
      return nil
    } catch { return error }
  }
}

extension UUID {
  /// The 16 bytes in base64url without padding (22 characters).
  fileprivate var base64URL: String {
    let bytes = withUnsafeBytes(of: uuid) { Data($0) }
    return String(
      bytes.base64EncodedString().dropLast(2).map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
  }

  /// The id whose 16 bytes `text` holds in base64url without padding.
  fileprivate init?(base64URL text: Substring) {
    let standard = text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 }
    guard let bytes = Data(base64Encoded: String(standard) + "=="), bytes.count == 16 else { return nil }
    self = bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
  }
}

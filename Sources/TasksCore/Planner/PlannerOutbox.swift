// PlannerOutbox: every v2 edit (lists and tasks) the service has not acknowledged, kept on disk per account, sent
// in order with the client's ids (so a replay is safe), and merged field by field when the service changed the
// task meanwhile (412). Actor.

import FoundationEssentials
import TasksCalendar

/// An edit of the user's.
public enum PlannerEdit: Equatable, Sendable {
  case createList(id: UUID, name: String)
  case renameList(id: UUID, name: String)
  case deleteList(id: UUID)
  /// A new task, with the id it keeps.
  case createTask(PlannerItem)
  /// A change to a task: `base` is the version it was made on, `mine` the task as the user left it.
  case changeTask(base: PlannerItem, mine: PlannerItem)
  /// Finishing the occurrence due on `occurrence`.
  case complete(list: UUID, id: UUID, occurrence: CalendarDate, today: CalendarDate)
  case deleteTask(list: UUID, id: UUID)

  /// The task it is about, if any.
  public var taskID: UUID? {
    switch self {
    case .createTask(let item), .changeTask(_, let item): item.id
    case .complete(_, let id, _, _), .deleteTask(_, let id): id
    default: nil
    }
  }
}

/// A change the service did not take as it was: the same field changed here and elsewhere. The service's value
/// stays; `mine` holds this device's, to offer back ("Use Mine").
public struct PlannerConflict: Equatable, Sendable {
  /// The task as the service has it now.
  public var current: PlannerItem
  /// The task as this device's edit left it.
  public var mine: PlannerItem
  /// The fields whose edit lost.
  public var fields: [PlannerItem.Field]
}

/// What an outbox's writes throw once it is discarded: the account signed out, and what it forgot stays forgotten.
public struct OutboxDiscarded: Error {}

/// The v2 edits not yet acknowledged: written to disk (synced) before `record` returns, removed only once the
/// service answered 2xx, so that none is lost offline, on a 5xx, quitting or `kill -9`. Edits of one task made before
/// it is sent are merged (its creation takes later changes; a deletion replaces those not sent); an edit once sent
/// takes none (the service may have it), later ones wait after it.
///
/// One JSON file per account under `$XDG_DATA_HOME/io.github.b2ctasks.B2CTasks/planner-outbox/`. It holds lists and
/// tasks, no token.
public actor PlannerOutbox {
  /// An edit waiting, with why the service refused it, if it did (it stays for the user to see).
  public struct Pending: Equatable, Sendable {
    /// The entry's own id (two equal edits are two entries).
    var id = UUID()
    public var edit: PlannerEdit
    public var refusal: String?
    /// Grows with every change of the entry (a merge, its list readdressed after a parent's move): an entry changed
    /// while its earlier form was on the wire is sent again.
    var revision = 0
    /// Whether it was sent at least once (the service may have it): a creation sent is only ever answered as it was
    /// first made (a replay), so later edits no longer merge into it; they wait after it, and a deletion is sent.
    var sent = false
  }

  private let file: URL
  public private(set) var pending: [Pending] = []
  private var flushing = false
  /// Whether the account signed out (`discard`): nothing is written any more.
  private var discarded = false

  /// The copy of the file kept when some of it could not be read (so that nothing in it is lost when the outbox
  /// is written again); nil when all of it was read.
  public nonisolated let keptAside: URL?

  public init(file: URL) {
    self.file = file
    guard let data = try? Data(contentsOf: file) else {
      keptAside = nil
      return
    }
    let items: [JSONValue]? = if case .array(let items) = JSONValue.parse(data) ?? .null { items } else { nil }
    pending = items?.compactMap(Self.pending) ?? []
    keptAside = pending.count == items?.count ? nil : AtomicFile.keepAside(data, readFrom: file)
    // Kept: the file holds what was read from now on (the next start keeps nothing aside again).
    if keptAside != nil { try? Self.write(pending, to: file) }
  }

  /// How many edits in the outbox at `file` wait to be sent (not those the service refused, which wait for the user
  /// and are never sent again): read only, the file is never written (another program may own it).
  public static func waiting(in file: URL) -> Int {
    guard let data = try? Data(contentsOf: file), case .array(let items) = JSONValue.parse(data) ?? .null else {
      return 0
    }
    return items.compactMap(pending).filter { $0.refusal == nil }.count
  }

  /// Records `edit` (merged with what waits for the same task or list) and writes the outbox before returning.
  public func record(_ edit: PlannerEdit) throws {
    let before = pending
    merge(edit)
    do { try save() } catch {
      pending = before
      throw error
    }
  }

  private func merge(_ edit: PlannerEdit) {
    // A change or a finish made on a copy from before the task's deletion (a row ticked as it went, a notification's
    // Done) is not sent.
    if Self.changes(edit), let id = edit.taskID, pending.contains(where: { Self.deletes(task: id, $0.edit) }) { return }
    switch edit {
    case .changeTask(let base, let mine):
      mergeChange(base: base, mine: mine)
      if mine.listID != base.listID { moveSubtasks(of: mine.id, to: mine.listID) }
    case .deleteTask(var list, let id):
      // What was never sent (or was refused) goes with it, its subtasks' too (the service deletes them with it);
      // what was sent stays before it (the service may have it: a creation, a move). Addressed to the list the
      // service has it in then: before the first move dropped.
      let goes = { (item: Pending) in !item.sent || item.refusal != nil }
      let unsent = pending.filter { $0.edit.taskID == id && goes($0) }.map(\.edit)
      for case .changeTask(let base, let mine) in unsent where base.listID != mine.listID {
        list = base.listID
        break
      }
      let subtasks = Set(pending.compactMap { Self.made($0.edit).flatMap { $0.parentID == id ? $0.id : nil } })
      pending.removeAll { item in item.edit.taskID.map { $0 == id || subtasks.contains($0) } == true && goes(item) }
      let created = unsent.contains { if case .createTask = $0 { true } else { false } }
      if !created { pending.append(Pending(edit: .deleteTask(list: list, id: id))) }
    case .renameList(let id, let name):
      if let index = pending.firstIndex(where: { Self.creates(list: id, $0) }) {
        pending[index].edit = .createList(id: id, name: name)
        pending[index].revision += 1
      } else {
        pending.append(Pending(edit: edit))
      }
    case .deleteList(let id):
      let created = pending.contains { Self.creates(list: id, $0) }
      pending.removeAll { pending in
        switch pending.edit {
        case .createList(let list, _), .renameList(let list, _): list == id
        case .createTask(let item), .changeTask(_, let item): item.listID == id
        case .complete(let list, _, _, _), .deleteTask(let list, _): list == id
        case .deleteList: false
        }
      }
      if !created { pending.append(Pending(edit: edit)) }
    default:
      pending.append(Pending(edit: edit))
    }
  }

  /// The task an edit makes or changes, as it leaves it.
  private static func made(_ edit: PlannerEdit) -> PlannerItem? {
    switch edit {
    case .createTask(let item), .changeTask(_, let item): item
    default: nil
    }
  }

  private static func changes(_ edit: PlannerEdit) -> Bool {
    switch edit {
    case .changeTask, .complete: true
    default: false
    }
  }

  private static func deletes(task: UUID, _ edit: PlannerEdit) -> Bool {
    if case .deleteTask(_, let id) = edit { id == task } else { false }
  }

  private func mergeChange(base: PlannerItem, mine: PlannerItem) {
    if let index = pending.lastIndex(where: { $0.edit.taskID == mine.id }) {
      let sent = pending[index].sent
      switch pending[index].edit {
      // The edit is made on the waiting one's copy (not replacing it: made on an older copy, it would take that
      // edit back).
      case .createTask(let made) where !sent:
        pending[index].edit = .createTask(made.editing(from: base, to: mine))
        pending[index].revision += 1
        return
      // A move waits after what was recorded since that change: an edit of one of its subtasks waiting there is
      // addressed to the list it is in until then.
      case .changeTask(let first, let made) where !sent && (mine.listID == base.listID || index == pending.count - 1):
        pending[index].edit = .changeTask(base: first, mine: made.editing(from: base, to: mine))
        pending[index].revision += 1
        return
      // (One sent, still on its way or its answer lost, may be at the service already: this one waits after it,
      // made on the window's copy, which shows that one made.)
      default: break
      }
    }
    pending.append(Pending(edit: .changeTask(base: base, mine: mine)))
  }

  /// A task moved to `list`: its subtasks move with it at the service, so the edits of its subtasks that wait after
  /// the move's own are addressed to the new list (made there, a subtask would otherwise go to the old list after
  /// its parent had left it, and be refused).
  private func moveSubtasks(of parent: UUID, to list: UUID) {
    guard let moved = pending.lastIndex(where: { $0.edit.taskID == parent }) else { return }
    var subtasks: Set<UUID> = []
    for index in pending.indices where index > moved {
      switch pending[index].edit {
      case .createTask(var item) where item.parentID == parent:
        item.listID = list
        subtasks.insert(item.id)
        pending[index].edit = .createTask(item)
      case .changeTask(var base, var item) where item.parentID == parent:
        base.listID = list
        item.listID = list
        subtasks.insert(item.id)
        pending[index].edit = .changeTask(base: base, mine: item)
      case .complete(_, let id, let occurrence, let today) where subtasks.contains(id):
        pending[index].edit = .complete(list: list, id: id, occurrence: occurrence, today: today)
      case .deleteTask(_, let id) where subtasks.contains(id):
        pending[index].edit = .deleteTask(list: list, id: id)
      default: continue
      }
      pending[index].revision += 1
    }
  }

  private static func isCreation(_ edit: PlannerEdit) -> Bool {
    switch edit {
    case .createList, .createTask: true
    default: false
    }
  }

  /// Whether `item` creates `list` and was never sent (merging into it changes what the service will make).
  private static func creates(list: UUID, _ item: Pending) -> Bool {
    if case .createList(let id, _) = item.edit { id == list && !item.sent } else { false }
  }

  /// Forgets what waits and removes the file (the account signed out): a send under way, or an edit recorded after
  /// it, writes nothing any more (the file would come back after the sign-out removed it).
  public func discard() {
    discarded = true
    pending = []
    try? FileManager.default.removeItem(at: file)
  }

  /// Deletes the outbox's file when nothing waits in it; answers whether nothing does.
  @discardableResult
  public func removeFileIfEmpty() -> Bool {
    guard pending.isEmpty else { return false }
    try? FileManager.default.removeItem(at: file)
    return true
  }

  /// What a flush did.
  public struct FlushResult: Equatable, Sendable {
    /// How many edits the service acknowledged.
    public var sent = 0
    /// Why sending stopped early (network, server, sign-in); what was not sent stays.
    public var stoppedBy: TaskAPIError?
    /// Edits the service refused, with its reason (they stay, marked).
    public var refused: [String] = []
    /// Changes whose fields lost to another device's change of the same fields.
    public var conflicts: [PlannerConflict] = []

    /// Whether sending stopped for a reason that passes (the network failed or timed out, the service failed):
    /// what waits is tried again as during an outage, even when the read after it worked.
    public var stalled: Bool {
      switch stoppedBy {
      case .network(.untrusted)?: return false  // a certificate is not fixed by trying again
      case .network?, .server?: return true
      default: return false
      }
    }
  }

  /// Sends what waits, in order; stops at the first network, server or sign-in failure. A 412 is merged field by
  /// field against the version the change was made on, and what is still this device's alone is sent again.
  public func flush(_ client: TaskAPIClient) async -> FlushResult {
    guard !flushing else { return FlushResult() }
    flushing = true
    defer { flushing = false }
    var result = FlushResult()
    while let next = pending.first(where: { $0.refusal == nil }) {
      // A creation whose answer is lost, or still on its way, takes no edit (written before it goes: a quit or a
      // kill while it is on the wire must not forget it; other edits' mark is written with the next write).
      if let index = pending.firstIndex(where: { $0.id == next.id }), !pending[index].sent {
        pending[index].sent = true
        if Self.isCreation(next.edit) { try? save() }
      }
      do throws(TaskAPIError) {
        try await send(next.edit, client, &result)
      } catch .rejected(let status, let message) where status != 401 {
        mark(next, refusal: message)
        result.refused.append(message)
        continue
      } catch .notFound {
        if case .deleteTask = next.edit {
        } else if case .deleteList = next.edit {
        } else {
          let message = TaskAPIError.notFound.message
          mark(next, refusal: message)
          result.refused.append(message)
          continue
        }
      } catch {
        result.stoppedBy = error
        try? save()  // with what was sent marked: a creation whose answer was lost takes no later edit
        return result
      }
      result.sent += 1
      // Merged with a newer edit while on the wire: that one stays, and is sent next.
      pending.removeAll { $0.id == next.id && $0.revision == next.revision }
      try? save()
    }
    return result
  }

  private func mark(_ item: Pending, refusal: String) {
    if let index = pending.firstIndex(where: { $0.id == item.id && $0.revision == item.revision }) {
      pending[index].refusal = refusal
    }
    try? save()
  }

  private func send(_ edit: PlannerEdit, _ client: TaskAPIClient, _ result: inout FlushResult)
    async throws(TaskAPIError)
  {
    switch edit {
    case .createList(let id, let name): _ = try await client.createList(id: id, name: name)
    case .renameList(let id, let name): _ = try await client.changeList(id: id, name: name)
    case .deleteList(let id): try await client.deleteList(id: id)
    case .createTask(let item): _ = try await client.createTask(item)
    case .complete(let list, let id, let occurrence, let today):
      _ = try await client.complete(list: list, id: id, occurrence: occurrence, today: today)
    case .deleteTask(let list, let id): try await client.deleteTask(list: list, id: id)
    case .changeTask(var base, var mine):
      var fields = PlannerItem.Field.allCases.filter { !mine.same($0, as: base) }
      var version = base.version
      // A task changed elsewhere at every try would keep it going: after a few merges, the last one stands.
      for _ in 0..<5 where !fields.isEmpty {
        switch try await client.changeTask(mine, fields: fields, ifMatch: version, in: base.listID) {
        case .done: return
        case .stale(let current):
          let merge = PlannerMerge(base: base, mine: mine, theirs: current)
          if !merge.lost.isEmpty {
            result.conflicts.append(PlannerConflict(current: merge.merged, mine: mine, fields: merge.lost))
          }
          (base, mine, fields, version) = (current, merge.merged, merge.toSend, current.version)
        }
      }
    }
  }

  // MARK: The file

  private func save() throws {
    if discarded { throw OutboxDiscarded() }
    try Self.write(pending, to: file)
  }

  private static func write(_ pending: [Pending], to file: URL) throws {
    try AtomicFile.write(try JSONEncoder().encode(JSONValue.array(pending.map(json))), to: file)
  }

  private static func json(_ item: Pending) -> JSONValue {
    var object: [String: JSONValue] = [
      "id": .string(item.id.uuidString.lowercased()), "revision": .integer(Int64(item.revision)),
    ]
    if let refusal = item.refusal { object["refusal"] = .string(refusal) }
    if item.sent { object["sent"] = .boolean(true) }
    func id(_ value: UUID) -> JSONValue { .string(value.uuidString.lowercased()) }
    switch item.edit {
    case .createList(let list, let name):
      object.merge(["kind": .string("createList"), "list": id(list), "name": .string(name)]) { $1 }
    case .renameList(let list, let name):
      object.merge(["kind": .string("renameList"), "list": id(list), "name": .string(name)]) { $1 }
    case .deleteList(let list): object.merge(["kind": .string("deleteList"), "list": id(list)]) { $1 }
    case .createTask(let task): object.merge(["kind": .string("createTask"), "mine": task.jsonValue]) { $1 }
    case .changeTask(let base, let mine):
      object.merge(["kind": .string("changeTask"), "base": base.jsonValue, "mine": mine.jsonValue]) { $1 }
    case .complete(let list, let task, let occurrence, let today):
      object.merge([
        "kind": .string("complete"), "list": id(list), "task": id(task), "occurrence": .string(occurrence.description),
        "today": .string(today.description),
      ]) { $1 }
    case .deleteTask(let list, let task):
      object.merge(["kind": .string("deleteTask"), "list": id(list), "task": id(task)]) { $1 }
    }
    return .object(object)
  }

  private static func pending(_ value: JSONValue) -> Pending? {
    guard case .object(let object) = value, let kind = object["kind"]?.string else { return nil }
    func id(_ key: String) -> UUID? { object[key]?.string.flatMap { UUID(text: $0) } }
    func item(_ key: String) -> PlannerItem? {
      guard case .object(let fields) = object[key] ?? .null,
        let data = try? JSONEncoder().encode(JSONValue.object(fields))
      else { return nil }
      return try? PlannerItem(json: data)
    }
    func date(_ key: String) -> CalendarDate? { object[key]?.string.flatMap { CalendarDate($0) } }
    let edit: PlannerEdit?
    switch kind {
    case "createList":
      edit = id("list").flatMap { list in object["name"]?.string.map { .createList(id: list, name: $0) } }
    case "renameList":
      edit = id("list").flatMap { list in object["name"]?.string.map { .renameList(id: list, name: $0) } }
    case "deleteList": edit = id("list").map { .deleteList(id: $0) }
    case "createTask": edit = item("mine").map { .createTask($0) }
    case "changeTask":
      edit = item("base").flatMap { base in item("mine").map { .changeTask(base: base, mine: $0) } }
    case "complete":
      guard let list = id("list"), let task = id("task"), let occurrence = date("occurrence"), let today = date("today")
      else { return nil }
      edit = .complete(list: list, id: task, occurrence: occurrence, today: today)
    case "deleteTask": edit = id("list").flatMap { list in id("task").map { .deleteTask(list: list, id: $0) } }
    default: edit = nil
    }
    guard let edit else { return nil }
    return Pending(
      id: id("id") ?? UUID(), edit: edit, refusal: object["refusal"]?.string,
      revision: Int(object["revision"]?.integer ?? 0), sent: object["sent"]?.bool ?? false)
  }
}

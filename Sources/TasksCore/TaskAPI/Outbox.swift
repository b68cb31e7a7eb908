// Outbox: tasks the user added, and changes to tasks, that the server has not confirmed yet, kept on disk per
// account. Actor.

import FoundationEssentials

/// A task waiting to be sent. Its id is also the `Idempotency-Key` sent with it, so a retry after a lost answer is
/// stored once.
public struct PendingTask: Codable, Equatable, Sendable, Identifiable {
  /// A UUID: the row's id and the idempotency key.
  public var id: String
  /// What the user typed.
  public var text: String
  /// When the user added it.
  public var createdAt: Date
  /// Why the server refused it, if it did (the task stays, for the user to change or delete).
  public var refusal: String?
}

/// A change to one of the server's tasks (ticked, edited, deleted) waiting to be sent. Changes to one task made
/// before it is sent are merged into one: the last text and state win, and a deletion replaces the rest. Sending it
/// twice does no harm (`PATCH` sets, `DELETE` of a deleted task is a no-op), so a lost answer costs nothing.
public struct PendingChange: Codable, Equatable, Sendable {
  /// The server's id of the task.
  public var taskID: Int64
  /// The new text, if it changed.
  public var text: String?
  /// The new state, if it changed.
  public var completed: Bool?
  /// Whether the task is deleted.
  public var deleted: Bool
  /// Grows with every merge: a change merged while its earlier form was on the wire is sent again.
  public var revision: Int

  /// Applies the change to `task` (nil: the task is deleted).
  public func applied(to task: TaskItem) -> TaskItem? {
    guard !deleted else { return nil }
    var changed = task
    if let text { changed.text = text }
    if let completed { changed.completed = completed }
    return changed
  }
}

/// The tasks a user added, and the changes made to tasks (ticked, edited, deleted), that the task API has not
/// acknowledged: never lost on network failure, a 500, quitting or `kill -9`, because each is written to disk (and
/// synced) before the app shows it, and removed only after the server answered 2xx. Offline, the list is shown
/// with the changes applied (`applied(to:)`).
///
/// One JSON file per account under `$XDG_DATA_HOME/io.github.b2ctasks.B2CTasks/outbox/`, replaced atomically. It
/// holds task texts and ids only: no token or other secret.
public actor Outbox {
  private let file: URL
  private var tasks: [PendingTask]
  private var changes: [PendingChange]
  private var flushing = false
  /// Whether the account signed out (`discard`): nothing is written any more.
  private var discarded = false

  /// What the file holds. (Versions before changes were queued wrote the array of tasks alone; it still reads.)
  private struct Contents: Codable {
    var tasks: [PendingTask]
    var changes: [PendingChange]
  }

  /// Opens the outbox stored in `file` (empty when there is none or it is unreadable: then kept aside).
  public init(file: URL) {
    self.file = file
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    let data = try? Data(contentsOf: file)
    if let data, let contents = try? decoder.decode(Contents.self, from: data) {
      (tasks, changes, keptAside) = (contents.tasks, contents.changes, nil)
    } else if let data, let tasks = try? decoder.decode([PendingTask].self, from: data) {
      (self.tasks, changes, keptAside) = (tasks, [], nil)
    } else {
      // Not understood (damaged, or a newer version's): kept, so that writing the outbox again loses nothing.
      (tasks, changes) = ([], [])
      keptAside = data.flatMap { AtomicFile.keepAside($0, readFrom: file) }
      // Kept: the file is empty from now on (the next start keeps nothing aside again).
      if keptAside != nil { try? Self.write(Contents(tasks: [], changes: []), to: file) }
    }
  }

  /// The copy of the file kept when it could not be read; nil when it was (or there was none).
  public nonisolated let keptAside: URL?

  /// The tasks waiting, oldest first.
  public var pending: [PendingTask] { tasks }

  /// Adds a task and writes the outbox to disk before returning.
  public func add(_ text: String) throws -> PendingTask {
    let task = PendingTask(id: UUID().uuidString.lowercased(), text: text, createdAt: Date(), refusal: nil)
    tasks.append(task)
    do { try save() } catch {
      tasks.removeLast()
      throw error
    }
    return task
  }

  /// Removes a task the user gave up on.
  public func remove(_ id: String) throws {
    tasks.removeAll { $0.id == id }
    try save()
  }

  /// Forgets what waits and removes the file (the account signed out): a send under way, or a task added after it,
  /// writes nothing any more (the file would come back after the sign-out removed it).
  public func discard() {
    discarded = true
    (tasks, changes) = ([], [])
    try? FileManager.default.removeItem(at: file)
  }

  /// Deletes the outbox's file when nothing waits in it (a sign-out after everything was sent); answers whether the
  /// outbox is empty. What still waits stays on disk, for this user's next sign-in: a task typed is never dropped.
  @discardableResult
  public func removeFileIfEmpty() -> Bool {
    guard tasks.isEmpty, changes.isEmpty else { return false }
    try? FileManager.default.removeItem(at: file)
    return true
  }

  /// The changes waiting, in the order they were first made.
  public var pendingChanges: [PendingChange] { changes }

  /// The ids of the tasks with a change waiting.
  public var changedTaskIDs: Set<Int64> { Set(changes.map(\.taskID)) }

  /// Records a change to the server's task `taskID` (its text, its state or both) and writes the outbox to disk
  /// before returning; merged with a change to the same task still waiting.
  public func change(_ taskID: Int64, text: String? = nil, completed: Bool? = nil) throws {
    try record(taskID) { change in
      if let text { change.text = text }
      if let completed { change.completed = completed }
    }
  }

  /// Records the deletion of the server's task `taskID` (it replaces any change waiting for it) and writes the
  /// outbox to disk before returning.
  public func delete(_ taskID: Int64) throws {
    try record(taskID) { change in
      change.text = nil
      change.completed = nil
      change.deleted = true
    }
  }

  private func record(_ taskID: Int64, _ edit: (inout PendingChange) -> Void) throws {
    let before = changes
    if let index = changes.firstIndex(where: { $0.taskID == taskID }) {
      edit(&changes[index])
      changes[index].revision += 1
    } else {
      var change = PendingChange(taskID: taskID, text: nil, completed: nil, deleted: false, revision: 0)
      edit(&change)
      changes.append(change)
    }
    do { try save() } catch {
      changes = before
      throw error
    }
  }

  /// `tasks` (the server's list, or the offline copy) as they are once the waiting changes are made.
  public func applied(to tasks: [TaskItem]) -> [TaskItem] {
    guard !changes.isEmpty else { return tasks }
    let byID = Dictionary(changes.map { ($0.taskID, $0) }, uniquingKeysWith: { _, last in last })
    return tasks.compactMap { task in byID[task.id].map { $0.applied(to: task) } ?? task }
  }

  /// What a flush achieved.
  public struct FlushResult: Equatable, Sendable {
    /// How many added tasks the server acknowledged.
    public var sent: Int
    /// Why sending stopped early, if it did (network down, signed out); what was not sent stays.
    public var stoppedBy: TaskAPIError?
    /// Changes the server refused (a text too long, a task deleted elsewhere), with its reason: they are dropped,
    /// and the next list shows the server's truth.
    public var refusedChanges: [TaskAPIError]
    /// The server's ids of the tasks it acknowledged, by outbox id, where its answers named them.
    public var created: [String: Int64]

    /// Creates a result.
    public init(
      sent: Int, stoppedBy: TaskAPIError?, refusedChanges: [TaskAPIError] = [], created: [String: Int64] = [:]
    ) {
      self.sent = sent
      self.stoppedBy = stoppedBy
      self.refusedChanges = refusedChanges
      self.created = created
    }
  }

  /// Sends the waiting tasks in order with their idempotency keys, then the waiting changes in order; stops at the
  /// first network, server or sign-in failure. A task the server refuses (400) stays, marked, and the others go on;
  /// a refused change is dropped. What is added while a flush runs is sent by it too (a second flush meanwhile
  /// returns at once).
  public func flush(_ client: TaskAPIClient) async -> FlushResult {
    guard !flushing else { return FlushResult(sent: 0, stoppedBy: nil) }
    flushing = true
    defer { flushing = false }
    var result = FlushResult(sent: 0, stoppedBy: nil)
    while let task = tasks.first(where: { $0.refusal == nil }) {
      do {
        let id = try await client.add(task.text, idempotencyKey: task.id)
        tasks.removeAll { $0.id == task.id }
        result.sent += 1
        result.created[task.id] = id
        try? save()
      } catch .rejected(_, let message) {
        if let index = tasks.firstIndex(where: { $0.id == task.id }) { tasks[index].refusal = message }
        try? save()
      } catch {
        result.stoppedBy = error
        return result
      }
    }
    while let change = changes.first {
      do throws(TaskAPIError) {
        if change.deleted {
          try await client.delete(id: change.taskID)
        } else if change.text != nil || change.completed != nil {
          try await client.update(id: change.taskID, text: change.text, completed: change.completed)
        }
      } catch .rejected(let status, let message) {
        result.refusedChanges.append(.rejected(status, message))
      } catch .notFound {
        result.refusedChanges.append(.notFound)
      } catch {
        result.stoppedBy = error
        return result
      }
      // Merged with a newer change while on the wire: it stays, and is sent next.
      changes.removeAll { $0.taskID == change.taskID && $0.revision == change.revision }
      try? save()
    }
    return result
  }

  /// Writes the outbox atomically and durably (see `AtomicFile`).
  private func save() throws {
    if discarded { throw OutboxDiscarded() }
    try Self.write(Contents(tasks: tasks, changes: changes), to: file)
  }

  private static func write(_ contents: Contents, to file: URL) throws {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    try AtomicFile.write(try encoder.encode(contents), to: file)
  }
}

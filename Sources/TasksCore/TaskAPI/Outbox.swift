// Outbox: tasks the user added that the server has not confirmed yet, kept on disk per account. Actor.

import Foundation

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

/// The tasks a user added that the task API has not acknowledged: never lost on network failure, a 500, quitting
/// or `kill -9`, because each is written to disk (and synced) before the app shows it, and removed only after the
/// server answered 2xx.
///
/// One JSON file per account under `$XDG_DATA_HOME/io.github.b2ctasks.B2CTasks/outbox/`, replaced atomically. It
/// holds task texts only: no token or other secret.
public actor Outbox {
  private let file: URL
  private var tasks: [PendingTask]
  private var flushing = false

  /// Opens the outbox stored in `file` (empty when there is none or it is unreadable).
  public init(file: URL) {
    self.file = file
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    tasks = (try? Data(contentsOf: file)).flatMap { try? decoder.decode([PendingTask].self, from: $0) } ?? []
  }

  /// The outbox of `account`.
  public static func file(for account: Account, environment: [String: String] = ProcessInfo.processInfo.environment)
    -> URL
  {
    XDGDirectory.data.appFolder(environment: environment).appending(
      path: "outbox/" + XDGDirectory.fileName(for: account, extension: "json"))
  }

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

  /// What a flush achieved.
  public struct FlushResult: Equatable, Sendable {
    /// How many tasks the server acknowledged.
    public var sent: Int
    /// Why sending stopped early, if it did (network down, signed out); the tasks stay.
    public var stoppedBy: TaskAPIError?

    /// Creates a result.
    public init(sent: Int, stoppedBy: TaskAPIError?) {
      self.sent = sent
      self.stoppedBy = stoppedBy
    }
  }

  /// Sends the waiting tasks in order with their idempotency keys; stops at the first network, server or sign-in
  /// failure. A task the server refuses (400) stays, marked, and the others go on.
  public func flush(_ client: TaskAPIClient) async -> FlushResult {
    guard !flushing else { return FlushResult(sent: 0, stoppedBy: nil) }
    flushing = true
    defer { flushing = false }
    var sent = 0
    for task in tasks where task.refusal == nil {
      do {
        try await client.add(task.text, idempotencyKey: task.id)
        tasks.removeAll { $0.id == task.id }
        sent += 1
        try? save()
      } catch .rejected(_, let message) {
        if let index = tasks.firstIndex(where: { $0.id == task.id }) { tasks[index].refusal = message }
        try? save()
      } catch {
        return FlushResult(sent: sent, stoppedBy: error)
      }
    }
    return FlushResult(sent: sent, stoppedBy: nil)
  }

  /// Writes the outbox atomically and durably (see `AtomicFile`).
  private func save() throws {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    try AtomicFile.write(try encoder.encode(tasks), to: file)
  }
}

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
    let dataHome =
      environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? URL(filePath: $0, directoryHint: .isDirectory) : nil }
      ?? URL(filePath: environment["HOME"] ?? NSHomeDirectory(), directoryHint: .isDirectory).appending(
        path: ".local/share")
    let safe = account.objectID.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == "-" }
    return dataHome.appending(path: "\(SettingsLocator.appID)/outbox/\(String(String.UnicodeScalarView(safe))).json")
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

  /// Writes the outbox: a temporary file, synced, renamed over the old one, and the folder synced.
  private func save() throws {
    let folder = file.deletingLastPathComponent()
    try FileManager.default.createDirectory(
      at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    let data = try encoder.encode(tasks)
    let temporary = folder.appending(path: ".\(file.lastPathComponent).\(getpid()).tmp")
    let descriptor = open(temporary.path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission) }
    let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    let synced = fsync(descriptor)
    close(descriptor)
    guard written == data.count, synced == 0, rename(temporary.path, file.path) == 0 else {
      unlink(temporary.path)
      throw CocoaError(.fileWriteUnknown)
    }
    let directory = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directory >= 0 {
      fsync(directory)
      close(directory)
    }
  }
}

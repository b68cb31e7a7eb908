// TaskCache: the last task list the server sent, per account, for showing while offline. Actor.

import FoundationEssentials

/// Why the offline copy could not be read.
public enum TaskCacheError: Error, Equatable, Sendable {
  /// There is no copy yet.
  case missing
  /// The file is not a copy this app wrote (damaged, or another format).
  case unreadable(String)
}

/// A task list as it was at a moment.
public struct CachedTaskList: Codable, Equatable, Sendable {
  /// When the server sent it.
  public var savedAt: Date
  /// The tasks, in the server's order.
  public var tasks: [TaskItem]

  /// Creates a copy of `tasks` as of `savedAt`.
  public init(savedAt: Date, tasks: [TaskItem]) {
    self.savedAt = savedAt
    self.tasks = tasks
  }
}

/// The offline copy of one account's task list: `$XDG_CACHE_HOME/io.github.b2ctasks.B2CTasks/tasks/OID.json`
/// (mode 0600). It holds what the list shows (ids, texts, completion) and never a token: the keyring is the only
/// place those rest. Sign Out deletes it.
public actor TaskCache {
  /// The file of the copy.
  public nonisolated let file: URL

  /// The copy in `file` (an account's: `AccountFiles.cache`).
  public init(file: URL) {
    self.file = file
  }

  /// Reads the copy.
  public func load() throws(TaskCacheError) -> CachedTaskList {
    guard let data = FileManager.default.contents(atPath: file.path) else { throw .missing }
    return try Self.decode(data)
  }

  /// Replaces the copy with `tasks` as of now; after `remove`, nothing (a save that was on its way when the account
  /// signed out must not bring the copy back).
  public func save(_ tasks: [TaskItem], at date: Date = Date()) throws(AtomicFileError) {
    guard !removed else { return }
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    guard let data = try? encoder.encode(CachedTaskList(savedAt: date, tasks: tasks)) else { return }
    try AtomicFile.write(data, to: file)
  }

  /// Whether `remove` was called: this copy is gone for good.
  private var removed = false

  /// Deletes the copy for good (sign-out): later saves through this instance write nothing.
  public func remove() {
    removed = true
    try? FileManager.default.removeItem(at: file)
  }

  /// Decodes a copy; anything else is `unreadable`.
  public static func decode(_ data: Data) throws(TaskCacheError) -> CachedTaskList {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    do {
      return try decoder.decode(CachedTaskList.self, from: data)
    } catch {
      throw .unreadable(String(describing: type(of: error)))
    }
  }
}

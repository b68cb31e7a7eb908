// RefreshLock: serialises every write of a shared session across processes with an advisory file lock. Sendable.

import FoundationEssentials
import Glibc

/// A lock held across processes while one of them writes the shared session (a refresh, a sign-in, a profile edit, a
/// sign-out), so that refresh-token rotation never signs another app out and a sign-out is never undone: the second
/// process waits, then finds what the first one stored.
///
/// An `flock` on `$XDG_RUNTIME_DIR/b2c-tasks/refresh-KEY.lock` (the file holds nothing); without
/// `XDG_RUNTIME_DIR`, in `/tmp/b2c-tasks-UID/b2c-tasks`. The folders must be this user's and closed to others
/// (checked with `lstat`, so a planted symbolic link or another user's folder is refused), the file is opened with
/// `O_NOFOLLOW`, and the wait is bounded. The kernel releases the lock when the process dies, so a crash never
/// leaves it held.
public struct RefreshLock: Sendable {
  /// Why the lock could not be had. Its message names the path, never a secret.
  public enum Failure: Error, Equatable, Sendable {
    /// A folder on the way is not a folder of this user that only they can write (path).
    case unsafeFolder(String)
    /// The lock file is a link, not a plain file, or not this user's (path).
    case unsafeFile(String)
    /// The lock file could not be created or opened (path, errno).
    case cannotOpen(String, Int32)
    /// Another process held the lock for longer than the bound.
    case timedOut

    /// One line for the user.
    public var message: String {
      switch self {
      case .unsafeFolder(let path), .unsafeFile(let path):
        return String(
          template: tr(
            "The sign-in lock at %@ belongs to another user or is open to others, so B2C Tasks did not change your sign-in."
          ), path)
      case .cannotOpen(let path, _):
        return String(template: tr("B2C Tasks could not open its sign-in lock at %@."), path)
      case .timedOut:
        return tr("Another B2C Tasks app kept your sign-in busy for too long. Try again.")
      }
    }
  }

  /// The lock file.
  public let path: String
  private let folder: PrivateFolder
  private let bound: Duration

  /// The lock of session `key` (shared by its keychain group); `bound` is how long a process waits for another one's write before giving up.
  public init(
    _ key: SessionKey, environment: [String: String] = ProcessInfo.processInfo.environment,
    bound: Duration = .seconds(90)
  ) {
    folder = PrivateFolder(environment: environment)
    // One lock for the whole keychain group: a sign-out removes every session of the group, so every write of any of
    // them (a refresh of another client or provider in the group) must wait for it, and it for them.
    path = folder.path + "/group-\(key.groupDigest).lock"
    self.bound = bound
  }

  /// Runs `body` while holding the lock, on the caller's actor. `onWait` is called once if another process holds
  /// the lock (a terminal can say why it pauses). Throws `Failure` when the lock cannot be had: the caller must not
  /// write the session without it.
  public func withLock<Value>(
    isolation: isolated (any Actor)? = #isolation, onWait: (@Sendable () -> Void)? = nil,
    _ body: () async throws -> Value
  ) async throws -> Value {
    let descriptor = try open()
    defer { close(descriptor) }
    let deadline = ContinuousClock.now.advanced(by: bound)
    var told = false
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR else { throw Failure.cannotOpen(path, errno) }
      guard ContinuousClock.now < deadline else { throw Failure.timedOut }
      if !told, let onWait {
        onWait()
        told = true
      }
      try await Task.sleep(for: .milliseconds(100))
    }
    defer { flock(descriptor, LOCK_UN) }
    return try await body()
  }

  /// Creates or checks the folders, then opens the lock file without following links.
  private func open() throws(Failure) -> Int32 {
    do throws(PrivateFolder.Failure) { try folder.make() } catch {
      switch error {
      case .unsafe(let path): throw .unsafeFolder(path)
      case .cannotMake(let path, let number): throw .cannotOpen(path, number)
      }
    }
    let descriptor = Glibc.open(path, O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard descriptor >= 0 else {
      throw errno == ELOOP ? .unsafeFile(path) : .cannotOpen(path, errno)
    }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid() else {
      close(descriptor)
      throw .unsafeFile(path)
    }
    return descriptor
  }
}

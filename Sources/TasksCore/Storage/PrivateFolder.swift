// PrivateFolder: a folder of this user's that no other user can enter, for short-lived files (locks, the browser's
// hand-over page). Sendable.

import FoundationEssentials
import Glibc

/// `$XDG_RUNTIME_DIR/b2c-tasks` (without `XDG_RUNTIME_DIR`, `/tmp/b2c-tasks-UID/b2c-tasks`). Every folder on the way
/// that B2C Tasks makes is made 0700 and then checked with `lstat`: a folder of another user, one open to others or a
/// planted symbolic link is refused, never used.
public struct PrivateFolder: Sendable {
  /// Why the folder cannot be used.
  public enum Failure: Error, Equatable, Sendable {
    /// A folder on the way is not a folder of this user that only they can enter (path).
    case unsafe(String)
    /// A folder could not be made (path, errno).
    case cannotMake(String, Int32)
  }

  /// The folder.
  public let path: String
  /// The folders made on the way, outermost first (the last is `path`).
  private let chain: [String]

  public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
      chain = [runtime + "/b2c-tasks"]
    } else {
      let base = "/tmp/b2c-tasks-\(geteuid())"
      chain = [base, base + "/b2c-tasks"]
    }
    path = chain[chain.count - 1]
  }

  /// Makes the folders that are missing and checks all of them.
  public func make() throws(Failure) {
    for folder in chain {
      if mkdir(folder, 0o700) != 0 && errno != EEXIST { throw .cannotMake(folder, errno) }
      var status = stat()
      guard lstat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == geteuid(),
        status.st_mode & 0o077 == 0
      else { throw .unsafe(folder) }
    }
  }
}

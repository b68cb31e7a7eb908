// RefreshLock: serialises token refreshes across processes with an advisory file lock. Sendable.

import Dispatch
import Foundation

/// A lock held across processes while one of them refreshes the shared session, so that refresh-token rotation
/// never signs another app out: the second process waits, then finds the tokens the first one stored.
///
/// An `flock` on `$XDG_RUNTIME_DIR/b2c-tasks/refresh-KEY.lock` (the file holds nothing). The kernel releases it when
/// the process dies, so a crash never leaves it held.
public struct RefreshLock: Sendable {
  /// The lock file.
  public let path: String

  /// The lock of session `key`.
  public init(_ key: SessionKey, environment: [String: String] = ProcessInfo.processInfo.environment) {
    let runtime =
      environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp/b2c-tasks-\(getuid())"
    let folder = runtime + "/b2c-tasks"
    try? FileManager.default.createDirectory(
      atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    path = folder + "/refresh-\(key.digest).lock"
  }

  /// Runs `body` while holding the lock, on the caller's actor. Waiting happens on a dispatch thread, never on the
  /// caller's.
  public func withLock<Value>(
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Value
  ) async throws -> Value {
    let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return try await body() }  // no lock file: refresh unserialised rather than never
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue.global().async {
        while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
        continuation.resume()
      }
    }
    defer {
      flock(descriptor, LOCK_UN)
      close(descriptor)
    }
    return try await body()
  }
}

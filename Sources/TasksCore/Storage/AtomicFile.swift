// AtomicFile: replaces a file so that a crash leaves either the old or the new contents. Any thread.

import FoundationEssentials
import Glibc

/// Why a file could not be written.
public enum AtomicFileError: Error, Equatable, Sendable {
  /// The folder could not be made or the file not written (disk full, no permission); the old file is intact.
  case notWritten(path: String, errno: Int32)
}

/// Writes whole files atomically and durably, readable by the user only.
public enum AtomicFile {
  /// Writes `data` to a temporary file beside `file` (mode 0600), syncs it, renames it over `file` and syncs the
  /// folder (made with mode 0700 if missing).
  public static func write(_ data: Data, to file: URL) throws(AtomicFileError) {
    let folder = file.deletingLastPathComponent()
    try makePrivateFolder(folder)
    let temporary = folder.appending(path: ".\(file.lastPathComponent).\(getpid()).tmp")
    let descriptor = open(temporary.path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .notWritten(path: temporary.path, errno: errno) }
    let written = data.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    let synced = fsync(descriptor)
    close(descriptor)
    guard written == data.count, synced == 0, rename(temporary.path, file.path) == 0 else {
      let failure = errno
      unlink(temporary.path)
      throw .notWritten(path: file.path, errno: failure)
    }
    let directory = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directory >= 0 {
      fsync(directory)
      close(directory)
    }
  }

  /// Keeps `data`, read from `file` but not understood (damaged, or written by a newer version), in a file of its
  /// own beside it — `name.unreadable-SECONDS[-N].json`, never one kept before — before `file` is written again
  /// without it; answers that file, or nil when it could not be written.
  public static func keepAside(_ data: Data, readFrom file: URL, now: Date = Date()) -> URL? {
    let name = "\(file.deletingPathExtension().lastPathComponent).unreadable-\(Int(now.timeIntervalSince1970))"
    let folder = file.deletingLastPathComponent()
    for number in 1...100 {
      let aside = folder.appending(path: (number == 1 ? name : "\(name)-\(number)") + ".\(file.pathExtension)")
      if FileManager.default.fileExists(atPath: aside.path) { continue }
      return (try? write(data, to: aside)) != nil ? aside : nil
    }
    return nil
  }

  /// Makes `folder` (and missing parents) with mode 0700, or sets an existing one to 0700: what another library
  /// writes in it (WebKit's cookie store and cache, made 0644 and 0755) is then the user's alone.
  public static func makePrivateFolder(_ folder: URL) throws(AtomicFileError) {
    do {
      try FileManager.default.createDirectory(
        at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw .notWritten(path: folder.path, errno: errno)
    }
    guard chmod(folder.path, 0o700) == 0 else { throw .notWritten(path: folder.path, errno: errno) }
  }
}

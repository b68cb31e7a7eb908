// PrivateFiles: the playground's folder and secret files, created with their final modes (never chmod-ed after, which
// leaves a moment in which others may open them). Any thread.

import Foundation

/// Creates the data folder (mode 0700) and secret files (mode 0600) with those modes from the start.
enum PrivateFiles {
  /// Why a private file or folder could not be made.
  struct Failure: Error, CustomStringConvertible {
    let path: String
    let code: Int32
    var description: String { "\(path): \(String(cString: strerror(code)))" }
  }

  /// Creates `folder` with mode 0700 (its parents as usual) unless it exists.
  static func createFolder(_ folder: URL) throws {
    let path = folder.path(percentEncoded: false)
    var status = stat()
    if lstat(path, &status) == 0 { return }
    try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
    guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw Failure(path: path, code: errno) }
  }

  /// Writes `data` to `file` (replacing it atomically) through a new file opened with mode 0600.
  static func write(_ data: Data, to file: URL) throws {
    let path = file.path(percentEncoded: false)
    let temporary = file.deletingLastPathComponent().appending(path: ".\(file.lastPathComponent).\(UUID().uuidString)")
      .path(percentEncoded: false)
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw Failure(path: temporary, code: errno) }
    var written = 0
    let failure: Int32? = data.withUnsafeBytes { bytes in
      while written < bytes.count {
        let count = Glibc.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return errno }
        written += count
      }
      return fsync(descriptor) == 0 ? nil : errno
    }
    close(descriptor)
    if let failure {
      unlink(temporary)
      throw Failure(path: temporary, code: failure)
    }
    guard rename(temporary, path) == 0 else {
      let code = errno
      unlink(temporary)
      throw Failure(path: path, code: code)
    }
  }
}

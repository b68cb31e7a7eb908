// ProcFile: reading a file of /proc whole.

import Foundation

/// The whole text of a /proc file, or nil if it cannot be opened. procfs files report size 0, and
/// `String(contentsOfFile:)` then reads one page only (27 lines of /proc/net/tcp, measured), so this reads to the end.
public func readProcFile(_ path: String) -> String? {
  guard let file = FileHandle(forReadingAtPath: path) else { return nil }
  defer { try? file.close() }
  return String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
}

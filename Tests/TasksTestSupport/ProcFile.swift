// ProcFile: reading a file of /proc whole.

import Foundation

/// The whole text of a /proc file, or nil if it cannot be opened. procfs files report size 0, and
/// `String(contentsOfFile:)` then reads one page only (27 lines of /proc/net/tcp, measured), so this reads to the end.
public func readProcFile(_ path: String) -> String? {
  guard let file = FileHandle(forReadingAtPath: path) else { return nil }
  defer { try? file.close() }
  return String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
}

/// This process's TCP connections to `port` on loopback, by socket inode (any state but TIME_WAIT, which no
/// descriptor holds): a client that is gone must have closed its own. A connection another client kept to an
/// earlier server on the same port number is told apart by taking the set before and subtracting it.
public func openConnections(toPort port: Int) -> Set<Substring> {
  let ours = Set(
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { name -> Substring? in
      guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)"),
        link.hasPrefix("socket:[")
      else { return nil }
      return Substring(link.dropFirst("socket:[".count).dropLast())
    })
  let remote = ":" + String(format: "%04X", port)
  var found = Set<Substring>()
  for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
    // sl local remote st tx:rx tr:when retrnsmt uid timeout inode
    for line in (readProcFile(table) ?? "").split(separator: "\n").dropFirst() {
      let fields = line.split(separator: " ")
      if fields.count > 9, fields[2].hasSuffix(remote), ours.contains(fields[9]) { found.insert(fields[9]) }
    }
  }
  return found
}

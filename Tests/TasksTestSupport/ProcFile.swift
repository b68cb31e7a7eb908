// ProcFile: reading a file of /proc whole.

import Foundation

/// The whole text of a /proc file, or nil if it cannot be opened. procfs files report size 0, and
/// `String(contentsOfFile:)` then reads one page only (27 lines of /proc/net/tcp, measured), so this reads to the end.
public func readProcFile(_ path: String) -> String? {
  guard let file = FileHandle(forReadingAtPath: path) else { return nil }
  defer { try? file.close() }
  return String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
}

/// How many of this process's descriptors are TCP connections to `port` on loopback (any state but TIME_WAIT, which
/// no descriptor holds): a client that is gone must have closed its own.
public func openConnections(toPort port: Int) -> Int {
  let ours = Set(
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { name -> Substring? in
      guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)"),
        link.hasPrefix("socket:[")
      else { return nil }
      return Substring(link.dropFirst("socket:[".count).dropLast())
    })
  let remote = ":" + String(format: "%04X", port)
  return ["/proc/net/tcp", "/proc/net/tcp6"].reduce(0) { count, table in
    // sl local remote st tx:rx tr:when retrnsmt uid timeout inode
    count
      + (readProcFile(table) ?? "").split(separator: "\n").dropFirst().count { line in
        let fields = line.split(separator: " ")
        return fields.count > 9 && fields[2].hasSuffix(remote) && ours.contains(fields[9])
      }
  }
}

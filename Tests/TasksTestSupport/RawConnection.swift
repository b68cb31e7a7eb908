// RawConnection: a TCP connection to a loopback port, written and read by hand (to stop halfway through a request,
// or to keep a connection open until the server closes it).

import Foundation

/// A TCP connection to a loopback port, written and read byte by byte (to stop halfway through a request).
///
/// Its reads block, so they run on a thread of their own: on the cooperative pool (two threads on a 2-core machine)
/// a blocked read can hold the very thread the server under test needs to answer it, and then the read only ends
/// at its timeout (seen in CI: an empty answer from a loopback listener whose handler runs in a Task).
public final class RawConnection: @unchecked Sendable {
  private var socket: Int32

  /// Connects, or throws with nothing left open. The socket is this object's only once connected: a class whose
  /// initializer throws after every property is set is deinitialized, and its `deinit` closed the socket a second
  /// time; by then another thread could hold that number (a server's accepted connection), whose descriptor it closed
  /// under SwiftNIO, which trapped when the number came back (CI: "NIOPosix/SelectorGeneric.swift:320: Assertion
  /// failed", while the playground's stop test connected until refused).
  public init(port: Int) throws {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw POSIXError(.EMFILE) }
    var timeout = timeval(tv_sec: 120, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      Glibc.close(socket)
      throw POSIXError(.ECONNREFUSED)
    }
    self.socket = socket
  }

  deinit { close() }

  /// Closes this side (again: nothing).
  public func close() {
    if socket >= 0 { Glibc.close(socket) }
    socket = -1
  }

  public func send(_ text: String) throws {
    let bytes = Array(text.utf8)
    guard write(socket, bytes, bytes.count) == bytes.count else { throw POSIXError(.EPIPE) }
  }

  /// The response's status line and headers (what came before the other side closed, or before 120 s passed, with
  /// the reason when that was not a whole head).
  public func receiveHead() async -> String {
    await offThePool { [socket] in
      var received: [UInt8] = []
      var byte: UInt8 = 0
      while !received.ends(with: Array("\r\n\r\n".utf8)) {
        let count = read(socket, &byte, 1)
        if count < 0 && errno == EINTR { continue }
        guard count == 1 else {
          let reason = count == 0 ? "closed" : String(cString: strerror(errno))
          return String(decoding: received, as: UTF8.self) + "[no whole head: \(reason)]"
        }
        received.append(byte)
      }
      return String(decoding: received, as: UTF8.self)
    }
  }

  /// Reads what is left until the other side closes (or 120 s pass); true if it closed. Reading everything first
  /// matters: closing a socket with unread bytes resets the connection instead of ending it.
  public func readUntilClosed() async -> Bool {
    await offThePool { [socket] in
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = read(socket, &buffer, buffer.count)
        if count == 0 { return true }
        if count < 0 && errno != EINTR { return false }
      }
    }
  }

  private func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
      Thread.detachNewThread { continuation.resume(returning: work()) }
    }
  }
}

extension Array where Element: Equatable {
  fileprivate func ends(with suffix: [Element]) -> Bool {
    count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
  }
}

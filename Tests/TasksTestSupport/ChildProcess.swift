// ChildProcess: a program the tests start, with its output collected. Sendable; output guarded by a lock.

import Foundation
import Synchronization

/// A program started by a test; standard output and error are collected as they arrive.
public final class ChildProcess: Sendable {
  private let process: Process
  private let pipes: (out: Pipe, err: Pipe)
  private let collected = CollectedOutput()

  /// The process id.
  public var pid: Int32 { process.processIdentifier }

  /// Whether the process is still running.
  public var isRunning: Bool { process.isRunning }

  /// Standard output so far.
  public var standardOutput: String { collected.lock.withLock { String(decoding: $0.out, as: UTF8.self) } }

  /// Standard error so far.
  public var standardError: String { collected.lock.withLock { String(decoding: $0.err, as: UTF8.self) } }

  /// Starts `executable` with `arguments`; `environment` entries are added to (or, with nil, removed from) the
  /// test's own environment.
  public init(
    _ executable: URL, _ arguments: [String] = [], environment: [String: String?] = [:],
    currentDirectory: URL? = nil
  ) throws {
    process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var merged = ProcessInfo.processInfo.environment
    for (key, value) in environment { merged[key] = value }
    process.environment = merged
    if let currentDirectory { process.currentDirectoryURL = currentDirectory }
    let out = Pipe()
    let err = Pipe()
    pipes = (out, err)
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    // One launch at a time: Foundation's Process.run on Linux has crashed (memcpy of a freed buffer) when two
    // launches overlapped.
    try Self.launching.withLock { _ in try process.run() }
    // Each pipe is read by a thread of its own with blocking reads until end of file. Not readabilityHandler: its
    // dispatch read source's teardown races libdispatch's epoll bookkeeping on Linux and crashed the whole test
    // process in _dispatch_event_loop_drain (seen here; swift-corelibs-libdispatch issue 949). A blocking read
    // never registers the descriptor with libdispatch.
    for (handle, isOut) in [(out.fileHandleForReading, true), (err.fileHandleForReading, false)] {
      Thread { [collected] in
        while true {
          let data = handle.availableData
          guard !data.isEmpty else { break }
          collected.lock.withLock { isOut ? $0.out.append(data) : $0.err.append(data) }
        }
        collected.lock.withLock { $0.open -= 1 }
      }.start()
    }
  }

  private static let launching = Mutex(())

  /// Runs a program to completion (at most `timeout`) and returns its exit status and output.
  public static func run(
    _ executable: URL, _ arguments: [String] = [], environment: [String: String?] = [:],
    timeout: Duration = .seconds(60)
  ) async throws -> (status: Int32?, output: String, error: String) {
    let child = try ChildProcess(executable, arguments, environment: environment)
    let status = await child.waitForExit(timeout: timeout)
    if status == nil { child.kill() }
    return (status, child.standardOutput, child.standardError)
  }

  /// Waits up to `timeout` for the process to exit; returns its status, or nil if it is still running. Once it
  /// has exited, what it wrote last is collected too (its readers reach the end of the pipes; a program it left
  /// running with the pipes open is waited for ten seconds at most).
  public func waitForExit(timeout: Duration) async -> Int32? {
    guard await eventually(timeout: timeout, every: .milliseconds(20), { !process.isRunning }) else { return nil }
    _ = await eventually(timeout: .seconds(10), every: .milliseconds(20)) {
      collected.lock.withLock { $0.open == 0 }
    }
    return process.terminationStatus
  }

  /// Sends SIGKILL.
  public func kill() {
    if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
  }

  /// Sends SIGTERM.
  public func terminate() {
    if process.isRunning { process.terminate() }
  }

  deinit {
    if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
  }
}

/// Output collected from a child's pipes by its two reading threads.
private final class CollectedOutput: Sendable {
  /// The output so far, and how many of the two pipes are still open.
  let lock = Mutex<(out: Data, err: Data, open: Int)>((Data(), Data(), 2))
}

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
    out.fileHandleForReading.readabilityHandler = { [collected] handle in
      let data = handle.availableData
      collected.lock.withLock { $0.out.append(data) }
    }
    err.fileHandleForReading.readabilityHandler = { [collected] handle in
      let data = handle.availableData
      collected.lock.withLock { $0.err.append(data) }
    }
    // One launch at a time: Foundation's Process.run on Linux has crashed (memcpy of a freed buffer) when two
    // launches overlapped.
    try Self.launching.withLock { _ in try process.run() }
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

  /// Waits up to `timeout` for the process to exit; returns its status, or nil if it is still running.
  public func waitForExit(timeout: Duration) async -> Int32? {
    guard await eventually(timeout: timeout, every: .milliseconds(20), { !process.isRunning }) else { return nil }
    // Collect what the process wrote last: its end of the pipes is closed now, so this reads to the end.
    for (pipe, isOut) in [(pipes.out, true), (pipes.err, false)] {
      pipe.fileHandleForReading.readabilityHandler = nil
      let rest = pipe.fileHandleForReading.readDataToEndOfFile()
      collected.lock.withLock { isOut ? $0.out.append(rest) : $0.err.append(rest) }
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

/// Output collected from a child's pipes on Foundation's reading threads.
private final class CollectedOutput: Sendable {
  let lock = Mutex<(out: Data, err: Data)>((Data(), Data()))
}

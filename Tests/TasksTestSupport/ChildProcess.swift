// ChildProcess: a program the tests start, with its output collected. Sendable; state guarded by locks.

import Foundation
import Synchronization

/// A program started by a test; standard output and error are collected as they arrive.
///
/// Started with `posix_spawn` and read with blocking reads on threads of its own, not with Foundation's `Process`
/// and `FileHandle.readabilityHandler`: on Linux both crashed the whole test process here — `Process.run` in a
/// memcpy (its scan of /proc/self/fd over-reads `d_name`, swift-corelibs-foundation pull request 5472), the
/// readability handler's teardown in libdispatch's `_dispatch_event_loop_drain` (swift-corelibs-libdispatch
/// issue 949).
public final class ChildProcess: Sendable {
  /// The process id.
  public let pid: pid_t
  private let collected = CollectedOutput()
  /// The exit status once the child has been reaped (the exit code, or the signal that ended it).
  private let exit = Mutex<Int32?>(nil)

  /// Whether the process is still running.
  public var isRunning: Bool {
    exit.withLock { status in
      guard status == nil else { return false }
      var raw: Int32 = 0
      switch waitpid(pid, &raw, WNOHANG) {
      case 0: return true
      case pid: status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : raw & 0x7f
      default: status = -1  // not our child any more: nothing to wait for
      }
      return false
    }
  }

  /// Standard output so far.
  public var standardOutput: String { collected.lock.withLock { String(decoding: $0.out, as: UTF8.self) } }

  /// Standard error so far.
  public var standardError: String { collected.lock.withLock { String(decoding: $0.err, as: UTF8.self) } }

  /// Starts `executable` with `arguments`; `environment` entries are added to (or, with nil, removed from) the
  /// test's own environment. Standard input is /dev/null; no other descriptor of the test process is inherited.
  public init(_ executable: URL, _ arguments: [String] = [], environment: [String: String?] = [:]) throws {
    var merged = ProcessInfo.processInfo.environment
    for (key, value) in environment { merged[key] = value }
    // One spawn at a time, so that no child inherits the write end of another's pipe before it is closed here.
    let (child, output, errors) = try Self.launching.withLock { _ in
      try Self.spawn(executable, arguments, environment: merged)
    }
    pid = child
    for (descriptor, isOut) in [(output, true), (errors, false)] {
      Thread { [collected] in
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
          let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
          if count < 0 && errno == EINTR { continue }
          guard count > 0 else { break }
          collected.lock.withLock {
            if isOut {
              $0.out.append(contentsOf: buffer[..<count])
            } else {
              $0.err.append(contentsOf: buffer[..<count])
            }
          }
        }
        close(descriptor)
        collected.lock.withLock { $0.open -= 1 }
      }.start()
    }
  }

  private static let launching = Mutex(())

  /// A pipe whose both ends close on exec.
  private static func pipeClosingOnExec() throws -> [Int32] {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return ends
  }

  /// Spawns the program with its output and errors on new pipes; answers its pid and the pipes' read ends.
  private static func spawn(
    _ executable: URL, _ arguments: [String], environment: [String: String]
  ) throws -> (pid_t, Int32, Int32) {
    let output = try pipeClosingOnExec()
    let errors = try pipeClosingOnExec()
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, output[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
    // Descriptors of the test process that would survive exec are closed in the child (libraries open some without
    // O_CLOEXEC); the child gets only its three standard ones.
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    for descriptor in open.compactMap({ Int32($0) }) where descriptor > 2 {
      let flags = fcntl(descriptor, F_GETFD)
      if flags >= 0 && flags & FD_CLOEXEC == 0 { posix_spawn_file_actions_addclose(&actions, descriptor) }
    }
    // The child starts with no signal blocked and every signal at its default, as from a shell.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    var all = sigset_t()
    sigemptyset(&none)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var child: pid_t = 0
    let spawned = posix_spawn(&child, executable.path, &actions, &attributes, argv, envp)
    close(output[1])
    close(errors[1])
    guard spawned == 0 else {
      close(output[0])
      close(errors[0])
      throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .ENOENT)
    }
    return (child, output[0], errors[0])
  }

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

  /// Waits up to `timeout` for the process to exit; returns its status (the exit code, or the signal that ended
  /// it), or nil if it is still running. Once it has exited, what it wrote last is collected too (its readers reach
  /// the end of the pipes; a program it left running with the pipes open is waited for ten seconds at most).
  public func waitForExit(timeout: Duration) async -> Int32? {
    guard await eventually(timeout: timeout, every: .milliseconds(20), { !isRunning }) else { return nil }
    _ = await eventually(timeout: .seconds(10), every: .milliseconds(20)) {
      collected.lock.withLock { $0.open == 0 }
    }
    return exit.withLock { $0 }
  }

  /// Sends SIGKILL.
  public func kill() {
    if isRunning { Foundation.kill(pid, SIGKILL) }
  }

  /// Sends SIGTERM.
  public func terminate() {
    if isRunning { Foundation.kill(pid, SIGTERM) }
  }

  deinit {
    if isRunning {
      Foundation.kill(pid, SIGKILL)
      var raw: Int32 = 0
      _ = waitpid(pid, &raw, 0)  // reap it: no zombie outlives the test
    }
  }
}

/// Output collected from a child's pipes by its two reading threads.
private final class CollectedOutput: Sendable {
  /// The output so far, and how many of the two pipes are still open.
  let lock = Mutex<(out: Data, err: Data, open: Int)>((Data(), Data(), 2))
}

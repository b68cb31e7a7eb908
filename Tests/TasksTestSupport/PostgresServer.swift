// PostgresServer: a real PostgreSQL from Debian's packages for the tests: `initdb` into a temporary folder, the
// server on a private loopback port and a socket in that folder; no container, no system cluster touched.

import Foundation
import Synchronization
import Testing

/// A PostgreSQL server of the tests' own, with a superuser `b2c` trusted on loopback. `shared` serves every test of
/// a run (each takes a database of its own); a test that stops the server starts a private one.
public final class PostgresServer: Sendable {
  /// The folder of the cluster (data in `data/`, the socket beside it).
  public let folder: URL
  public let port: Int
  public static let user = "b2c"
  private let process = Mutex<ChildProcess?>(nil)
  private static let serial = Atomic<Int>(0)

  /// One server for the whole test process, stopped as the process exits.
  public static func shared() async throws -> PostgresServer {
    if let server = sharedServer.withLock({ $0 }) { return server }
    let server = try await PostgresServer()
    let kept = sharedServer.withLock { current in
      if let current { return current }
      current = server
      return server
    }
    if kept !== server { await server.remove() }
    return kept
  }

  private static let sharedServer = Mutex<PostgresServer?>(nil)

  /// Creates and starts a new cluster.
  public init() async throws {
    port = try freeLoopbackPort()
    let bin = try Self.binaries()
    if getuid() == 0 {
      // PostgreSQL refuses to run as root: the cluster belongs to the postgres user Debian's package creates (in
      // /tmp itself, which that user can reach whatever TMPDIR says).
      folder = URL(filePath: "/tmp/b2c-tasks-postgres-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
      let owned = try await ChildProcess.run(URL(filePath: "/bin/chown"), ["postgres:postgres", folder.path])
      try #require(owned.status == 0, "chown failed: \(owned.error)")
    } else {
      folder = try TestDesktop.temporaryFolder("postgres")
    }
    let made = try await ChildProcess.run(
      Self.asOwner,
      Self.ownerArguments + [bin.appending(path: "initdb").path] + [
        "-D", folder.appending(path: "data").path, "-U", Self.user, "-A", "trust", "-E", "UTF8", "--no-sync",
        "--locale=C",
      ], timeout: .seconds(120))
    try #require(made.status == 0, "initdb failed: \(made.error)")
    try await start()
  }

  /// Starts (or starts again) the server on its port, and waits until it takes connections.
  public func start() async throws {
    let bin = try Self.binaries()
    let child = try ChildProcess(
      Self.asOwner,
      Self.ownerArguments + [bin.appending(path: "postgres").path] + [
        "-D", folder.appending(path: "data").path, "-p", "\(port)", "-k", folder.path,
        "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "max_connections=200",
      ])
    process.withLock { $0 = child }
    Self.running.withLock { $0[child.pid] = folder }
    _ = Self.registerExitHandler
    let ready = await eventually(timeout: .seconds(120)) {
      !child.isRunning || child.standardError.contains("ready to accept connections")
    }
    try #require(ready && child.isRunning, "PostgreSQL did not start: \(child.standardError.suffix(2000))")
  }

  /// Stops the server (fast shutdown: sessions are ended) and waits until it is gone.
  public func stop() async {
    guard let child = process.withLock({ $0 }) else { return }
    if child.isRunning { kill(child.pid, SIGINT) }
    if await child.waitForExit(timeout: .seconds(60)) == nil { child.kill() }
    _ = Self.running.withLock { $0.removeValue(forKey: child.pid) }
  }

  /// Stops the server and removes its folder.
  public func remove() async {
    await stop()
    try? FileManager.default.removeItem(at: folder)
  }

  /// A new empty database; its URL (TCP on loopback, no password).
  public func createDatabase() async throws -> String {
    let name = "tasks_\(getpid())_\(Self.serial.add(1, ordering: .relaxed).newValue)"
    let made = try await ChildProcess.run(
      try Self.binaries().appending(path: "createdb"), ["-h", "127.0.0.1", "-p", "\(port)", "-U", Self.user, name])
    try #require(made.status == 0, "createdb failed: \(made.error)")
    return url(database: name)
  }

  /// The URL of `database` on this server over TCP.
  public func url(database: String) -> String { "postgres://\(Self.user)@127.0.0.1:\(port)/\(database)" }

  /// Runs SQL with psql and returns its unaligned output.
  public func psql(_ database: String, _ sql: String) async throws -> String {
    let ran = try await ChildProcess.run(
      try Self.binaries().appending(path: "psql"),
      ["-h", "127.0.0.1", "-p", "\(port)", "-U", Self.user, "-d", database, "-At", "-v", "ON_ERROR_STOP=1", "-c", sql])
    try #require(ran.status == 0, "psql failed: \(ran.error)")
    return ran.output.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  // MARK: Programs

  /// The newest PostgreSQL's programs from Debian's packages (`/usr/lib/postgresql/VERSION/bin`).
  static func binaries() throws -> URL {
    let root = URL(filePath: "/usr/lib/postgresql")
    let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
    let newest = versions.compactMap(Int.init).max()
    let bin = try #require(
      newest.map { root.appending(path: "\($0)/bin") },
      "PostgreSQL is not installed (meson-wrap/tools/install-deps.sh --tests installs it)")
    return bin
  }

  /// Runs a program as the cluster's owner: `setpriv` keeps the process id (so signals reach PostgreSQL itself).
  private static var asOwner: URL { URL(filePath: getuid() == 0 ? "/usr/bin/setpriv" : "/usr/bin/env") }
  private static var ownerArguments: [String] {
    getuid() == 0 ? ["--reuid=postgres", "--regid=postgres", "--init-groups", "--"] : []
  }

  // MARK: Clean-up at exit

  /// Servers still running and their folders: stopped and removed when the test process exits.
  private static let running = Mutex<[pid_t: URL]>([:])
  private static let registerExitHandler: Void = {
    atexit {
      for (pid, folder) in PostgresServer.running.withLock({ $0 }) {
        kill(pid, SIGQUIT)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        try? FileManager.default.removeItem(at: folder)
      }
    }
  }()
}

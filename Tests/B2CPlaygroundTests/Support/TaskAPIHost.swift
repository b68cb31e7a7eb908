// TaskAPIHost: where a test reaches the task API: the playground's own, or b2c-tasks-api as a process of its own.

import Foundation
import Synchronization
import TasksTestSupport
import Testing

/// The hosts of the one task API implementation, and its two databases.
enum TaskAPIHost: String, CaseIterable, CustomTestStringConvertible, Sendable {
  /// In the playground's process, on its database.
  case playground
  /// `b2c-tasks-api`, another process with its own SQLite database, trusting the playground's B2C policy by its
  /// metadata document (as it would trust a real tenant).
  case service
  /// `b2c-tasks-api` on a database of its own in the tests' PostgreSQL server.
  case postgres

  var testDescription: String { rawValue }

  /// A started API for `harness`'s users; `stop()` it at the end. `arguments` go to b2c-tasks-api.
  func start(for harness: PlaygroundHarness, arguments: [String] = []) async throws -> TaskAPIEndpoint {
    switch self {
    case .playground: return TaskAPIEndpoint(base: harness.base, process: nil, data: nil)
    case .service:
      let data = try TestDesktop.temporaryFolder("tasks-api")
      let process = try await TaskAPIProcess.start(
        database: data.appending(path: "tasks.sqlite").path,
        issuerMetadata: harness.policyMetadata, arguments: arguments)
      return TaskAPIEndpoint(base: process.base, process: process, data: data)
    case .postgres:
      let database = try await PostgresServer.shared().createDatabase()
      let process = try await TaskAPIProcess.start(
        database: database, issuerMetadata: harness.policyMetadata, arguments: arguments)
      return TaskAPIEndpoint(base: process.base, process: process, data: nil)
    }
  }
}

extension PlaygroundHarness {
  /// The sign-in policy's OpenID Connect metadata URL, as a real deployment names its tenant's.
  var policyMetadata: URL {
    base.appending(path: "\(Self.tenant)/\(Self.signIn)/v2.0/.well-known/openid-configuration")
  }
}

/// A task API a test talks to.
struct TaskAPIEndpoint {
  let base: URL
  let process: TaskAPIProcess?
  let data: URL?

  func stop() async {
    await process?.stop()
    if let data { try? FileManager.default.removeItem(at: data) }
  }
}

/// A `b2c-tasks-api` process on a free loopback port.
final class TaskAPIProcess: Sendable {
  let process: ChildProcess
  let port: Int
  var base: URL { URL(string: "http://127.0.0.1:\(port)")! }

  private init(process: ChildProcess, port: Int) {
    self.process = process
    self.port = port
  }

  static var program: URL { TestDesktop.binaryFolder.appending(path: "b2c-tasks-api") }

  /// Starts it on `database` and `port` (0: a free one), trusting the issuer at `issuerMetadata` for the app's
  /// client id; `environment` is set (a nil value unset) in its environment.
  static func start(
    database: String, issuerMetadata: URL, port: Int = 0, arguments: [String] = [],
    environment: [String: String?] = [:]
  ) async throws -> TaskAPIProcess {
    try #require(FileManager.default.isExecutableFile(atPath: program.path), "build it first: swift build")
    let process = try ChildProcess(
      program,
      [
        "--port", "\(port)", "--database", database, "--issuer-metadata", issuerMetadata.absoluteString, "--audience",
        PlaygroundHarness.clientID,
      ] + arguments, environment: environment)
    var port: Int?
    let started = await eventually(timeout: .seconds(120)) {
      port = listeningPort(in: process.standardOutput)
      return port != nil || !process.isRunning
    }
    try #require(started && port != nil, "b2c-tasks-api did not start: \(process.standardError)")
    return TaskAPIProcess(process: process, port: port!)
  }

  /// Whether the test ended it itself (`kill`, `terminate`): any other end before `stop` is a crash, reported there.
  private let endAsked = Mutex(false)

  /// SIGKILL, as a crash or a power cut would end it.
  func kill() {
    endAsked.withLock { $0 = true }
    process.kill()
  }

  /// SIGTERM: a graceful shutdown.
  func terminate() {
    endAsked.withLock { $0 = true }
    process.terminate()
  }

  /// SIGTERM, then waits for it to end (SIGKILL after 30 s). A process that ended before without the test asking
  /// is recorded as an issue, with how it ended and what it wrote last: a test that only saw its connections refused
  /// would not say why.
  func stop() async {
    if !process.isRunning && !endAsked.withLock({ $0 }) {
      let status = await process.waitForExit(timeout: .seconds(10)).map(String.init) ?? "unknown"
      Issue.record(
        "b2c-tasks-api on port \(port) ended before its test did (exit status or signal \(status)); what it wrote last: \(process.standardError.suffix(6000))"
      )
    }
    process.terminate()
    if await process.waitForExit(timeout: .seconds(30)) == nil { process.kill() }
  }
}

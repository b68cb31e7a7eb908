// CalDAV checked by software nobody here wrote: python-caldav (discovery, MKCALENDAR, save and read back, queries,
// sync tokens with no fallback), caldav-server-tester's probe, a vdirsyncer + todoman round trip, and Evolution's own
// CalDAV backend (evolution-data-server, driven through its GObject API), against the playground and b2c-tasks-api on
// PostgreSQL. The scripts are Tests/CalDAV/ (checked against Radicale, the reference, by radicale-selfcheck.sh).

import Foundation
import TasksTestSupport
import Testing

@Suite("CalDAV with python-caldav, caldav-server-tester, vdirsyncer + todoman and Evolution's backend", .serialized)
struct CalDAVInteropTests {
  static let scripts = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../CalDAV")
    .standardizedFileURL
  static let venv = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../../.build/caldav-venv")
    .standardizedFileURL

  /// The clients' virtualenv (made from PyPI, pinned, the first time; at once after).
  static func installClients() async throws {
    let installed = try await ChildProcess.run(
      scripts.appending(path: "install.sh"), [venv.path], timeout: .seconds(600))
    try #require(installed.status == 0, "install.sh: \(installed.output) \(installed.error)")
  }

  /// The `ok`/`FAIL` lines a script printed, and its exit status (each check must be `ok`); what it printed is kept
  /// in the test artifacts as `log`.
  static func expectAllPassed(
    _ result: (status: Int32?, output: String, error: String), _ checks: [String], log: String
  ) {
    try? (result.output + "\n" + result.error).write(
      to: TestDesktop.artifacts.appending(path: log), atomically: true, encoding: .utf8)
    let lines = result.output.split(separator: "\n")
    for check in checks {
      #expect(lines.contains("ok \(check)"), "\(check): \(result.output)\n\(result.error.suffix(4000))")
    }
    #expect(result.status == 0, "\(result.output)\n\(result.error.suffix(4000))")
  }

  @Test(
    "python-caldav, caldav-server-tester and vdirsyncer + todoman: every check passes",
    arguments: [TaskAPIHost.playground, .postgres])
  func pythonClients(host: TaskAPIHost) async throws {
    try await Self.installClients()
    try await PlannerAPITests.withAPI(host) { harness, api in
      let (_, dav, _) = try await CalDAVTests.annOnDAV(harness, api.base, name: "Interop")
      let checks = ["discovery", "mkcalendar", "todos", "sync", "vdirsyncer", "tester"]
      let result = try await ChildProcess.run(
        Self.venv.appending(path: "bin/python"),
        [
          Self.scripts.appending(path: "interop.py").path, "--url", api.base.absoluteString + "/", "--user",
          dav.username, "--checks", checks.joined(separator: ","), "-v",
        ], environment: ["CALDAV_PASSWORD": dav.password], timeout: .seconds(600))
      Self.expectAllPassed(result, checks, log: "caldav-interop-\(host).log")
    }
  }

  @Test(
    "Evolution's CalDAV backend (evolution-data-server) finds the task list, lists, adds, completes and edits tasks")
  func evolution() async throws {
    try await PlannerAPITests.withAPI(.playground) { harness, api in
      let (_, dav, _) = try await CalDAVTests.annOnDAV(harness, api.base, name: "Evolution")
      let result = try await ChildProcess.run(
        URL(filePath: "/usr/bin/python3"),
        [
          Self.scripts.appending(path: "eds.py").path, "--url", api.base.absoluteString + "/", "--user", dav.username,
          "-v",
        ], environment: ["CALDAV_PASSWORD": dav.password], timeout: .seconds(600))
      Self.expectAllPassed(result, ["eds"], log: "caldav-eds.log")
    }
  }
}

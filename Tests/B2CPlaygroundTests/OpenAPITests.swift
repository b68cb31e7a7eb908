// OpenAPITests: the task API's OpenAPI description checked against the running b2c-tasks-api by schemathesis (from
// PyPI; nobody here wrote it), which fuzzes every operation: answers documented, no 500, bad input refused.

import Foundation
import TasksTestSupport
import Testing

@Suite("The task API's OpenAPI description, checked by schemathesis", .serialized)
struct OpenAPITests {
  static var script: URL {
    URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appending(path: "OpenAPI/check.sh")
  }

  @Test(
    "b2c-tasks-api answers as openapi.yaml says, on SQLite and on PostgreSQL",
    arguments: [TaskAPIHost.service, .postgres])
  func conformance(host: TaskAPIHost) async throws {
    let harness = try await PlaygroundHarness.start()
    let api = try await host.start(for: harness)
    try await withTeardown({
      await api.stop(); await harness.stop()
    }) {
      let token = try #require(
        try await SignInDriver(harness).tokens("ann@example.com", "Tasks-Demo-1")["access_token"] as? String)
      // The first run installs schemathesis into a virtual environment: minutes on a slow machine.
      let run = try await ChildProcess.run(
        Self.script, [api.base.absoluteString], environment: ["TASK_API_TOKEN": token], timeout: .seconds(900))
      // The report, for a person to read (Tests/run-all.sh keeps .build/test-artifacts).
      try? FileManager.default.createDirectory(at: TestDesktop.artifacts, withIntermediateDirectories: true)
      try? Data(run.output.utf8).write(to: TestDesktop.artifacts.appending(path: "schemathesis-\(host).txt"))
      #expect(run.output.contains("Tested: 27"), "not every operation was tested")
      #expect(run.status == 0, "schemathesis found problems:\n\(run.output.suffix(6000))\n\(run.error.suffix(2000))")
      #expect(!run.output.contains(token) && !run.error.contains(token), "the token was printed")
      let log = api.process.map { $0.process.standardOutput + $0.process.standardError } ?? ""
      #expect(!log.contains("status=500"), "the service answered 500")
    }
  }
}

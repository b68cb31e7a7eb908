// Tests of the main-queue bridge, run in gtk-support-probe: a fresh process whose main thread GLib owns, which is
// what b2c-tasks does and what the test runner itself (which drains the main queue its own way) cannot show.

import Foundation
import TasksTestSupport
import Testing

@Suite("Main-queue bridge")
struct MainQueueBridgeTests {
  struct Report: Decodable {
    var bridge: Bool
    var mainActorRan: Bool
    var continuationRan: Bool
    var dispatchRan: Bool
    var hops: Int
    var hopsDone: Int
    var wakeups: Int
    var idleWakeups: Int
    var idleCPUMilliseconds: Double
  }

  private func probe(_ arguments: [String]) async throws -> Report {
    let program = TestDesktop.binaryFolder.appending(path: "GtkSupportProbe")
    try #require(
      FileManager.default.isExecutableFile(atPath: program.path), "build the probe first: swift build")
    let run = try await ChildProcess.run(program, arguments, timeout: .seconds(30))
    try #require(run.status == 0, "probe failed: \(run.error)")
    let line = try #require(run.output.split(separator: "\n").last)
    return try JSONDecoder().decode(Report.self, from: Data(line.utf8))
  }

  @Test("main-actor work, task continuations and main-queue blocks run under g_application_run")
  func runsMainActorWork() async throws {
    let report = try await probe([])
    #expect(report.bridge)
    #expect(report.mainActorRan)
    #expect(report.continuationRan)
    #expect(report.dispatchRan)
    #expect(report.hopsDone == report.hops)
  }

  @Test("without the bridge none of it runs")
  func nothingRunsWithoutBridge() async throws {
    let report = try await probe(["--no-bridge"])
    #expect(!report.bridge)
    #expect(!report.mainActorRan)
    #expect(!report.dispatchRan)
    #expect(report.hopsDone == 0)
  }

  @Test("the bridge fires only for queued work: a bounded count, none while idle")
  func noBusyLoop() async throws {
    let report = try await probe([])
    // Each hop enqueues at most two main-queue jobs; a spinning source would fire tens of thousands of times.
    #expect(report.wakeups <= 4 * report.hops + 20)
    #expect(report.idleWakeups <= 2)
    #expect(report.idleCPUMilliseconds < 100)
  }
}

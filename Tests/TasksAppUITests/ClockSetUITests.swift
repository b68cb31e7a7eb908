// A clock set forward past a reminder fires it at once: the reminder service's one wall-clock timer
// (TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET) sees the clock set. It sets the machine's clock, so it runs alone,
// after every other test (Tests/run-all.sh's swift-tests stage sets B2C_TASKS_CLOCK_TESTS=1), and needs the right
// to set the clock (root here; CAP_SYS_TIME).

import Foundation
import Glibc
import TasksTestSupport
import Testing

extension AppUI {
  @Suite(
    "Reminders when the clock is set", .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["B2C_TASKS_CLOCK_TESTS"] == "1", "sets the machine's clock"))
  struct ClockSetUITests {
    @Test("a clock set back and forward again re-arms the timer; set forward past a reminder, it fires at once")
    func clockSetForward() async throws {
      try await ReminderUITests.endRunningService()
      let playground = try await PlaygroundForUI()
      let ann = try await TerminalUser(playground, email: "ann@example.com", password: "Tasks-Demo-1")
      let server = try await NotificationServer()
      let oven = try await ann.add(["Check the oven", "--remind", "in 30 minutes"])
      let at = try #require(oven.remindAt)
      _ = try await ann.add(["Buy bread", "--due", ReminderUITests.yesterday, "--remind", "at the due time"])
      let service = try ann.startReminders()
      defer { service.kill() }
      // The missed one shown: the feed is read, and the timer armed for the oven, half an hour away.
      try await server.waitForShown("Buy bread")

      // Set back an hour, then forward again: the service's timer is cancelled twice and armed again each time.
      try Self.setClock(by: -3_600)
      try Self.setClock(by: 3_600)
      #expect(server.shown("Check the oven").isEmpty)
      // Forward past the reminder: it fires at once.
      let jump = at.timeIntervalSinceNow + 5
      try Self.setClock(by: jump)
      let jumped = Date()
      let shown = await eventually(timeout: .seconds(30), every: .milliseconds(20)) {
        !server.shown("Check the oven").isEmpty
      }
      try Self.setClock(by: -jump)
      try #require(shown, "not shown after the clock was set forward: \(server.records)")
      let late = try #require(server.shown("Check the oven").first?["time"] as? Double) - jumped.timeIntervalSince1970
      #expect(late > -0.5 && late < 2, "shown \(late) s after the clock was set past it")
      #expect(server.shown("Check the oven").count == 1 && server.shown("Buy bread").count == 1)
      #expect(service.isRunning)
    }

    /// Moves the machine's wall clock by `seconds` (CLOCK_REALTIME; the monotonic clock the tests wait by is not
    /// touched).
    static func setClock(by seconds: TimeInterval) throws {
      var now = timespec()
      clock_gettime(CLOCK_REALTIME, &now)
      let whole = Int(seconds.rounded(.down))
      var nanoseconds = now.tv_nsec + Int((seconds - TimeInterval(whole)) * 1e9)
      var set = now.tv_sec + whole
      if nanoseconds >= 1_000_000_000 {
        nanoseconds -= 1_000_000_000
        set += 1
      }
      var moved = timespec(tv_sec: set, tv_nsec: nanoseconds)
      try #require(clock_settime(CLOCK_REALTIME, &moved) == 0, "the clock cannot be set: errno \(errno)")
    }
  }
}

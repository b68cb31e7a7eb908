// Eventually: waiting for a condition with a deadline instead of sleeping. Any thread.

import Foundation

/// Polls `condition` until it holds or `timeout` passes; answers whether it held.
///
/// The poll interval only bounds how late a change is noticed; the deadline is what a test relies on. The default
/// deadline is long because the condition may wait for a task queued behind every test's work: at the start of the
/// whole parallel run on a busy 2-core machine, a new task started only after more than 20 s (seen, with the
/// suites' own processes and two CPU-bound programs beside them). A condition that holds returns at once anyway.
public func eventually(
  isolation: isolated (any Actor)? = #isolation, timeout: Duration = .seconds(120),
  every interval: Duration = .milliseconds(50),
  _ condition: () async throws -> Bool
) async rethrows -> Bool {
  let clock = ContinuousClock()
  let deadline = clock.now + timeout
  while true {
    if try await condition() { return true }
    if clock.now >= deadline { return false }
    try? await Task.sleep(for: interval)
  }
}

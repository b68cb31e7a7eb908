// Eventually: waiting for a condition with a deadline instead of sleeping. Any thread.

import Foundation

/// Polls `condition` until it holds or `timeout` passes; answers whether it held.
///
/// The poll interval only bounds how late a change is noticed; the deadline is what a test relies on.
public func eventually(
  timeout: Duration = .seconds(20), every interval: Duration = .milliseconds(50),
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

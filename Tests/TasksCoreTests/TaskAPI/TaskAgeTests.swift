// Tests of the age shown under a task's text.

import Foundation
import TasksCore
import Testing

@Suite("A task's age under its text")
struct TaskAgeTests {
  @Test("each range reads as a person says it, singular and plural")
  func ranges() {
    let now = Date(timeIntervalSince1970: 2_000_000_000)
    let cases: [(TimeInterval, String)] = [
      (0, "Just now"), (59, "Just now"), (-3600, "Just now"),
      (60, "1 min ago"), (59 * 60, "59 min ago"),
      (3600, "1 h ago"), (2 * 3600 + 59, "2 h ago"), (23 * 3600, "23 h ago"),
      (86400, "1 day ago"), (3 * 86400, "3 days ago"),
      (7 * 86400, "1 week ago"), (20 * 86400, "2 weeks ago"),
      (40 * 86400, "1 month ago"), (200 * 86400, "6 months ago"),
      (365 * 86400, "1 year ago"), (800 * 86400, "2 years ago"),
    ]
    for (ago, expected) in cases {
      #expect(TaskAge.caption(for: now.addingTimeInterval(-ago), now: now) == expected, "\(ago) s ago")
    }
  }
}

// The offline banner's Retry as a person uses it: pressing it keeps the keyboard focus in the window's content, and
// the "sent" toast goes away by itself (it stayed for minutes, holding the focus on its close button).

import Foundation
import TasksTestSupport
import Testing

extension AppUI {
  @Suite("Offline banner")
  struct OfflineUITests {
    @Test("service down, add, service back, click Retry: the toast goes by itself and focus stays in the list")
    func retryKeepsFocus() async throws {
      let playground = try await PlaygroundForUI()
      let app = try AppDriver(settings: playground.settings)
      let window = try await app.signInByTyping()
      try await app.waitFor(role: "label", name: "No Tasks")
      await playground.stop()
      try await app.key("F5", window: window)
      try await app.waitFor(role: "push button", name: "Retry")
      try await app.addTask("written offline", window: window)
      try await app.waitFor(role: "check box", name: "written offline — waiting to be sent")
      try await playground.restart()
      try await app.click(role: "push button", name: "Retry")
      try await app.waitFor(role: "label", name: "1 waiting task was sent")
      try await app.waitUntilGone(role: "push button", name: "Retry")
      let tree = try await app.accessibleTree { nodes in nodes.contains { $0.states.contains("focused") } }
      let focused = try #require(tree.first { $0.states.contains("focused") })
      #expect(
        ["check box", "list", "list item"].contains(focused.role)
          || (focused.role == "text" && focused.name == "New task"),
        "the focus went to \(focused.role) \(focused.name), not to the list")
      try await app.checkScreen("retry-sent")
      // A toast lasts seconds, not minutes.
      try await app.waitUntilGone(role: "label", name: "1 waiting task was sent")
      await app.stop()
    }
  }
}

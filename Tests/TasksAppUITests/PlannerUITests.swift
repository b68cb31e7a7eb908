// UI tests of the planner in the window: the sidebar and its counts following the CLI, Today and Upcoming across
// lists, the quick entry's chips (English and German), finishing a repeating task, New List, the keyboard
// (Ctrl+1…9, Alt+Up/Down, Ctrl+L) and the narrow window.

import Foundation
import TasksTestSupport
import Testing

extension AppDriver {
  /// Waits for a showing object of `role` whose name starts with `prefix`; answers its whole name.
  @discardableResult
  func waitFor(role: String, nameStartingWith prefix: String, sourceLocation: SourceLocation = #_sourceLocation)
    async throws -> String
  {
    let matches = { (node: AccessibleNode) in node.role == role && node.name.hasPrefix(prefix) && node.isShowing }
    let nodes = try await accessibleTree(sourceLocation: sourceLocation) { $0.contains(where: matches) }
    return try #require(nodes.first(where: matches)).name
  }
}

extension AppUI {
  @Suite("The planner: sidebar, Today, Upcoming and quick entry")
  struct PlannerUITests {
    @Test(
      "the sidebar counts what the CLI adds; Today and Upcoming across lists; quick entry's chips; a repeat finished moves on; New List; the keyboard; a narrow window"
    )
    func planner() async throws {
      let playground = try await PlaygroundForUI()
      let app = try AppDriver(settings: playground.settings)
      let window = try await app.signInByTyping()
      try await app.waitFor(role: "label", name: "No Tasks")
      try await app.waitFor(role: "list item", name: "Today, 0 open tasks")
      try await app.waitFor(role: "list item", name: "Tasks, 0 open tasks")

      // What the terminal adds shows in the sidebar's counts at the next refresh.
      _ = try await app.runCLI(["lists", "add", "Work"])
      _ = try await app.runCLI(["add", "Call Bob", "--list", "Work", "--due", "today"])
      _ = try await app.runCLI(["add", "Send report", "--list", "Work", "--due", "in 3 days"])
      try await app.key("F5", window: window)
      try await app.waitFor(role: "list item", name: "Work, 2 open tasks")
      try await app.waitFor(role: "list item", name: "Today, 1 open task")
      try await app.waitFor(role: "list item", name: "Upcoming, 1 open task")

      // Ctrl+1: Today, with each task's list.
      try await app.key("ctrl+1", window: window)
      try await app.waitFor(role: "list item", name: "Call Bob, not done, due Today, in Work")
      try await app.checkScreen("planner-today")

      // The quick entry shows what it understood; a dismissed chip keeps its words in the title.
      try await app.key("ctrl+n", window: window)
      try await app.waitForFocus(role: "text", name: "New task with a date")
      try await app.type("Pay rent tomorrow 9am every month !high", window: nil)
      for chip in [
        "Tomorrow: press to keep “tomorrow” in the title", "09:00: press to keep “9am” in the title",
        "Monthly: press to keep “every month” in the title", "High priority: press to keep “!high” in the title",
      ] {
        try await app.waitFor(role: "push button", name: chip)
      }
      try await app.checkScreen("planner-chips")
      try await app.key("Return", window: nil)
      try await app.waitUntilGone(role: "push button", name: "09:00: press to keep “9am” in the title")

      // Alt+Down: Upcoming, where it is, due tomorrow at 09:00, monthly, high, in the default list.
      try await app.key("alt+Down", window: window)
      let rent = "Pay rent, not done, due Tomorrow 09:00, repeats Monthly, High priority, in Tasks"
      try await app.waitFor(role: "list item", name: rent)
      try await app.waitFor(role: "list item", name: "Tasks, 1 open task")
      let listed = try await app.runCLI(["list", "--json"])
      #expect(listed.contains("Pay rent") && listed.contains("FREQ=MONTHLY") && listed.contains("09:00"))

      // Finishing it moves it to its next date in place, with Undo; Undo puts it back.
      try await app.click(role: "check box", name: "Pay rent")
      let moved = try await app.waitFor(role: "label", nameStartingWith: "“Pay rent” is next due ")
      #expect(!moved.contains("Tomorrow"))
      try await app.waitUntilGone(role: "list item", name: rent)
      try await app.press(button: "Undo Undo")  // (libadwaita 1.2 names a toast's button twice)
      try await app.waitFor(role: "list item", name: rent)

      // New List (Ctrl+Alt+N): made and shown, empty.
      try await app.key("ctrl+alt+n", window: window)
      try await app.waitForFocus(role: "text", name: "List name")
      try await app.type("Garden", window: nil)
      try await app.key("Return", window: nil)
      try await app.waitFor(role: "list item", name: "Garden, 0 open tasks")
      try await app.waitFor(role: "label", name: "Nothing Planned")
      try await app.key("ctrl+n", window: window)
      try await app.type("Mow the lawn !low", window: nil)
      try await app.key("Return", window: nil)
      try await app.waitFor(role: "list item", name: "Mow the lawn, not done, Low priority")
      try await app.waitFor(role: "list item", name: "Garden, 1 open task")
      #expect(try await app.runCLI(["list", "--list", "Garden"]).contains("Mow the lawn"))
      try await app.checkScreen("planner-new-list")

      // Ctrl+3: the default list, the sample's page; Ctrl+L to the sidebar.
      try await app.key("ctrl+3", window: window)
      try await app.waitFor(role: "check box", name: "Pay rent")
      try await app.key("ctrl+l", window: window)
      try await app.waitForFocus(role: "list item", name: "Tasks, 1 open task")
      // In the sidebar, Down and Enter open the next entry.
      try await app.key("Down", window: nil)
      try await app.waitForFocus(role: "list item", name: "Garden, 1 open task")
      try await app.key("Return", window: nil)
      try await app.waitFor(role: "list item", name: "Mow the lawn, not done, Low priority")

      // A narrow window folds the sidebar away: the list takes the width; Ctrl+L brings the sidebar back.
      try await app.key("ctrl+1", window: window)
      try await app.waitFor(role: "list item", name: "Call Bob, not done, due Today, in Work")
      try await app.resize(window, width: 360, height: 640)
      try await app.accessibleTree { _ in true }
      let list = try await app.extents(role: "list", name: "Planned tasks")
      let frame = try await app.extents(role: "frame", name: "B2C Tasks")
      #expect(list.x - frame.x < 100, "the list starts at the window's edge, not after a sidebar: \(list) in \(frame)")
      _ = try await app.screenshot("planner-narrow")
      try await app.key("ctrl+l", window: window)
      try await app.waitForFocus(role: "list item", name: "Today, 1 open task")
      await app.stop()
    }

    @Test("German: the quick entry reads German words, the chips and the rows speak German")
    func german() async throws {
      let playground = try await PlaygroundForUI()
      let app = try AppDriver(settings: playground.settings, language: "de")
      let window = try await app.signInByTyping(button: "Anmelden", pageTitle: "Anmelden")
      try await app.waitFor(role: "list item", name: "Heute, 0 offene Aufgaben")
      try await app.key("ctrl+2", window: window)
      try await app.key("ctrl+n", window: window)
      try await app.waitForFocus(role: "text", name: "Neue Aufgabe mit Datum")
      try await app.type("Miete zahlen morgen 9 Uhr jeden Monat !hoch", window: nil)
      try await app.waitFor(role: "push button", name: "Morgen: drücken, um „morgen“ im Titel zu behalten")
      try await app.waitFor(role: "push button", name: "Monatlich: drücken, um „jeden Monat“ im Titel zu behalten")
      try await app.waitFor(role: "push button", name: "Hohe Priorität: drücken, um „!hoch“ im Titel zu behalten")
      // Dismissing the time's chip keeps "9 Uhr" in the title.
      try await app.press(button: "09:00: drücken, um „9 Uhr“ im Titel zu behalten")
      try await app.waitUntilGone(role: "push button", name: "09:00: drücken, um „9 Uhr“ im Titel zu behalten")
      try await app.waitForFocus(role: "text", name: "Neue Aufgabe mit Datum")
      try await app.checkScreen("planner-chips-de")
      try await app.key("Return", window: nil)
      try await app.waitFor(
        role: "list item",
        name:
          "Miete zahlen 9 Uhr, nicht erledigt, fällig Morgen, wiederholt sich Monatlich, Hohe Priorität, in Aufgaben")
      await app.stop()
    }
  }
}

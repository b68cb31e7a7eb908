// UI tests of the planner in the window: the sidebar and its counts following the CLI, Today and Upcoming across
// lists, the quick entry's chips (English and German), finishing a repeating task, New List, the keyboard
// (Ctrl+1…9, Alt+Up/Down, Ctrl+L), the narrow window, and a list's tasks put in order (keys and dragging).

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
      try await app.waitForFocus(role: "text", name: "New task")
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

      // Finishing it moves it to its next date in place, with Undo; Undo puts it back, on the service too.
      let tomorrow = try #require(try dueDate(of: "Pay rent", in: listed))
      try await app.click(role: "check box", name: "Pay rent")
      let moved = try await app.waitFor(role: "label", nameStartingWith: "“Pay rent” is next due ")
      #expect(!moved.contains("Tomorrow"))
      try await app.waitUntilGone(role: "list item", name: rent)
      let nextMonth = try #require(await serviceDue(of: "Pay rent", in: app) { $0 != tomorrow })
      try await app.press(button: "Undo Undo")  // (libadwaita 1.2 names a toast's button twice)
      try await app.waitFor(role: "list item", name: rent)
      #expect(await serviceDue(of: "Pay rent", in: app) { $0 == tomorrow } != nil, "the Undo reached the service")
      // Finished again, it moves again and stays moved (the service once took it for a replay of the first finishing,
      // and the row came back at Tomorrow).
      // (Clicked again only while the row still shows it due tomorrow and the service has it so: a click that
      // landed as the row was drawn again.)
      for _ in 0..<3 {
        try await app.waitFor(role: "check box", name: "Pay rent")
        try await app.click(role: "check box", name: "Pay rent")
        let ticked = try await eventually(timeout: .seconds(30), every: .milliseconds(200)) {
          guard let nodes = try await app.dumpTree() else { return false }
          return !nodes.contains { $0.role == "list item" && $0.name == rent && $0.isShowing }
        }
        if ticked { break }
        let untouched = try await app.outputOfCLI(["list", "--json"]).flatMap { try dueDate(of: "Pay rent", in: $0) }
        guard untouched == tomorrow else { break }
      }
      try await app.waitUntilGone(role: "list item", name: rent)
      #expect(
        await serviceDue(of: "Pay rent", in: app) { $0 == nextMonth } != nil, "finished again, on the service too")
      #expect(try await app.accessibleTree { _ in true }.contains { $0.name == rent } == false)

      // New List (Ctrl+Alt+N): made and shown, empty.
      try await app.key("ctrl+alt+n", window: window)
      try await app.waitForFocus(role: "text", name: "List name")
      try await app.type("Garden", window: nil)
      try await app.key("Return", window: nil)
      try await app.waitFor(role: "list item", name: "Garden, 0 open tasks")
      try await app.waitFor(role: "label", name: "No Tasks")
      try await app.key("ctrl+n", window: window)
      try await app.type("Mow the lawn !low", window: nil)
      try await app.key("Return", window: nil)
      try await app.waitFor(role: "list item", name: "Mow the lawn, not done, Low priority")
      try await app.waitFor(role: "list item", name: "Garden, 1 open task")
      #expect(try await app.runCLI(["list", "--list", "Garden"]).contains("Mow the lawn"))
      try await app.checkScreen("planner-new-list")

      // Ctrl+3: the default list, on the same page as every list; Ctrl+L to the sidebar.
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
      let list = try await app.extents(role: "list", name: "Tasks")
      let frame = try await app.extents(role: "frame", name: "B2C Tasks")
      #expect(list.x - frame.x < 100, "the list starts at the window's edge, not after a sidebar: \(list) in \(frame)")
      _ = try await app.screenshot("planner-narrow")
      // Only the pane on screen is presented to a screen reader (GTK 4.8 presented the folded-away sidebar too).
      try await app.accessibleTree { nodes in
        nodes.contains { $0.role == "list" && $0.name == "Tasks" }
          && !nodes.contains { $0.role == "list" && $0.name == "Lists" }
      }
      try await app.key("ctrl+l", window: window)
      try await app.waitForFocus(role: "list item", name: "Today, 1 open task")
      try await app.accessibleTree { nodes in
        nodes.contains { $0.role == "list" && $0.name == "Lists" }
          && !nodes.contains { $0.role == "list" && $0.name == "Tasks" }
      }
      await app.stop()
    }

    @Test(
      "a list's tasks move with Alt+Shift+Up/Down, the focus with them, not past the top, and by dragging; the service and the CLI keep the order"
    )
    func reorder() async throws {
      let playground = try await PlaygroundForUI()
      let app = try AppDriver(settings: playground.settings)
      let window = try await app.signInByTyping()
      try await app.waitFor(role: "list item", name: "Tasks, 0 open tasks")
      _ = try await app.runCLI(["lists", "add", "Chores"])
      for title in ["Sweep", "Dust", "Mop"] { _ = try await app.runCLI(["add", title, "--list", "Chores"]) }
      try await app.key("F5", window: window)
      try await app.click(role: "list item", name: "Chores, 3 open tasks")
      try await rows(of: app, are: ["Sweep", "Dust", "Mop"])

      // The last one up twice, to the top, with the focus on it throughout; once more changes nothing.
      try await app.click(role: "list item", name: "Mop, not done")
      try await app.waitForFocus(role: "list item", name: "Mop, not done")
      try await app.key("alt+shift+Up", window: window)
      try await rows(of: app, are: ["Sweep", "Mop", "Dust"])
      try await app.waitForFocus(role: "list item", name: "Mop, not done")
      try await app.key("alt+shift+Up", window: window)
      try await rows(of: app, are: ["Mop", "Sweep", "Dust"])
      try await app.waitForFocus(role: "list item", name: "Mop, not done")
      try await app.key("alt+shift+Up", window: window)
      // Down past one that has no place of its own yet (added by the CLI).
      try await app.click(role: "list item", name: "Sweep, not done")
      try await app.waitForFocus(role: "list item", name: "Sweep, not done")
      try await app.key("alt+shift+Down", window: window)
      try await rows(of: app, are: ["Mop", "Dust", "Sweep"])
      try await app.waitForFocus(role: "list item", name: "Sweep, not done")

      // With the mouse: Sweep dragged onto Mop's row takes its place at the top.
      try await drag(app, from: "Sweep, not done", onto: "Mop, not done")
      try await rows(of: app, are: ["Sweep", "Mop", "Dust"])
      try await app.checkScreen("planner-reordered")

      // Another application's text dropped on a row is refused, though it names a task of the list: Dust stays.
      let json = try await app.runCLI(["list", "--list", "Chores", "--json"])
      let tasks = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
      let dust = try #require(tasks.first { $0["title"] as? String == "Dust" }?["id"] as? String)
      let outcome = try await foreignDrop("b2c-tasks-task:" + dust, onto: "Sweep, not done", in: app)
      // (X11 tells the other application "dropped" for a drop a target refused; "cancel 0" would be no target.)
      #expect(outcome.hasPrefix("dropped"), "the drop reached the row: \(outcome)")
      // A move made after it comes after whatever the drop did: Mop down one place, so Dust is second, not first.
      try await app.click(role: "list item", name: "Mop, not done")
      try await app.waitForFocus(role: "list item", name: "Mop, not done")
      try await app.key("alt+shift+Down", window: window)
      try await rows(of: app, are: ["Sweep", "Dust", "Mop"])

      // The service has the order: the terminal lists it, and so does the window after a fresh start.
      let order = ["Sweep", "Dust", "Mop"]
      let listed = await eventually {
        let lines = (try? await app.runCLI(["list", "--list", "Chores"])) ?? ""
        return lines.split(separator: "\n").compactMap { line in order.first { line.hasSuffix("] \($0)") } } == order
      }
      let lastListed = try await app.runCLI(["list", "--list", "Chores"])
      #expect(listed, "\(lastListed)")
      #expect(try await app.quitByKeyboard(window: window) == 0)
      await app.stop(keepHome: true)
      let again = try AppDriver(settings: playground.settings, home: app.home)
      try await again.waitFor(role: "list item", name: "Chores, 3 open tasks")
      try await again.click(role: "list item", name: "Chores, 3 open tasks")
      try await rows(of: again, are: order)
      await again.stop()
    }

    /// Drags `text` from another application's window (`foreign_drag.c`, built now) onto the list item named
    /// `target`, and answers how that application saw the drag end: "dropped 1" when it was dropped on a drop
    /// target (taken or refused: X11 does not tell it which), "cancel 0" when nothing took the drop's offer.
    private func foreignDrop(_ text: String, onto target: String, in app: AppDriver) async throws -> String {
      let folder = try TestDesktop.temporaryFolder("foreign-drag")
      let source = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "foreign_drag.c")
      let binary = folder.appending(path: "foreign-drag")
      let build = try await ChildProcess.run(
        URL(filePath: "/bin/sh"),
        ["-c", "cc -o \"$1\" \"$2\" $(pkg-config --cflags --libs gtk4)", "sh", binary.path, source.path])
      try #require(build.status == 0, "cc failed: \(build.error)")
      let other = try ChildProcess(binary, [text])
      defer { other.kill() }
      #expect(await eventually { other.standardOutput.contains("ready") })
      // Its window below the app's (no window manager places it), then the drag in small steps.
      let found = try await ChildProcess.run(Tools.xdotool, ["search", "--sync", "--name", "^Foreign drag$"])
      let window = try #require(found.output.split(separator: "\n").first.map(String.init), "\(found.error)")
      _ = try await ChildProcess.run(Tools.xdotool, ["windowmove", "--sync", window, "40", "620"])
      let to = try await app.extents(role: "list item", name: target)
      try await dragPointer(from: (90, 650), to: (to.x + to.width / 3, to.y + to.height / 2))
      #expect(await eventually { other.standardOutput.contains("cancel") || other.standardOutput.contains("dropped") })
      return other.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
    }

    /// Drags the list item named `source` onto the one named `target` with the mouse, in small steps as a hand does.
    private func drag(_ app: AppDriver, from source: String, onto target: String) async throws {
      let from = try await app.extents(role: "list item", name: source)
      let to = try await app.extents(role: "list item", name: target)
      try await dragPointer(
        from: (from.x + from.width / 3, from.y + from.height / 2), to: (from.x + from.width / 3, to.y + to.height / 2))
    }

    /// Presses the left button at `from`, moves to `to` in 20 steps and lets go.
    private func dragPointer(from: (x: Int, y: Int), to: (x: Int, y: Int)) async throws {
      var gesture = ["mousemove", "--sync", "\(from.x)", "\(from.y)", "sleep", "0.3", "mousedown", "1"]
      for step in 1...20 {
        gesture += [
          "mousemove", "\(from.x + (to.x - from.x) * step / 20)", "\(from.y + (to.y - from.y) * step / 20)", "sleep",
          "0.03",
        ]
      }
      gesture += ["sleep", "0.3", "mouseup", "1"]
      let run = try await ChildProcess.run(Tools.xdotool, gesture)
      try #require(run.status == 0, "xdotool failed: \(run.error)")
    }

    /// Waits until the planner's rows show `titles`, in that order (and no other open task).
    private func rows(of app: AppDriver, are titles: [String], sourceLocation: SourceLocation = #_sourceLocation)
      async throws
    {
      try await app.accessibleTree(sourceLocation: sourceLocation) { nodes in
        nodes.filter { $0.role == "list item" && $0.name.hasSuffix(", not done") && $0.isShowing }
          .map { String($0.name.dropLast(", not done".count)) } == titles
      }
    }

    @Test("German: the quick entry reads German words, the chips and the rows speak German")
    func german() async throws {
      let playground = try await PlaygroundForUI()
      let app = try AppDriver(settings: playground.settings, language: "de")
      let window = try await app.signInByTyping(button: "Anmelden", pageTitle: "Anmelden")
      try await app.waitFor(role: "list item", name: "Heute, 0 offene Aufgaben")
      try await app.key("ctrl+2", window: window)
      try await app.key("ctrl+n", window: window)
      try await app.waitForFocus(role: "text", name: "Neue Aufgabe")
      try await app.type("Miete zahlen morgen 9 Uhr jeden Monat !hoch", window: nil)
      try await app.waitFor(role: "push button", name: "Morgen: drücken, um „morgen“ im Titel zu behalten")
      try await app.waitFor(role: "push button", name: "Monatlich: drücken, um „jeden Monat“ im Titel zu behalten")
      try await app.waitFor(role: "push button", name: "Hohe Priorität: drücken, um „!hoch“ im Titel zu behalten")
      // Dismissing the time's chip keeps "9 Uhr" in the title.
      try await app.press(button: "09:00: drücken, um „9 Uhr“ im Titel zu behalten")
      try await app.waitUntilGone(role: "push button", name: "09:00: drücken, um „9 Uhr“ im Titel zu behalten")
      try await app.waitForFocus(role: "text", name: "Neue Aufgabe")
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

/// The due date of the task titled `title` in `list --json`'s output.
private func dueDate(of title: String, in json: String) throws -> String? {
  let tasks = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []
  return (tasks.first { $0["title"] as? String == title }?["due"] as? [String: Any])?["date"] as? String
}

/// The due date the service has for the task titled `title` once `wanted` holds for it (read from the terminal, as
/// a person would check); nil if it never did.
private func serviceDue(of title: String, in app: AppDriver, until wanted: (String) -> Bool) async -> String? {
  var date: String?
  _ = await eventually(timeout: .seconds(60), every: .milliseconds(200)) {
    date = (try? await app.outputOfCLI(["list", "--json"])).flatMap { try? dueDate(of: title, in: $0 ?? "") } ?? nil
    return date.map(wanted) ?? false
  }
  return date.map(wanted) == true ? date : nil
}

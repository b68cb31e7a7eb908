// UI tests of a task's details in the planner: every field changed with the keyboard and the mouse while the
// service is down (each change shows at once and is sent once the service is back), Ctrl+D's calendar, and a
// deletion's Undo.

import Foundation
import TasksTestSupport
import Testing

extension AppDriver {
  /// Scrolls the window titled `window` with the mouse wheel, as a person does, until the object with `role` and
  /// `name` is inside it, then clicks it.
  func scrollAndClick(role: String, name: String, in window: String) async throws {
    let frame = try await extents(role: "frame", name: window)
    let top = frame.y + 60  // below the header bar
    let bottom = frame.y + frame.height - 10
    try await waitFor(role: role, name: name)
    for _ in 0..<40 {
      let box = try await extentsNow(role: role, name: name)
      if let box, box.y >= top, box.y + box.height <= bottom {
        return try await click(x: box.x + box.width / 2, y: box.y + box.height / 2)
      }
      let move = try await ChildProcess.run(
        Tools.xdotool, ["mousemove", "--sync", "\(frame.x + frame.width / 2)", "\(frame.y + frame.height / 2)"])
      try #require(move.status == 0, "xdotool mousemove failed: \(move.error)")
      // Buttons 4 and 5 are the wheel, up and down: a notch for about every 60 pixels to go (each look at the
      // tree costs a few hundred milliseconds; a person far from the field turns the wheel further too).
      let up = (box?.y ?? bottom) < top
      let distance = box.map { up ? top - $0.y : $0.y + $0.height - bottom } ?? 180
      let notches = min(6, max(1, distance / 60))
      let wheel = try await ChildProcess.run(
        Tools.xdotool, ["click", "--repeat", "\(notches)", "--delay", "30", up ? "4" : "5"])
      try #require(wheel.status == 0, "xdotool click failed: \(wheel.error)")
    }
    Issue.record("\(role) \(name) never came into view in \(window)")
  }

  /// Clicks the text view `name` in `window` until it has the keyboard focus (a click can land while the details
  /// are laid out again, and keys typed then went to the field focused before), types `text`, and waits until the
  /// field holds it.
  func typeInField(_ name: String, in window: String, _ text: String) async throws {
    for _ in 1...3 {
      try await scrollAndClick(role: "text", name: name, in: window)
      let focused = try await eventually(timeout: .seconds(10), every: .milliseconds(200)) {
        try await dumpTree()?.contains { $0.role == "text" && $0.name == name && $0.states.contains("focused") }
          ?? false
      }
      if focused { break }
    }
    try await waitForFocus(role: "text", name: name)
    try await type(text, window: nil)
    try await waitForText(text, name: name)
  }
}

extension AppUI {
  @Suite("The planner: a task's details")
  struct PlannerDetailsUITests {
    @Test("every field of the details changed offline, shown at once and sent when the service is back; Ctrl+D")
    func everyFieldOffline() async throws {
      let playground = try await PlaygroundForUI()
      let app = try AppDriver(settings: playground.settings)
      let window = try await app.signInByTyping()
      try await app.waitFor(role: "list item", name: "Tasks, 0 open tasks")
      _ = try await app.runCLI(["lists", "add", "Work"])
      _ = try await app.runCLI(["lists", "add", "Home"])
      _ = try await app.runCLI(["add", "Plan trip", "--list", "Work", "--due", "today"])
      try await app.key("F5", window: window)
      try await app.waitFor(role: "list item", name: "Home, 0 open tasks")
      try await app.key("ctrl+1", window: window)
      try await app.click(role: "label", name: "Plan trip")
      try await app.waitForFocus(role: "list item", name: "Plan trip, not done, due Today, in Work")
      await playground.stop()

      // Ctrl+D: the details, the due date's calendar open; Right and Enter pick tomorrow.
      try await app.key("ctrl+d", window: nil)
      _ = try await app.waitForWindow(titled: "Plan trip")
      try await app.waitForFocus(role: "filler", name: "Due date")  // GTK 4.8's calendar
      try await app.checkScreen("details-calendar")
      try await app.key("Right", window: nil)
      try await app.key("Return", window: nil)
      try await app.waitFor(role: "push button", name: "Tomorrow")

      // The title (Enter applies it), the notes, the time.
      try await app.scrollAndClick(role: "text", name: "Title", in: "Plan trip")
      try await app.key("ctrl+a", window: nil)
      try await app.type("Plan the trip", window: nil)
      try await app.key("Return", window: nil)
      _ = try await app.waitForWindow(titled: "Plan the trip")
      let details = "Plan the trip"
      try await app.typeInField("Notes", in: details, "Bring passports")
      try await app.scrollAndClick(role: "text", name: "Time (e.g. 09:00; empty for none)", in: details)
      try await app.type("9:30", window: nil)
      try await app.key("Return", window: nil)

      // Priority and the repeat from their menus; the repeat's days and its end.
      try await choose("High", in: "Priority", downs: 1, app, window: details)
      try await choose("Weekly", in: "Repeat", downs: 3, app, window: details)
      // (GTK 4.8 gives a toggle button the role of a push button, with its state pressed or not.)
      try await app.scrollAndClick(role: "push button", name: "Tuesday", in: details)
      try await app.scrollAndClick(role: "push button", name: "Thursday", in: details)
      try await choose("After a number of times", in: "Ends", downs: 2, app, window: details)

      // Reminders: one typed, one from the menu of usual ones.
      try await app.scrollAndClick(role: "text", name: "Add a reminder (e.g. 1 hour before)", in: details)
      try await app.type("1 hour before", window: nil)
      try await app.key("Return", window: nil)
      try await app.waitFor(role: "push button", name: "Remove Reminder “1 hour before”")
      try await app.scrollAndClick(role: "push button", name: "Usual Reminders", in: details)
      try await app.press(button: "At the due time")
      try await app.waitFor(role: "push button", name: "Remove Reminder “At the due time”")

      // Subtasks: two added, the second moved up, the first ticked.
      try await app.scrollAndClick(role: "text", name: "Add a subtask", in: details)
      try await app.type("Book hotel", window: nil)
      try await app.key("Return", window: nil)
      try await app.waitFor(role: "check box", name: "Book hotel")
      try await app.type("Pack bags", window: nil)
      try await app.key("Return", window: nil)
      try await app.press(button: "Move “Pack bags” Up")
      try await app.waitFor(role: "push button", name: "Move “Book hotel” Down")
      try await app.scrollAndClick(role: "check box", name: "Book hotel", in: details)
      try await app.checkScreen("details-offline")

      // Moved to another list; Escape closes the details.
      try await choose("Home", in: "List", downs: 1, app, window: "Plan the trip")
      try await app.waitFor(role: "list item", name: "Home, 1 open task")
      try await app.key("Escape", window: nil)
      try await app.waitUntilGone(role: "frame", name: "Plan the trip")
      try await app.key("ctrl+2", window: window)
      let row = try await app.waitFor(
        role: "list item", nameStartingWith: "Plan the trip, not done, due Tomorrow 09:30")
      #expect(row.contains("High priority") && row.contains("in Home"), "\(row)")

      // The service back: a refresh sends every change; the service has each field.
      try await playground.restart()
      try await app.key("F5", window: window)
      try await app.waitFor(role: "list item", nameStartingWith: "Plan the trip, not done, due Tomorrow 09:30")
      var listed = ""
      let sent = try await eventually(timeout: .seconds(60), every: .milliseconds(500)) {
        listed = (try? await app.runCLI(["list", "--list", "Home", "--json"])) ?? ""
        return listed.contains("Pack bags") && listed.contains("COUNT=10")
      }
      #expect(sent, "the service has: \(listed)")
      for fact in [
        "Plan the trip", "Bring passports", "09:30", "FREQ=WEEKLY", "BYDAY=TU,TH", "\"before\":60", "\"before\":0",
        "\"priority\":1", "Book hotel",
      ] {
        #expect(listed.contains(fact), "\(fact) in \(listed)")
      }
      let tasks = try #require(
        try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]], "a list: \(listed)")
      let sortKey = { (title: String) in tasks.first { $0["title"] as? String == title }?["sortKey"] as? String ?? "" }
      #expect(sortKey("Pack bags") < sortKey("Book hotel"), "Pack bags before Book hotel: \(listed)")
      #expect(tasks.first { $0["title"] as? String == "Book hotel" }?["status"] as? String == "completed")
      #expect(try await app.runCLI(["list", "--list", "Work"]).contains("Plan") == false)
      await app.stop()
    }

    @Test(
      "a repeat that ends after two times: the first tick moves it to tomorrow, the second shows it done at once, with no next date"
    )
    func endsAfterTimes() async throws {
      let playground = try await PlaygroundForUI()
      let app = try AppDriver(settings: playground.settings)
      let window = try await app.signInByTyping()
      try await app.waitFor(role: "list item", name: "Tasks, 0 open tasks")
      _ = try await app.runCLI(["add", "Take pill", "--due", "today", "--repeat", "every day"])
      try await app.key("F5", window: window)
      try await app.waitFor(role: "list item", name: "Tasks, 1 open task")
      try await app.click(role: "list item", name: "Tasks, 1 open task")
      try await app.click(role: "label", name: "Take pill")
      try await app.waitForFocus(role: "list item", name: "Take pill, not done, due Today, repeats Daily")

      // The details (Enter): it ends after 2 times, typed into the count.
      try await app.key("Return", window: nil)
      _ = try await app.waitForWindow(titled: "Take pill")
      try await choose("After a number of times", in: "Ends", downs: 2, app, window: "Take pill")
      var listed = ""
      let counted = try await eventually(timeout: .seconds(60), every: .milliseconds(500)) {
        listed = (try? await app.runCLI(["list", "--json"])) ?? ""
        if listed.contains("COUNT=2") { return true }
        try await app.scrollAndClick(role: "spin button", name: "Times", in: "Take pill")
        try await app.key("ctrl+a", window: nil)
        try await app.type("2", window: nil)
        try await app.key("Tab", window: nil)
        return false
      }
      #expect(counted, "the service has the count: \(listed)")
      try await app.key("Escape", window: nil)
      try await app.waitUntilGone(role: "frame", name: "Take pill")

      // The first tick: tomorrow, with its toast, and the service's answer taken in (the row waits no more).
      try await app.click(role: "check box", name: "Take pill")
      try await app.waitFor(role: "label", name: "“Take pill” is next due Tomorrow")
      try await app.waitFor(role: "list item", name: "Take pill, not done, due Tomorrow, repeats Daily, 2 times")
      // Its box unticked again: the task is open (the box once stayed ticked on the task at its next date).
      try await app.accessibleTree { nodes in
        nodes.contains { $0.role == "check box" && $0.name == "Take pill" && !$0.states.contains("checked") }
      }
      try await app.checkScreen("planner-repeat-moved")
      try await app.waitUntilGone(role: "label", name: "“Take pill” is next due Tomorrow")
      // The second and last, with the service down: done at once, by the window's own count. (The window once moved
      // it to the day after and said so in a toast, until the service answered that the series had ended.)
      await playground.stop()
      try await app.click(role: "check box", name: "Take pill")
      let nodes = try await app.accessibleTree { nodes in
        nodes.contains {
          $0.role == "list item" && $0.name.hasPrefix("Take pill, done")
            && $0.name.hasSuffix("change waiting to be sent")
        }
      }
      #expect(!nodes.contains { $0.name.hasPrefix("“Take pill” is next due") }, "no next date was shown")
      #expect(!nodes.contains { $0.role == "list item" && $0.name.hasPrefix("Take pill, not done") })
      try await app.checkScreen("planner-series-ended")
      // The service back: Retry sends it (unless the window's own retry came first); it has the series ended.
      try await app.waitFor(role: "push button", name: "Retry")
      try await playground.restart()
      if try await app.dumpTree()?.contains(where: { $0.role == "push button" && $0.name == "Retry" }) == true {
        try? await app.press(button: "Retry")
      }
      let done = await eventually {
        ((try? await app.runCLI(["list"])) ?? "").contains("[x] Take pill")
      }
      #expect(done, "the service has it done")
      await app.stop()
    }

    @Test("notes typed in a task's details, then Ctrl+Q at once: the app ends, and the notes reached the service")
    func notesThenQuit() async throws {
      let playground = try await PlaygroundForUI()
      let app = try AppDriver(settings: playground.settings)
      let window = try await app.signInByTyping()
      try await app.waitFor(role: "list item", name: "Tasks, 0 open tasks")
      _ = try await app.runCLI(["add", "Call the bank"])
      try await app.key("F5", window: window)
      try await app.waitFor(role: "check box", name: "Call the bank")
      try await app.click(role: "label", name: "Call the bank", count: 2)
      _ = try await app.waitForWindow(titled: "Call the bank")
      try await app.typeInField("Notes", in: "Call the bank", "Ask about the card")
      // Ctrl+Q from the details: the notes are kept as the window closes, and sent before the program ends.
      #expect(try await app.quitByKeyboard(window: nil) == 0, "\(app.process.standardError.suffix(2000))")
      let listed = try await app.runCLI(["list", "--json"])
      #expect(listed.contains("Ask about the card"), "the service has: \(listed)")
      await app.stop()
    }

    /// Opens the choice row `row` with a click, goes to the first choice (Home), then `downs` down, and takes that
    /// choice with Enter.
    private func choose(_ choice: String, in row: String, downs: Int, _ app: AppDriver, window: String) async throws {
      try await app.scrollAndClick(role: "combo box", name: row, in: window)
      try await app.waitForFocus(role: "list item", name: "")
      try await app.key("Home", window: nil)
      for _ in 0..<downs { try await app.key("Down", window: nil) }
      try await app.key("Return", window: nil)
    }
  }
}

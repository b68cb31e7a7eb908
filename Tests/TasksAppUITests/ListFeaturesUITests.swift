// UI tests of the list people live in: quick entry, the keyboard model (one stop per row, Space, Delete, F2, the
// Menu key, Ctrl+Z, Ctrl+W) with no pointer event, search, the add-task window's chips, completed tasks and Delete
// Completed with one Undo, and the live refresh that shows a task added from the terminal.

import Foundation
import TasksTestSupport
import Testing

extension AppDriver {
  /// Waits until the focused object is a row named `name` ("buy milk, not done").
  func waitForFocusedRow(_ name: String) async throws {
    try await waitForFocus(role: "list item", name: name)
  }

  /// Waits until a task's details show their title, which has the keyboard focus as they open. (libadwaita 1.2's
  /// `AdwEntryRow` gives the focus to a text field of its own that AT-SPI does not list: what is typed next shows
  /// where it went, in the window's title once Enter applies it.)
  func waitForFocusedTitle() async throws {
    try await accessibleTree { nodes in nodes.contains { $0.role == "text" && $0.name == "Title" && $0.isShowing } }
  }

  /// The list's pixels on screen now, grey, a row of pixels after another (nil if the screenshot failed). GTK 4.8
  /// gives a screen reader the places of rows scrolled away as they were, so what is on screen is read off it.
  func listPixels(_ list: (x: Int, y: Int, width: Int, height: Int)) async throws -> [UInt8]? {
    let file = TestDesktop.artifacts.appending(path: ".list-\(process.pid).pgm")
    defer { try? FileManager.default.removeItem(at: file) }
    let shot = try await ChildProcess.run(
      Tools.importProgram,
      [
        "-window", "root", "-crop", "\(list.width)x\(list.height)+\(list.x)+\(list.y)", "-colorspace", "gray",
        "-depth", "8", file.path,
      ])
    guard shot.status == 0, let data = try? Data(contentsOf: file) else { return nil }
    // A binary PGM: "P5", the width, the height and the largest value, each after white space, then the pixels.
    var fields = 0
    var index = data.startIndex
    while fields < 4 && index < data.endIndex {
      while index < data.endIndex, data[index] == 0x20 || data[index] == 0x0A { index += 1 }
      while index < data.endIndex, data[index] != 0x20 && data[index] != 0x0A { index += 1 }
      fields += 1
    }
    let pixels = Array(data[(index + 1)...])
    return pixels.count == list.width * list.height ? pixels : nil
  }

  /// Waits until every row of the task list on screen shows text (not the empty card of a row not made) and the
  /// list shows something else than `before`, and answers its pixels. An empty row is a band of the text's column
  /// with no dark pixel in it taller than the blank between two rows' texts (under 30 px here, rows 38 px apart) or
  /// than a row cut by the list's edge shows without its text.
  @discardableResult
  func waitForTextOnEveryRow(
    of list: (x: Int, y: Int, width: Int, height: Int), differentFrom before: [UInt8]?,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> [UInt8] {
    var pixels: [UInt8] = []
    var blank = 0
    let shown = try await eventually(every: .milliseconds(300)) {
      guard let now = try await listPixels(list), now != before else { return false }
      pixels = now
      blank = Self.longestBlank(now, width: list.width, height: list.height, columns: 50..<(list.width / 2))
      return blank < 45
    }
    try #require(
      shown, "a band of \(blank) px of the list has no text in it (or the list did not move)",
      sourceLocation: sourceLocation)
    return pixels
  }

  /// N of the focused row when it is "task number N, …" (0 for none).
  func focusedRowNumber() async throws -> Int {
    let focused = try await dumpTree()?.first { $0.role == "list item" && $0.states.contains("focused") }
    return focused.map { AppUI.ListFeaturesUITests.number(in: $0.name) } ?? 0
  }

  /// Presses `key` (again while it has no effect: a loaded machine can drop a key) until the focused row's number
  /// is one `reached` accepts, and answers it.
  func press(_ key: String, until reached: (Int) -> Bool, sourceLocation: SourceLocation = #_sourceLocation)
    async throws -> Int
  {
    var number = 0
    for _ in 1...3 {
      try await self.key(key, window: nil)
      let moved = try await eventually(timeout: .seconds(20), every: .milliseconds(300)) {
        number = try await focusedRowNumber()
        return reached(number)
      }
      if moved { return number }
    }
    Issue.record("\(key) never moved the focus where it should (at task \(number))", sourceLocation: sourceLocation)
    return number
  }

  /// The tallest run of pixel rows with no dark pixel in `columns`.
  static func longestBlank(_ pixels: [UInt8], width: Int, height: Int, columns: Range<Int>) -> Int {
    var longest = 0
    var run = 0
    for row in 0..<height {
      run = columns.contains { pixels[row * width + $0] < 128 } ? 0 : run + 1
      longest = max(longest, run)
    }
    return longest
  }

  /// Runs b2c-tasks-cli with this app's settings and keyring (single sign-on), as a person in a terminal would.
  func runCLI(_ arguments: [String]) async throws -> String {
    let run = try await cli(arguments)
    try #require(run.status == 0, "b2c-tasks-cli \(arguments.first ?? "") failed: \(run.error)")
    return run.output
  }

  /// Runs b2c-tasks-cli as `runCLI` does; its output, or nil when it failed (a poll tries again).
  func outputOfCLI(_ arguments: [String]) async throws -> String? {
    let run = try await cli(arguments)
    return run.status == 0 ? run.output : nil
  }

  private func cli(_ arguments: [String]) async throws -> (status: Int32?, output: String, error: String) {
    let prefix = try #require(TestDesktop.installPrefix)
    return try await ChildProcess.run(
      prefix.appending(path: "bin/b2c-tasks-cli"), arguments,
      environment: ["XDG_CONFIG_HOME": home.appending(path: "config").path])
  }
}

extension AppUI {
  @Suite("Living in the list")
  struct ListFeaturesUITests {
    @Test("keyboard only: quick entry, Tab to a row, Down, Space, Ctrl+Z, F2, the Menu key, Delete and Undo, Ctrl+W")
    func keyboardOnly() async throws {
      let playground = try await PlaygroundForUI()
      let app = try AppDriver(settings: playground.settings)
      let window = try await app.signInByTyping()
      try await app.waitFor(role: "label", name: "No Tasks")

      // Quick entry: Enter adds, the focus stays for the next one; in the order they came.
      try await app.quickAdd("buy milk", window: window)
      try await app.waitFor(role: "check box", name: "buy milk")
      try await app.waitForFocus(role: "text", name: "New task")
      try await app.type("walk the dog", window: nil)
      try await app.key("Return", window: nil)
      try await app.waitFor(role: "check box", name: "walk the dog")
      try await app.checkScreen("quick-entry")
      #expect(try await app.taskNames() == ["buy milk", "walk the dog"])

      // One Tab stop per row: Tab reaches the first row, read as its text and state; Tab again the next, Shift+Tab
      // back.
      try await app.key("Tab", window: nil)
      try await app.waitForFocusedRow("buy milk, not done")
      try await app.key("Tab", window: nil)
      try await app.waitForFocusedRow("walk the dog, not done")
      try await app.key("shift+Tab", window: nil)
      try await app.waitForFocusedRow("buy milk, not done")
      // Space ticks it (it moves after the open ones, and keeps the focus); Ctrl+Z takes it back.
      try await app.key("space", window: nil)
      try await app.waitForCheck("buy milk", checked: true)
      try await app.waitForFocusedRow("buy milk, done")
      try await app.key("ctrl+z", window: nil)
      try await app.waitForCheck("buy milk", checked: false)
      try await app.waitForFocusedRow("buy milk, not done")

      // F2 opens the details, the title focused; Enter saves, Escape closes them, the focus back on the row.
      try await app.key("F2", window: nil)
      _ = try await app.waitForWindow(titled: "buy milk")
      try await app.waitForFocusedTitle()
      try await app.key("ctrl+a", window: nil)
      try await app.type("buy oat milk", window: nil)
      try await app.key("Return", window: nil)
      _ = try await app.waitForWindow(titled: "buy oat milk")
      try await app.key("Escape", window: nil)
      try await app.waitFor(role: "check box", name: "buy oat milk")
      // (A window manager gives the main window the keyboard back as the details close; Xvfb has none.)
      try await app.waitUntilGone(role: "frame", name: "buy oat milk")
      try await app.focus(window: window)
      try await app.waitForFocusedRow("buy oat milk, not done")

      // The Menu key opens the row's context menu; Escape closes it, the focus back on the row.
      try await app.key("Menu", window: nil)
      for item in ["Details", "Mark as Done", "Copy Text", "Delete"] {
        try await app.waitFor(role: "menu item", name: item)
      }
      try await app.checkScreen("row-context-menu")
      try await app.key("Escape", window: nil)
      try await app.waitUntilGone(role: "menu item", name: "Copy Text")
      try await app.waitForFocusedRow("buy oat milk, not done")

      // Delete deletes it (a toast with Undo), the focus on its neighbour; Ctrl+Z brings it back, focused.
      try await app.key("Delete", window: nil)
      try await app.waitFor(role: "label", name: "“buy oat milk” deleted")
      try await app.waitForFocusedRow("walk the dog, not done")
      #expect(try await app.taskNames() == ["walk the dog"])
      try await app.key("ctrl+z", window: nil)
      try await app.waitFor(role: "check box", name: "buy oat milk")
      try await app.waitForFocusedRow("buy oat milk, not done")
      #expect(try await app.taskNames() == ["buy oat milk", "walk the dog"])

      // Shift+Tab from the first row goes back to the quick entry; Ctrl+N finds it from anywhere.
      try await app.key("shift+Tab", window: nil)
      try await app.waitForFocus(role: "text", name: "New task")
      try await app.key("Tab", window: nil)
      try await app.waitForFocusedRow("buy oat milk, not done")
      try await app.key("Tab", window: nil)
      try await app.waitForFocusedRow("walk the dog, not done")
      // Tab past the last row goes on to the header; Shift+Tab from there comes back round to the last row.
      try await app.key("Tab", window: nil)
      try await app.waitForFocus(role: "push button", name: "Add Task")
      try await app.key("shift+Tab", window: nil)
      try await app.waitForFocusedRow("walk the dog, not done")
      try await app.key("ctrl+n", window: nil)
      try await app.waitForFocus(role: "text", name: "New task")

      // Ctrl+W closes the window (and so the app).
      try await app.key("ctrl+w", window: window)
      #expect(await app.process.waitForExit(timeout: .seconds(30)) == 0)
      await app.stop()
    }

    @Test(
      "hide completed; Delete Completed with one Undo; accents in search; the add-task window reads dates; CLI's task appears; a live refresh with nothing new changes nothing"
    )
    func sortCompletedSearchLiveRefresh() async throws {
      // (Requests logged, to see the live refresh of an unchanged list answered 304.)
      let playground = try await PlaygroundForUI(logLevel: "info")
      let app = try AppDriver(settings: playground.settings)
      let window = try await app.signInByTyping()
      try await app.waitFor(role: "label", name: "No Tasks")
      // (xdotool types ASCII only: the accented one comes through the add-task window, which reads its date and
      // priority as the quick entry does, and says so in its chips.)
      try await app.openAddTask(window: window)
      try await app.setText("Crème brûlée tomorrow !high", name: "What needs doing?")
      try await app.waitFor(role: "push button", name: "Tomorrow: press to keep “tomorrow” in the title")
      try await app.checkScreen("add-task-chips")
      try await app.press(button: "Add")
      try await app.waitFor(role: "check box", name: "Crème brûlée")
      try await app.waitFor(role: "label", name: "Tomorrow")
      for text in ["apples", "bread"] {
        try await app.quickAdd(text, window: window)
        try await app.waitFor(role: "check box", name: text)
      }
      #expect(try await app.taskNames() == ["Crème brûlée", "apples", "bread"])

      // Two done: they go after the open ones. Hidden by Show Completed; shown again.
      try await app.click(role: "check box", name: "apples")
      try await app.click(role: "check box", name: "bread")
      try await app.waitForCheck("bread", checked: true)
      try await app.accessibleTree { nodes in
        nodes.filter { $0.role == "check box" && $0.isShowing }.map(\.name) == ["Crème brûlée", "bread", "apples"]
      }
      try await app.checkScreen("completed-after-open")
      try await app.key("F10", window: window)
      try await app.press(role: "check menu item", name: "Show Completed")
      try await app.accessibleTree { nodes in
        nodes.filter { $0.role == "check box" && $0.isShowing }.map(\.name) == ["Crème brûlée"]
      }
      try await app.key("F10", window: window)
      try await app.press(role: "check menu item", name: "Show Completed")
      try await app.waitFor(role: "check box", name: "apples")

      // Delete Completed: both go, one toast, one Undo brings both back; again, and they are gone for good.
      try await app.chooseFromMenu("Delete Completed", window: window)
      try await app.waitFor(role: "label", name: "2 tasks deleted")
      try await app.waitUntilGone(role: "check box", name: "apples")
      try await app.press(button: "Undo Undo")
      try await app.waitFor(role: "check box", name: "apples")
      try await app.waitFor(role: "check box", name: "bread")
      try await app.chooseFromMenu("Delete Completed", window: window)
      try await app.waitUntilGone(role: "check box", name: "bread")
      // The server hears of it when the toast goes.
      let deleted = try await eventually(timeout: .seconds(60), every: .seconds(2)) {
        let listed = try await app.runCLI(["list"])
        return !listed.contains("apples") && !listed.contains("bread") && listed.contains("Crème brûlée")
      }
      #expect(deleted, "both completed tasks deleted on the server, the open one kept")

      // Closed, the search bar is not presented to a screen reader (GTK 4.8 presented its entry, off screen), nor is
      // the empty list's page beside the rows.
      let closed = try await app.accessibleTree { $0.contains { $0.role == "check box" && $0.name == "Crème brûlée" } }
      #expect(
        !closed.contains { $0.name == "Search tasks" || $0.name == "No Tasks" },
        "\(closed.filter { !$0.name.isEmpty }.map { "\($0.role) \($0.name)" })")
      // The search ignores accents.
      try await app.key("ctrl+f", window: window)
      try await app.type("creme", window: nil)
      try await app.accessibleTree { nodes in
        nodes.filter { $0.role == "check box" && $0.isShowing }.map(\.name) == ["Crème brûlée"]
      }
      try await app.waitFor(role: "entry", name: "Search tasks")
      try await app.checkScreen("search")
      try await app.key("Escape", window: nil)
      try await app.accessibleTree { nodes in  // closed: not presented again
        !nodes.contains { $0.name == "Search tasks" }
          && nodes.contains { $0.role == "check box" && $0.name == "Crème brûlée" }
      }

      // A task added in the terminal appears with nothing done in the window (no F5, no focus change, no minute's
      // poll: the window's long poll of the change feed is answered by the edit). The terminal tells the reminder
      // service of its edit, never the window.
      let waitingBefore = playground.process.standardError.components(separatedBy: "wait=").count
      _ = try await app.runCLI(["add", "from the terminal"])
      let appeared = try await eventually(timeout: .seconds(120), every: .seconds(1)) {
        let nodes = try await app.accessibleTree(timeout: .seconds(5)) { _ in true }
        return nodes.contains { $0.role == "check box" && $0.name == "from the terminal" && $0.isShowing }
      }
      #expect(appeared, "the terminal's task appeared without F5 or a focus change")
      #expect(
        playground.process.standardError.components(separatedBy: "wait=").count > waitingBefore,
        "no long poll of the feed was answered")
      try await app.checkScreen("live-refresh")

      // Nothing changed since: the next live refreshes read the change feed from where it was (nothing new) and the
      // list stays as it was.
      func unchangedAnswers() -> Int {
        playground.process.standardError.split(separator: "\n").filter {
          $0.contains("method=GET") && $0.contains("path=/api/v2/changes") && $0.contains("status=200")
        }.count
      }
      let before = unchangedAnswers()
      let notSentAgain = try await eventually(timeout: .seconds(90), every: .seconds(4)) {
        try await app.key("ctrl+shift+n", window: window)
        _ = try await app.waitForWindow(titled: "Add Task")
        try await app.press(button: "Cancel")
        try await app.focus(window: window)
        return unchangedAnswers() > before
      }
      #expect(notSentAgain, "no live refresh read the change feed")
      try await app.accessibleTree { nodes in
        let shown = Set(nodes.filter { $0.role == "check box" && $0.isShowing }.map(\.name))
        return shown.isSuperset(of: ["from the terminal", "Crème brûlée"])
      }
      await app.stop()
    }

    @Test("dragging the scroll bar through 2 000 tasks: once it stops, every row is named for the task it shows")
    func namesFollowAFastDrag() async throws {
      let (playground, app) = try await Self.signedIn(tasks: 2000)
      defer { withExtendedLifetime(playground) {} }

      // The scroll bar's slider, at the right edge of the list, dragged to the bottom in one quick gesture (one
      // xdotool, its moves 5 ms apart): every row is bound to other tasks many times a second.
      let list = try await app.extents(role: "list", name: "Tasks")
      let windowBox = try await app.extents(role: "frame", name: "B2C Tasks")
      let x = windowBox.x + windowBox.width - 5
      let top = list.y + 4
      let bottom = windowBox.y + windowBox.height - 8
      var gesture = ["mousemove", "--sync", "\(x)", "\(top)", "sleep", "0.5", "mousedown", "1"]
      for step in 1...60 {
        gesture += ["mousemove", "\(x)", "\(top + (bottom - top) * step / 60)", "sleep", "0.005"]
      }
      gesture += ["sleep", "0.2", "mouseup", "1"]
      // Sent again while it has not reached the bottom (a loaded machine can drop a gesture's press).
      for _ in 1...3 {
        let drag = try await ChildProcess.run(Tools.xdotool, gesture)
        try #require(drag.status == 0, "xdotool failed: \(drag.error)")
        let atBottom = try await eventually(timeout: .seconds(20), every: .milliseconds(300)) {
          try await app.dumpTree()?.contains { $0.role == "label" && $0.name == "task number 2000" } == true
        }
        if atBottom { break }
      }

      // At the bottom: the newest tasks. Every row there (and around it) is named for its own text: the row as
      // "text, not done", its check box by the text.
      try await app.accessibleTree { nodes in
        guard nodes.contains(where: { $0.role == "label" && $0.name == "task number 2000" }) else { return false }
        return Self.rowsNamedForTheirText(nodes)
      }
      try await app.checkScreen("dragged-to-the-bottom")
      await app.stop()
    }

    /// Gives Ann (a demo user of the playground) `tasks` tasks straight in its database, "task number 1" the oldest
    /// (owners are issuer and subject, TaskOwner: the playground's own users' issuer is "local"), in her default list
    /// (made as the task API makes it), each task with a UUID (the task API v2's schema).
    static func seed(tasks: Int, in playground: PlaygroundForUI) async throws {
      let database = try database(of: playground)
      let owner = "('local ' || (SELECT oid FROM users WHERE email = 'ann@example.com'))"
      let defaultList = try await ChildProcess.run(
        URL(filePath: "/bin/sh"), ["-c", ". \"$0\" && default_list_sql \"$1\"", Tools.defaultListSQL.path, owner])
      let seed = try await ChildProcess.run(
        Tools.sqlite3,
        [
          database.path,
          defaultList.output + """
            WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < \(tasks))
            INSERT INTO tasks (owner, text, completed, dateModified, uuid, listID, createdAt)
            SELECT \(owner), 'task number ' || x, 0,
              strftime('%Y-%m-%d %H:%M:%f', '2026-11-20', '+' || x || ' seconds'),
              printf('00000000-0000-4000-9000-%012d', x), (SELECT id FROM lists WHERE owner = \(owner) AND isDefault),
              '2026-11-20 00:00:00.000' FROM n;
            """,
        ])
      try #require(defaultList.status == 0 && seed.status == 0, "sqlite3 failed: \(defaultList.error) \(seed.error)")
    }

    /// The playground's database file.
    static func database(of playground: PlaygroundForUI) throws -> URL {
      try #require(
        try FileManager.default.contentsOfDirectory(at: playground.data, includingPropertiesForKeys: nil)
          .first { $0.pathExtension == "sqlite" })
    }

    /// The app signed in as Ann, who has `tasks` tasks (`seed`), once it shows the first; and the playground.
    static func signedIn(tasks: Int) async throws -> (PlaygroundForUI, AppDriver) {
      let playground = try await PlaygroundForUI()
      try await seed(tasks: tasks, in: playground)
      let app = try AppDriver(settings: playground.settings)
      _ = try await app.signInByTyping()
      try await app.waitFor(role: "check box", name: "task number 1")
      return (playground, app)
    }

    @Test("a title with a line break is shown on one line: its row is as tall as the others")
    func lineBreakInATitle() async throws {
      let playground = try await PlaygroundForUI()
      defer { withExtendedLifetime(playground) {} }
      try await Self.seed(tasks: 3, in: playground)
      let broken = "line one\nline two"
      let update = try await ChildProcess.run(
        Tools.sqlite3,
        [
          try Self.database(of: playground).path,
          "UPDATE tasks SET text = 'line one' || char(10) || 'line two' WHERE text = 'task number 2'",
        ])
      try #require(update.status == 0, "sqlite3 failed: \(update.error)")
      let app = try AppDriver(settings: playground.settings)
      _ = try await app.signInByTyping()
      try await app.waitFor(role: "check box", name: broken)
      var heights: [String: Int] = [:]
      for text in ["task number 1", broken, "task number 3"] {
        heights[text] = try await app.extents(role: "list item", name: "\(text), not done").height
      }
      #expect(Set(heights.values).count == 1, "\(heights)")
      try await app.checkScreen("line-break-in-a-title")
      await app.stop()
    }

    @Test("600 tasks scrolled with the wheel, Page Down, End and Home: every row on screen shows its text")
    func everyRowOnScreenShown() async throws {
      // The rows below a start's window are made as they come on screen (PlannerRow's stand-ins): a row that was not
      // would show an empty card, a band of the list with no text in it.
      let (playground, app) = try await Self.signedIn(tasks: 600)
      defer { withExtendedLifetime(playground) {} }
      let list = try await app.extents(role: "list", name: "Tasks")
      var shown = try await app.waitForTextOnEveryRow(of: list, differentFrom: nil)

      // The wheel over the list, 20 steps down (sent again while the list has not moved: a loaded machine can drop
      // them): the rows made as stand-ins come into view. The list is looked at once the pointer's hover is drawn
      // (two screenshots alike).
      let (x, y) = (list.x + list.width * 2 / 3, list.y + list.height / 2)
      let move = try await ChildProcess.run(Tools.xdotool, ["mousemove", "--sync", "\(x)", "\(y)"])
      try #require(move.status == 0, "xdotool mousemove failed: \(move.error)")
      var last: [UInt8]? = nil
      _ = try await eventually(timeout: .seconds(60), every: .milliseconds(300)) {
        let now = try await app.listPixels(list)
        defer { last = now }
        return now != nil && now == last
      }
      let still = try #require(last, "no screenshot of the list")
      for _ in 1...3 {
        let wheel = try await ChildProcess.run(Tools.xdotool, ["click", "--repeat", "20", "--delay", "20", "5"])
        try #require(wheel.status == 0, "xdotool click failed: \(wheel.error)")
        let moved = try await eventually(timeout: .seconds(15), every: .milliseconds(300)) {
          guard let now = try await app.listPixels(list) else { return false }
          return now != still
        }
        if moved { break }
      }
      shown = try await app.waitForTextOnEveryRow(of: list, differentFrom: still)

      // The keyboard: a click gives a row the focus, Page Down three times moves it a screen each, past the rows a
      // start makes; End and Home, the last rows, then the first again.
      try await app.click(x: x, y: y)
      var focused = 0
      _ = try await eventually(timeout: .seconds(60), every: .milliseconds(300)) {
        focused = try await app.focusedRowNumber()
        return focused > 0
      }
      try #require(focused > 0, "a click on the list focused no row")
      let clicked = focused
      for presses in 1...3 {
        focused = try await app.press("Page_Down") { $0 > focused }
        shown = try await app.waitForTextOnEveryRow(of: list, differentFrom: shown)
        if presses == 3 { #expect(focused > clicked + 20) }
      }
      focused = try await app.press("End") { $0 == 600 }
      shown = try await app.waitForTextOnEveryRow(of: list, differentFrom: shown)
      focused = try await app.press("Home") { $0 == 1 }
      shown = try await app.waitForTextOnEveryRow(of: list, differentFrom: shown)
      try await app.checkScreen("long-list-home")
      await app.stop()
    }

    /// N of a row named "task number N, …" (0 for another).
    static func number(in name: String) -> Int {
      guard name.hasPrefix("task number ") else { return 0 }
      return Int(name.dropFirst(12).prefix { $0.isNumber }) ?? 0
    }

    /// Whether each list item in `nodes` (a depth-first dump) and its check box are named for the text its label
    /// shows; false if there are none.
    static func rowsNamedForTheirText(_ nodes: [AccessibleNode]) -> Bool {
      var rows = 0
      for (index, item) in nodes.enumerated() where item.role == "list item" {
        let inside = nodes[(index + 1)...].prefix { $0.depth > item.depth }
        guard let text = inside.first(where: { $0.role == "label" })?.name, text.hasPrefix("task number ") else {
          continue
        }
        rows += 1
        let check = inside.first { $0.role == "check box" }?.name
        if item.name != "\(text), not done" || check != text { return false }
      }
      return rows > 0
    }
  }
}

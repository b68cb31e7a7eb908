// UI tests of a list shared by two people: Ann in the window, Bob at his terminal (b2c-tasks-cli with a home and a
// keychain group of his own). Ann shares a list from the window and Bob joins with the code the dialog showed; each
// sees what the other adds and finishes; a date changed on both sides is a conflict whose toast's Use Mine wins.

import Foundation
import TasksTestSupport
import Testing

/// Another person at a terminal: b2c-tasks-cli with a home and a keychain group of their own, signed in through the
/// scripted browser.
struct TerminalUser {
  let home: URL

  init(_ playground: PlaygroundForUI, email: String, password: String) async throws {
    home = try TestDesktop.temporaryFolder("terminal-user")
    let file = home.appending(path: "config/io.github.b2ctasks.B2CTasks/settings.plist")
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    let settings = String(decoding: playground.settings, as: UTF8.self)
      .replacingOccurrences(of: playground.keychainGroup, with: "ui.test.terminal.\(UUID().uuidString)")
    try Data(settings.utf8).write(to: file)
    try await signIn(email: email, password: password)
  }

  /// Signs in with the CLI, through the browser the tests script.
  func signIn(email: String, password: String) async throws {
    let signedIn = try await run(
      ["sign-in", "--timeout", "60"],
      environment: [
        "BROWSER": TestDesktop.scriptedBrowser.path, "B2C_TEST_EMAIL": email, "B2C_TEST_PASSWORD": password,
      ])
    #expect(signedIn.contains(email), "\(signedIn)")
  }

  /// Runs b2c-tasks-cli with `arguments`, `input` on its standard input (a code, never on the command line); it must
  /// succeed.
  @discardableResult
  func run(_ arguments: [String], input: String? = nil, environment extra: [String: String] = [:]) async throws
    -> String
  {
    let run = try await attempt(arguments, input: input, environment: extra)
    try #require(run.status == 0, "b2c-tasks-cli \(arguments.first ?? "") failed: \(run.error)")
    return run.output
  }

  /// The user's folders, for the programs they run.
  var environment: [String: String?] {
    [
      "XDG_CONFIG_HOME": home.appending(path: "config").path, "XDG_DATA_HOME": home.appending(path: "data").path,
      "XDG_CACHE_HOME": home.appending(path: "cache").path,
    ]
  }

  /// Runs b2c-tasks-cli as `run` does, whatever its exit status.
  func attempt(_ arguments: [String], input: String? = nil, environment extra: [String: String] = [:]) async throws
    -> (status: Int32?, output: String, error: String)
  {
    let cli = try #require(TestDesktop.installPrefix).appending(path: "bin/b2c-tasks-cli").path
    var environment = self.environment
    environment["CLI_INPUT"] = input ?? ""
    for (name, value) in extra { environment[name] = value }
    return try await ChildProcess.run(
      URL(filePath: "/bin/sh"), ["-c", #"printf '%s\n' "$CLI_INPUT" | "$0" "$@""#, cli] + arguments,
      environment: environment)
  }
}

extension AppUI {
  @Suite("The planner: a list shared by Ann (the window) and Bob (his terminal); a conflict and Use Mine")
  struct PlannerSharingUITests {
    @Test(
      "Ann shares a list from the window, Bob joins with the code; each sees what the other adds and finishes; a date both changed is a conflict, and Use Mine sends Ann's"
    )
    func sharedWithBob() async throws {
      let playground = try await PlaygroundForUI()
      let app = try AppDriver(settings: playground.settings)
      let window = try await app.signInByTyping()
      try await app.waitFor(role: "list item", name: "Tasks, 0 open tasks")
      let bob = try await TerminalUser(playground, email: "bob@example.com", password: "Tasks-Demo-2")

      // Ann makes a list and shares it: the dialog shows the code to send.
      try await app.key("ctrl+alt+n", window: window)
      try await app.waitForFocus(role: "text", name: "List name")
      try await app.type("Home", window: nil)
      try await app.key("Return", window: nil)
      try await app.waitFor(role: "list item", name: "Home, 0 open tasks")
      try await app.click(role: "push button", name: "List Menu")
      try await app.press(role: "menu item", name: "Share List…")
      let isCode = { (name: String) in name.count == 32 && name.allSatisfy { $0.isUppercase || $0.isNumber } }
      let tree = try await app.accessibleTree { $0.contains { $0.role == "label" && isCode($0.name) } }
      let code = try #require(tree.first { $0.role == "label" && isCode($0.name) }?.name)
      try await app.checkScreen("planner-share")
      // Copy closes the dialog and says so.
      try await app.press(button: "Copy")
      try await app.waitFor(role: "label", name: "Code copied")

      // Bob joins with it (on standard input); Ann's sidebar then names him, and the list shows as shared.
      #expect(try await bob.run(["lists", "join"], input: code).contains("Joined the list Home"))
      #expect(try await bob.run(["lists"]).contains("Home  (shared with you)"))
      try await app.key("F5", window: window)
      let entry = try await app.waitFor(role: "list item", nameStartingWith: "Home, 0 open tasks, Shared with ")
      #expect(entry.contains("Bob") || entry.contains("bob@example.com"), "\(entry)")
      // The code worked once: a second use is refused.
      let again = try await bob.attempt(["lists", "join"], input: code)
      #expect(again.status != 0 && again.error.contains("unknown, used or expired"), "\(again)")

      // What Bob adds in his terminal shows in Ann's window, in the list and in Today, saying he changed it last.
      try await bob.run(["add", "Water the plants", "--list", "Home", "--due", "today", "--repeat", "every week"])
      try await app.key("F5", window: window)
      try await app.waitFor(role: "list item", name: "Home, 1 open task, Shared with Bob Example")
      try await app.click(role: "list item", name: "Today, 1 open task")
      let plants = "Water the plants, not done, due Today, repeats Weekly, in Home, changed by Bob Example"
      try await app.waitFor(role: "list item", name: plants)

      // What Ann adds in the window is in Bob's terminal; Ann finishes it, and Bob sees it done.
      try await app.click(role: "list item", name: "Home, 1 open task, Shared with Bob Example")
      try await app.key("ctrl+n", window: window)
      try await app.type("Buy soil", window: nil)
      try await app.key("Return", window: nil)
      try await app.waitFor(role: "list item", name: "Buy soil, not done")
      #expect(try await bob.run(["list", "--list", "Home"]).contains("Buy soil"))
      try await app.click(role: "check box", name: "Buy soil")
      var bobSees = ""
      let finished = try await eventually(timeout: .seconds(60), every: .milliseconds(500)) {
        bobSees = (try? await bob.run(["list", "--list", "Home", "--json"])) ?? ""
        return bobSees.contains("\"completed\"")
      }
      #expect(finished, "Bob's terminal: \(bobSees)")

      // A conflict: Ann opens the plants' due date (her window reads nothing new while its details are open), Bob
      // finishes them in his terminal (the date moves a week on), then Ann moves the date to tomorrow: the same
      // field changed on both sides. The toast names the task and the field; Use Mine sends Ann's date again.
      try await app.click(role: "list item", name: "Today, 1 open task")
      try await app.click(role: "label", name: "Water the plants")
      try await app.waitForFocus(role: "list item", name: plants)
      try await app.key("ctrl+d", window: nil)
      _ = try await app.waitForWindow(titled: "Water the plants")
      try await app.waitForFocus(role: "filler", name: "Due date")
      let listed = try await bob.run(["list", "--list", "Home", "--json"])
      let tasks = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
      let id = try #require(tasks.first { $0["title"] as? String == "Water the plants" }?["id"] as? String)
      #expect(try await bob.run(["done", id]).contains("next:"))
      try await app.key("Right", window: nil)
      try await app.key("Return", window: nil)
      // The toast stays until Ann chooses (however long the screenshot takes on a busy machine).
      let conflict = "“Water the plants” was changed elsewhere too: its due date there was kept"
      try await app.waitFor(role: "label", name: conflict)
      try await app.checkScreen("planner-conflict")
      try await app.press(button: "Use Mine Use Mine")  // (libadwaita 1.2 names a toast's button twice)
      try await app.waitUntilGone(role: "label", name: conflict)
      let tomorrow = Self.day(after: 1)
      var bobHas = ""
      let mine = try await eventually(timeout: .seconds(60), every: .milliseconds(500)) {
        bobHas = (try? await bob.run(["list", "--list", "Home", "--json"])) ?? ""
        return bobHas.contains("\"date\":\"\(tomorrow)\"")
      }
      #expect(mine, "Ann's date (\(tomorrow)) at the service: \(bobHas)")
      try await app.key("Escape", window: nil)
      try await app.waitUntilGone(role: "frame", name: "Water the plants")
      try await app.key("ctrl+2", window: window)
      // Ann's date stands, and she changed it last: the row names no one.
      try await app.waitFor(
        role: "list item", name: "Water the plants, not done, due Tomorrow, repeats Weekly, in Home")
      await app.stop()
    }

    @Test(
      "Ann joins Bob's list from the window (a wrong code refused first), cannot leave her own list, cancels, then leaves: Bob's list no longer reaches her"
    )
    func leaveList() async throws {
      let playground = try await PlaygroundForUI()
      let app = try AppDriver(settings: playground.settings)
      let window = try await app.signInByTyping()
      try await app.waitFor(role: "list item", name: "Tasks, 0 open tasks")
      let bob = try await TerminalUser(playground, email: "bob@example.com", password: "Tasks-Demo-2")
      try await bob.run(["lists", "add", "Errands"])
      let shared = try await bob.run(["lists", "share", "Errands"])
      let code = try #require(shared.split(separator: "\n").last.map(String.init))

      // A code nobody gave out is refused in words; the real one joins Bob's list and shows it.
      try await chooseFromListMenu(app, "Join a Shared List…")
      try await app.waitForFocus(role: "text", name: "Code")
      try await app.type("NOT-A-CODE", window: nil)
      try await app.key("Return", window: nil)
      try await app.waitFor(role: "label", name: "This code is not valid, or was used already")
      // The toast floats above the sidebar's foot: the list menu opens again while it shows.
      try await chooseFromListMenu(app, "Join a Shared List…")
      try await app.waitForFocus(role: "text", name: "Code")
      try await app.type(code, window: nil)
      try await app.key("Return", window: nil)
      let errands = "Errands, 0 open tasks, Shared by Bob Example"
      try await app.waitFor(role: "list item", name: errands)
      try await app.checkScreen("planner-joined")

      // Her own list cannot be left.
      try await app.click(role: "list item", name: "Tasks, 0 open tasks")
      try await chooseFromListMenu(app, "Leave List")
      try await app.waitFor(role: "label", name: "Only a list someone shares with you can be left")
      try await app.checkScreen("planner-toast")

      // Leaving asks first: Cancel keeps the list; Leave takes it away, and says so.
      try await app.click(role: "list item", name: errands)
      try await chooseFromListMenu(app, "Leave List")
      _ = try await app.waitFor(role: "label", name: "Leave “Errands”?")
      try await app.checkScreen("planner-leave")
      try await app.press(button: "Cancel")
      try await app.waitUntilGone(role: "label", name: "Leave “Errands”?")
      try await app.waitFor(role: "list item", name: errands)
      try await chooseFromListMenu(app, "Leave List")
      _ = try await app.waitFor(role: "label", name: "Leave “Errands”?")
      try await app.press(button: "Leave")
      try await app.waitFor(role: "label", name: "You left “Errands”")
      try await app.waitUntilGone(role: "list item", name: errands)

      // What Bob adds later does not reach her, and his list no longer names her.
      try await bob.run(["add", "Post the parcel", "--list", "Errands"])
      let bobs = try await bob.run(["lists"])
      #expect(bobs.contains("Errands") && !bobs.contains("Errands  (shared)"), "\(bobs)")
      try await app.key("F5", window: window)
      try await app.waitFor(role: "list item", name: "Tasks, 0 open tasks")
      let tree = try await app.dumpTree() ?? []
      #expect(!tree.contains { ($0.role == "list item" && $0.name.contains("Errands")) || $0.name.contains("parcel") })
      await app.stop()
    }

    /// Opens the sidebar's list menu with the pointer, as a person does, and chooses `item` in it.
    private func chooseFromListMenu(_ app: AppDriver, _ item: String) async throws {
      try await app.click(role: "push button", name: "List Menu")
      try await app.press(role: "menu item", name: item)
    }

    /// The local date `days` from today, as the task API writes it (2026-11-28).
    private static func day(after days: Int) -> String {
      let date = Calendar.current.date(byAdding: .day, value: days, to: Date()) ?? Date()
      let parts = Calendar.current.dateComponents([.year, .month, .day], from: date)
      return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
  }
}

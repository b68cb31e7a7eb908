// Tests of b2c-tasks-cli as a program: sign-in with the system browser and a loopback redirect, SSO with other
// apps through the keyring, two processes refreshing at once, an unavailable keyring, JSON output.

import Foundation
import TasksCore
import TasksCoreTesting
import TasksKeyring
import TasksTestSupport
import Testing

/// Runs b2c-tasks-cli against a harness's playground with settings written to a file.
struct CLIRunner {
  let harness: SessionHarness
  let settingsFile: URL

  /// Settings for `harness`'s playground (B2C's, or OpenID Connect's `.openID`); `taskAPI` puts the task API
  /// elsewhere.
  init(_ harness: SessionHarness, openID: Bool = false, taskAPI: URL? = nil) throws {
    self.harness = harness
    settingsFile = harness.data.appending(path: "settings.plist")
    var plist = SessionHarness.plist(
      base: harness.base, flavor: openID ? .openID : .b2c, group: harness.group, redirect: "urn:ietf:wg:oauth:2.0:oob")
    if let taskAPI {
      plist = plist.replacingOccurrences(
        of: "<key>taskAPI</key><string>\(harness.base.absoluteString)</string>",
        with: "<key>taskAPI</key><string>\(taskAPI.absoluteString)</string>")
    }
    try Data(plist.utf8).write(to: settingsFile)
  }

  static var program: URL { TestDesktop.binaryFolder.appending(path: "b2c-tasks-cli") }
  static var scriptedBrowser: String { TestDesktop.scriptedBrowser.path }
  /// `hand-over-target.sh`: where the apps' hand-over page leads.
  static var handOverTarget: String {
    TestDesktop.scriptedBrowser.deletingLastPathComponent().appending(path: "hand-over-target.sh").path
  }

  /// Runs `arguments` (after `--settings FILE`), signing in as `email` if the command opens the browser.
  func run(
    _ arguments: [String], email: String = "ann@example.com", password: String = "Tasks-Demo-1",
    environment: [String: String?] = [:]
  ) async throws -> (status: Int32?, output: String, error: String) {
    var environment = environment
    environment["BROWSER"] = environment["BROWSER"] ?? Self.scriptedBrowser
    environment["B2C_TEST_EMAIL"] = email
    environment["B2C_TEST_PASSWORD"] = password
    // After the (sub)command's name: `lists share NAME` takes its options after `share`.
    let depth = arguments.first == "lists" && arguments.count > 1 && !arguments[1].hasPrefix("-") ? 2 : 1
    let command = Array(arguments.prefix(depth)) + ["--settings", settingsFile.path] + arguments.dropFirst(depth)
    return try await ChildProcess.run(Self.program, command, environment: environment, timeout: .seconds(60))
  }

  func start(_ arguments: [String], environment: [String: String?] = [:]) throws -> ChildProcess {
    try ChildProcess(
      Self.program, Array(arguments.prefix(1)) + ["--settings", settingsFile.path] + arguments.dropFirst(),
      environment: environment)
  }
}

@Suite("b2c-tasks-cli", .serialized, .enabled(if: TestDesktop.hasSessionBus || TestDesktop.isRequired))
struct CLITests {
  @Test("sign-in opens the browser, catches the loopback redirect, and the app's session finds the sign-in (SSO)")
  func signInWithBrowser() async throws {
    try await SessionHarness.with(keyring: true) { harness in
      let cli = try CLIRunner(harness)
      let signIn = try await cli.run(["sign-in"])
      #expect(signIn.status == 0, "\(signIn.error)")
      #expect(signIn.output.contains("Signed in as Ann Example"))
      #expect(signIn.output.contains("http://127.0.0.1:"), "the loopback redirect is named")
      let status = try await cli.run(["status", "--json"])
      let json = try #require(try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any])
      #expect(json["signedIn"] as? Bool == true)
      // Another app of the group (here: a session in this process, as the GUI would make) needs no sign-in.
      #expect(try await harness.session().restore()?.email == "ann@example.com")
    }
  }

  @Test("after the app signed in, the CLI works with no sign-in: add, list, done, delete, with --json")
  func appThenCLI() async throws {
    try await SessionHarness.with(keyring: true) { harness in
      _ = try await harness.signIn(harness.session(), "bob@example.com", "Tasks-Demo-2")
      let cli = try CLIRunner(harness)
      #expect(try await cli.run(["add", "water", "the", "plants"], environment: ["BROWSER": "false"]).status == 0)
      let list = try await cli.run(["list", "--json"], environment: ["BROWSER": "false"])
      #expect(list.status == 0, "\(list.error)")
      let tasks = try #require(try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [[String: Any]])
      #expect(tasks.map { $0["title"] as? String } == ["water the plants"])
      let id = try #require(tasks.first?["id"] as? String)
      let done = try await cli.run(["done", String(id.prefix(8))])
      #expect(done.status == 0, "\(done.output) \(done.error)")
      #expect(try await TaskAPIClient(session: harness.session()).list().first?.completed == true)
      #expect(try await cli.run(["delete", id]).status == 0)
      #expect(try await cli.run(["list"]).output.contains("No tasks."))
      #expect(try await cli.run(["done", "999999"]).status == 1)
    }
  }

  @Test("two processes refreshing at once both stay signed in (rotation is serialised across processes)")
  func concurrentRefresh() async throws {
    // under 5 minutes
    try await SessionHarness.with(keyring: true, { $0.lifetimes.accessToken = 120 }) { harness in
      _ = try await harness.signIn(harness.session())
      let cli = try CLIRunner(harness)
      let before = try #require(try await KeyringSessionStore().load(SessionKey(harness.settings))).refreshToken
      let processes = try (0..<4).map { _ in try cli.start(["list"]) }
      for process in processes {
        let status = await process.waitForExit(timeout: .seconds(60))
        #expect(status == 0, "a process was signed out: \(process.standardError)")
      }
      let after = try #require(try await KeyringSessionStore().load(SessionKey(harness.settings))).refreshToken
      #expect(after != before, "the refresh token rotated")
      #expect(try await cli.run(["list"]).status == 0, "and the stored one still works")
    }
  }

  @Test("a local process sending the loopback listener a wrong or no state gets 400; the sign-in goes on")
  func forgedLoopbackRequests() async throws {
    try await SessionHarness.with(keyring: true) { harness in
      let cli = try CLIRunner(harness)
      let log = harness.data.appending(path: "meddler.log")
      // A "browser" that first lets a neighbour hit the listener with forged answers, then signs in as a person would.
      let meddler = harness.data.appending(path: "meddler.sh")
      try Data(
        """
        #!/bin/sh
        redirect=$(/bin/sh "\(CLIRunner.handOverTarget)" "$1" | sed 's|^\\(http://[^/]*\\)/.*|\\1/|')
        curl -s -o /dev/null -w '%{http_code}\\n' "${redirect}?code=forged&state=wrong" >>"\(log.path)"
        curl -s -o /dev/null -w '%{http_code}\\n' "${redirect}?error=access_denied" >>"\(log.path)"
        exec /bin/sh "\(CLIRunner.scriptedBrowser)" "$1"

        """.utf8
      ).write(to: meddler)
      chmod(meddler.path, 0o755)
      let signIn = try await cli.run(["sign-in"], environment: ["BROWSER": meddler.path])
      #expect(signIn.status == 0, "\(signIn.output) \(signIn.error)")
      #expect(signIn.output.contains("Signed in as Ann Example"))
      #expect(try String(contentsOf: log, encoding: .utf8) == "400\n400\n")
    }
  }

  @Test(
    "M4: the browser's command line holds no authorize request; a neighbour who opens its address first stops the sign-in"
  )
  func browserCommandLineHandsNothing() async throws {
    try await SessionHarness.with(keyring: true) { harness in
      let cli = try CLIRunner(harness)
      let log = harness.data.appending(path: "browser.log")
      #expect(try await cli.run(["sign-in"], environment: ["B2C_TEST_BROWSER_LOG": log.path]).status == 0)
      let opened = try String(contentsOf: log, encoding: .utf8)
      #expect(opened.hasPrefix("file:///") && opened.contains("/b2c-tasks/sign-in-"), "\(opened)")
      let parameters = [
        "state=", "nonce=", "code_challenge", "redirect_uri", "/authorize", "client_id", "b2c-tasks-sign-in",
      ]
      for parameter in parameters {
        #expect(!opened.contains(parameter), "the browser's command line names \(parameter): \(opened)")
      }
      _ = try await cli.run(["sign-out"], environment: ["BROWSER": "true"])

      // A program of the user's own (no other user can read the page) opens the start address before the browser
      // does: it gets the authorize request, and the browser's own visit then stops the sign-in, so the code it would
      // bring back finds no flow.
      let taken = harness.data.appending(path: "taken.txt")
      let neighbour = harness.data.appending(path: "neighbour.sh")
      try Data(
        """
        #!/bin/sh
        curl -s --noproxy '*' -o /dev/null -w '%{http_code} %{redirect_url}' "$(/bin/sh "\(CLIRunner.handOverTarget)" "$1")" >"\(taken.path)"
        exec /bin/sh "\(CLIRunner.scriptedBrowser)" "$1"

        """.utf8
      ).write(to: neighbour)
      chmod(neighbour.path, 0o755)
      let signIn = try await cli.run(["sign-in"], environment: ["BROWSER": neighbour.path])
      #expect(signIn.status == 1, "\(signIn.output) \(signIn.error)")
      #expect(signIn.error.contains("opened twice"), "\(signIn.error)")
      let stolen = try String(contentsOf: taken, encoding: .utf8)
      #expect(stolen.hasPrefix("302 ") && stolen.contains("code_challenge="), "\(stolen)")
      #expect(try await KeyringSessionStore().load(SessionKey(harness.settings)) == nil, "nobody is signed in")
    }
  }

  @Test("sign-out sends the browser to the end-session page with no token in its command line")
  func signOutHandsNoToken() async throws {
    try await SessionHarness.with(keyring: true) { harness in
      let cli = try CLIRunner(harness)
      let log = harness.data.appending(path: "browser.log")
      #expect(try await cli.run(["sign-in"], environment: ["B2C_TEST_BROWSER_LOG": log.path]).status == 0)
      let tokens = try #require(try await KeyringSessionStore().load(SessionKey(harness.settings)))
      #expect(tokens.signedInWithBrowser == true)
      let signOut = try await cli.run(["sign-out"], environment: ["B2C_TEST_BROWSER_LOG": log.path])
      #expect(signOut.status == 0, "\(signOut.error)")
      let opened = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
      let logout = try #require(opened.last)
      #expect(opened.count == 2 && logout.contains("/oauth2/v2.0/logout") && logout.contains("client_id="))
      for token in [tokens.idToken, tokens.accessToken, tokens.refreshToken].compactMap({ $0 }) {
        #expect(!opened.contains { $0.contains(token) }, "a token was handed to the browser")
      }
      #expect(!logout.contains("id_token_hint"))
    }
  }

  @Test(
    "sign-out in the terminal forgets what the window and the reminder service kept of the account, by the window's rule: its data folder holds nothing, the reminder ledger included; changes that wait are discarded only when asked"
  )
  func signOutForgetsTheAccountsFiles() async throws {
    try await SessionHarness.with(keyring: true) { harness in
      let cli = try CLIRunner(harness)
      let home = try TestDesktop.temporaryFolder("cli-home")
      let environment: [String: String?] = [
        "XDG_DATA_HOME": home.appending(path: "data").path, "XDG_CACHE_HOME": home.appending(path: "cache").path,
      ]
      let signIn = try await cli.run(["sign-in"], environment: environment)
      #expect(signIn.status == 0, "\(signIn.error)")
      let account = try #require(try await harness.session().restore())
      let files = AccountFiles(
        account: account, in: SessionKey(harness.settings),
        environment: environment.compactMapValues { $0 })
      // As the window and the reminder service leave them: the copies, empty outboxes, what fired, the cookies.
      for (file, contents) in [
        (files.replica, "{}"), (files.plannerOutbox, "[]"), (files.reminderAgenda, "{}"), (files.reminderOutbox, "[]"),
        (files.reminderLedger, ""), (files.legacyOfflineCopy, "{}"),
        (WebSessionFolders(environment: environment.compactMapValues { $0 }).data.appending(path: "cookies"), "c"),
      ] {
        try AtomicFile.write(Data(contents.utf8), to: file)
      }
      // A change the window made offline waits: the sign-out is refused, in words, unless told to discard it.
      let outbox = PlannerOutbox(file: files.plannerOutbox)
      let item = PlannerItem(id: UUID(), listID: UUID(), title: "typed offline", createdAt: Date())
      try await outbox.record(.createTask(item))
      let refused = try await cli.run(["sign-out", "--no-browser"], environment: environment)
      #expect(refused.status == 1 && refused.error.contains("1 change made while offline"), "\(refused.error)")
      #expect(try await harness.session().restore() != nil, "still signed in")
      let signOut = try await cli.run(["sign-out", "--no-browser", "--discard-waiting"], environment: environment)
      #expect(signOut.status == 0, "\(signOut.error)")
      let left = AccountFolder.leftOver(dataHome: home.appending(path: "data"))
      #expect(left.isEmpty, "\(left)")
      #expect(
        !FileManager.default.fileExists(atPath: files.legacyOfflineCopy.path), "an earlier version's offline copy")
    }
  }

  @Test("a browser that never answers: sign-in stops waiting after --timeout and says so")
  func signInTimesOut() async throws {
    try await SessionHarness.with(keyring: true) { harness in
      let run = try await CLIRunner(harness).run(["sign-in", "--timeout", "5"], environment: ["BROWSER": "true"])
      #expect(run.status == 1, "\(run.output) \(run.error)")
      #expect(run.error.contains("was not finished in time"), "\(run.error)")
    }
  }

  @Test("without a keyring the CLI says so and keeps nothing anywhere else")
  func keyringUnavailable() async throws {
    try await SessionHarness.with(keyring: true) { harness in
      let cli = try CLIRunner(harness)
      let home = try TestDesktop.temporaryFolder("no-keyring-home")
      defer { try? FileManager.default.removeItem(at: home) }
      let run = try await cli.run(
        ["sign-in", "--timeout", "30"],
        environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus", "DISPLAY": nil, "HOME": home.path])
      #expect(run.status == 4, "\(run.output) \(run.error)")
      #expect(run.error.contains("No keyring is running"))
      // Foundation's URLSession makes an empty ~/.cache/org.swift.foundation.URLCache folder; a plaintext fallback
      // would be a file.
      let files = try FileManager.default.subpathsOfDirectory(atPath: home.path).filter { path in
        var isFolder: ObjCBool = false
        FileManager.default.fileExists(atPath: home.appending(path: path).path, isDirectory: &isFolder)
        return !isFolder.boolValue
      }
      #expect(files.isEmpty, "no file written under HOME: \(files)")
    }
  }

  @Test("not signed in: commands say so with exit status 3; bad settings with 6")
  func notSignedIn() async throws {
    try await SessionHarness.with(keyring: true) { harness in
      let cli = try CLIRunner(harness)
      let list = try await cli.run(["list", "--json"])
      #expect(list.status == 3)
      #expect(list.output.contains("\"error\":\"not-signed-in\""))
      let bad = try await ChildProcess.run(CLIRunner.program, ["status", "--settings", "/nonexistent.plist"])
      #expect(bad.status == 6 && bad.error.contains("/nonexistent.plist: the file does not exist"))
    }
  }

  @Test(
    "the planner: lists, add with phrases (English and German), a clear exit 2 changing nothing, done on a repeat, sharing"
  )
  func planner() async throws {
    try await SessionHarness.with(keyring: true) { harness in
      _ = try await harness.signIn(harness.session(), "bob@example.com", "Tasks-Demo-2")
      let cli = try CLIRunner(harness)
      #expect(try await cli.run(["lists", "add", "Groceries"]).status == 0)
      let lists = try await cli.run(["lists"])
      #expect(lists.status == 0 && lists.output.contains("Groceries") && lists.output.contains("Tasks  (default)"))

      let added = try await cli.run([
        "add", "Pay", "rent", "--list", "groceries", "--due", "tomorrow 9:00", "--repeat", "every month", "--remind",
        "1 hour before", "--priority", "high", "--note", "by transfer",
      ])
      #expect(added.status == 0, "\(added.output) \(added.error)")
      let german = try await cli.run(
        ["add", "Müll", "rausbringen", "--list", "Groceries", "--due", "morgen 9 Uhr"], environment: ["LANGUAGE": "de"])
      #expect(german.status == 0, "\(german.error)")
      let calendar = Calendar.current
      let tomorrow = calendar.dateComponents([.year, .month, .day], from: Date().addingTimeInterval(86_400))
      let tomorrowText = String(format: "%04d-%02d-%02d", tomorrow.year!, tomorrow.month!, tomorrow.day!)
      let listed = try await cli.run(["list", "--list", "Groceries", "--json"])
      let tasks = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
      let rent = try #require(tasks.first { $0["title"] as? String == "Pay rent" })
      #expect((rent["due"] as? [String: Any])?["date"] as? String == tomorrowText)
      #expect((rent["due"] as? [String: Any])?["time"] as? String == "09:00")
      #expect((rent["recurrence"] as? [String: Any])?["rrule"] as? String == "FREQ=MONTHLY")
      #expect(rent["priority"] as? Int == 1 && rent["notes"] as? String == "by transfer")
      #expect((rent["reminders"] as? [[String: Any]])?.first?["before"] as? Int == 60)
      let rubbish = try #require(tasks.first { $0["title"] as? String == "Müll rausbringen" })
      #expect((rubbish["due"] as? [String: Any])?["date"] as? String == tomorrowText)
      #expect((rubbish["due"] as? [String: Any])?["time"] as? String == "09:00")

      // Refused before anything is sent: exit status 2, a clear message, nothing added.
      let unknownList = try await cli.run(["add", "x", "--list", "Nope"])
      #expect(unknownList.status == 2 && unknownList.error.contains("You have no list named “Nope”"))
      let badPhrase = try await cli.run(["add", "x", "--due", "tomorrow blorp"])
      #expect(badPhrase.status == 2 && badPhrase.error.contains("“blorp” is not understood"), "\(badPhrase.error)")
      let badReminder = try await cli.run(["add", "x", "--remind", "whenever"])
      #expect(badReminder.status == 2)
      #expect(!(try await cli.run(["list"]).output.contains("\tx")), "nothing was added")

      // Done on the repeating task moves it a month on.
      let id = try #require(rent["id"] as? String)
      let done = try await cli.run(["done", String(id.prefix(8))])
      #expect(done.status == 0 && done.output.contains("next"), "\(done.output) \(done.error)")
      let after = try await cli.run(["list", "--list", "Groceries"])
      #expect(after.output.contains("[ ] Pay rent") && !after.output.contains("due \(tomorrowText)  "))

      // Sharing: Bob's code, joined by Ann (another app's sign-in), then Ann's list shows shared.
      let share = try await cli.run(["lists", "share", "Groceries"])
      let code = try #require(share.output.split(separator: "\n").last.map(String.init))
      #expect(share.status == 0 && code.count == 32)
      let ann = Session(settings: harness.settings, store: MemorySessionStore(), http: .tests)
      _ = try await harness.signIn(ann, "ann@example.com", "Tasks-Demo-1")
      let joined = try await TaskAPIClient(session: ann).join(code: code)
      #expect(joined.name == "Groceries" && joined.role == .member)
      #expect(try await cli.run(["lists"]).output.contains("Groceries  (shared)"))
      #expect(try await cli.run(["lists", "leave", "Groceries"]).status == 2, "the owner cannot leave")
      // A DELETE answered 404 (sent again by libsoup after the first was carried out, or done elsewhere) is done.
      let annsClient = TaskAPIClient(session: ann)
      try await annsClient.removeMember(list: joined.id, member: nil)
      try await annsClient.removeMember(list: joined.id, member: nil)
      #expect(!(try await annsClient.plannerLists().contains { $0.id == joined.id }), "Ann left Groceries")
      let password = try await annsClient.makeAppPassword(name: "Ann's phone")
      try await annsClient.revokeAppPassword(id: password.id)
      try await annsClient.revokeAppPassword(id: password.id)
      #expect(try await annsClient.appPasswords().isEmpty)

      // Ann's list, joined in the terminal: the code on standard input, never on a command line.
      let annsList = try await TaskAPIClient(session: ann).createList(id: UUID(), name: "Ann's errands")
      let annsCode = try await TaskAPIClient(session: ann).invite(list: annsList.id).code
      let join = try await ChildProcess.run(
        URL(filePath: "/bin/sh"),
        [
          "-c", "printf '%s\\n' \"$CODE\" | \"$0\" lists join --settings \"$1\"", CLIRunner.program.path,
          cli.settingsFile.path,
        ],
        environment: ["CODE": annsCode])
      #expect(join.status == 0 && join.output.contains("Joined the list Ann's errands"), "\(join.output) \(join.error)")
      #expect(try await cli.run(["lists"]).output.contains("Ann's errands  (shared with you)"))
      #expect(try await cli.run(["lists", "leave", "Ann's errands"]).status == 0)
      #expect(!(try await cli.run(["lists"]).output.contains("Ann's errands")))
    }
  }
}

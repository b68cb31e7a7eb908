// End-to-end UI tests of the task list as a person uses it: sign up, add, complete, edit, delete and undo, quit and
// come back through the keyring, sign out and see another user's tasks only; the outbox across kill -9 and the
// offline copy with its banner; signing in with the system browser.

import Foundation
import TasksTestSupport
import Testing

extension AppDriver {
  /// Whether the check box named `name` is ticked.
  func isChecked(_ name: String) async throws -> Bool {
    let node = try await waitFor(role: "check box", name: name)
    return node.states.contains("checked")
  }

  /// Waits until the check box named `name` is ticked (or unticked).
  func waitForCheck(_ name: String, checked: Bool) async throws {
    try await accessibleTree { nodes in
      nodes.contains {
        $0.role == "check box" && $0.name == name && $0.isShowing && $0.states.contains("checked") == checked
      }
    }
  }

  /// Opens the primary menu with F10 and picks `item`.
  func chooseFromMenu(_ item: String, window: String) async throws {
    try await key("F10", window: window)
    try await waitFor(role: "menu item", name: item)
    try await press(role: "menu item", name: item)
  }

  /// Ticks "Keep me signed in" on the welcome page by keyboard (Tab to Sign In, Tab to the check box, Space);
  /// returns the window.
  func tickKeepMeSignedIn() async throws -> String {
    let window = try await waitForWindow()
    try await waitFor(role: "check box", name: "Keep me signed in")
    try await key("Tab", window: window)
    try await key("Tab", window: window)
    try await key("space", window: window)
    try await waitForCheck("Keep me signed in", checked: true)
    return window
  }

  /// Deletes the task `name` as a keyboard user does: a click on its text gives its row the focus, then Delete.
  /// (A click that did not reach the row, on a loaded machine, is made again.)
  func deleteRow(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    func rowFocused() async throws -> Bool {
      try await dumpTree()?.contains {
        $0.role == "list item" && $0.name.hasPrefix(name + ", ") && $0.states.contains("focused")
      } == true
    }
    var focused = false
    for _ in 0..<3 where !focused {
      try await click(role: "label", name: name)
      focused = try await eventually(timeout: .seconds(10), every: .milliseconds(200)) { try await rowFocused() }
    }
    try #require(focused, "the row of \(name) never took the focus", sourceLocation: sourceLocation)
    try await key("Delete", window: nil)
  }

  /// The names of the task check boxes on screen.
  func taskNames() async throws -> [String] {
    try await accessibleTree { _ in true }.filter { $0.role == "check box" && $0.isShowing }.map(\.name)
  }
}

extension AppUI {
  @Suite("The task list")
  struct TaskListUITests {
    @Test("sign up, add three, complete one, edit one, delete and undo; restart by SSO; sign out; another user")
    func everydayUse() async throws {
      let playground = try await PlaygroundForUI()
      let app = try AppDriver(settings: playground.settings)
      let window = try await app.openSignInPage()
      // B2C's page, by keyboard: email, password, forgot link, Sign in, then "Sign up now".
      for _ in 0..<4 { try await app.key("Tab", window: window) }
      try await app.key("Return", window: window)
      try await app.waitFor(role: "label", name: "Create your account")
      try await app.type("carol@example.com", window: window)
      for text in ["Carol-pass-1", "Carol-pass-1", "Carol Example"] {
        try await app.key("Tab", window: window)
        try await app.type(text, window: window)
      }
      _ = try await app.screenshot("sign-up-page")
      try await app.key("Return", window: window)
      try await app.waitFor(role: "label", name: "No Tasks")
      try await app.waitFor(role: "label", name: "Carol Example")
      _ = try await app.screenshot("no-tasks")

      for text in ["buy milk", "walk the dog", "call mum"] {
        try await app.addTask(text, window: window)
        try await app.waitFor(role: "check box", name: text)
      }
      try await app.click(role: "check box", name: "walk the dog")
      try await app.waitForCheck("walk the dog", checked: true)

      // Double-click the text: its details, the title focused; Enter saves, Escape closes them.
      try await app.focus(window: window)
      try await app.click(role: "label", name: "buy milk", count: 2)
      _ = try await app.waitForWindow(titled: "buy milk")
      try await app.waitForFocusedTitle()
      try await app.key("ctrl+a", window: nil)
      try await app.type("buy oat milk", window: nil)
      _ = try await app.screenshot("editing-task")
      try await app.key("Return", window: nil)
      _ = try await app.waitForWindow(titled: "buy oat milk")
      try await app.key("Escape", window: nil)
      try await app.waitFor(role: "check box", name: "buy oat milk")

      // Delete (the row's key), then Undo on the toast: the row comes back. Delete again and let the toast go.
      try await app.deleteRow("call mum")
      try await app.waitUntilGone(role: "check box", name: "call mum")
      try await app.waitFor(role: "label", name: "“call mum” deleted")
      _ = try await app.screenshot("deleted-undo-toast")
      // libadwaita 1.2's toast button reaches AT-SPI as "Undo Undo" (GTK 4.8 names a use-underline button twice).
      try await app.press(button: "Undo Undo")
      try await app.waitFor(role: "check box", name: "call mum")
      try await app.deleteRow("call mum")
      try await app.waitUntilGone(role: "check box", name: "call mum")
      _ = try await app.screenshot("task-list")
      // Quitting while the Undo toast shows carries out the deletion before the app ends.
      #expect(try await app.quitByKeyboard(window: window) == 0)
      await app.stop(keepHome: true)

      // Again: single sign-on from the keyring, the server's list as left.
      let again = try AppDriver(settings: playground.settings, home: app.home)
      let secondWindow = try await again.waitForWindow()
      try await again.waitFor(role: "label", name: "Carol Example")
      try await again.waitFor(role: "check box", name: "buy oat milk")
      #expect(try await again.isChecked("walk the dog"))
      #expect(!(try await again.isChecked("buy oat milk")))
      let namesAgain = try await again.taskNames().sorted()
      #expect(namesAgain == ["buy oat milk", "walk the dog"])
      #expect(!(try again.mapsWebKit()), "single sign-on from the keyring: no web view, no WebKit")

      // Sign out, then Ann signs in and sees only her tasks.
      try await again.chooseFromMenu("Sign Out", window: secondWindow)
      try await again.waitFor(role: "label", name: "Sign in to see your tasks")
      _ = try await again.signInByTyping()
      try await again.waitFor(role: "label", name: "Ann Example")
      try await again.waitFor(role: "label", name: "No Tasks")
      #expect(try await again.taskNames().isEmpty)
      try await again.addTask("ann's task", window: secondWindow)
      try await again.waitFor(role: "check box", name: "ann's task")
      #expect(try await again.taskNames() == ["ann's task"])
      try await again.checkScreen("second-user")
      await again.stop()
    }

    @Test("kill -9 with a task waiting: it is still there offline, under the banner; server back: sent once")
    func outboxSurvivesKill() async throws {
      let playground = try await PlaygroundForUI()
      let app = try AppDriver(settings: playground.settings)
      let window = try await app.signInByTyping()
      try await app.waitFor(role: "label", name: "No Tasks")
      try await app.addTask("sent at once", window: window)
      try await app.waitFor(role: "check box", name: "sent at once")
      await playground.stop()
      try await app.addTask("typed before the crash", window: window)
      try await app.waitFor(role: "check box", name: "typed before the crash — change waiting to be sent")
      await app.stop(keepHome: true)  // SIGKILL

      // Still offline: the list from last time and the waiting task, under a banner saying so.
      let again = try AppDriver(settings: playground.settings, home: app.home)
      _ = try await again.waitForWindow()
      try await again.waitFor(role: "check box", name: "sent at once")
      try await again.waitFor(role: "check box", name: "typed before the crash — change waiting to be sent")
      let banner = try await again.accessibleTree {
        $0.contains { $0.role == "label" && $0.name.hasPrefix("The task service cannot be reached.") && $0.isShowing }
      }
      #expect(banner.contains { $0.name.hasPrefix("The task service cannot be reached. These are your tasks as of") })
      try await again.checkScreen("offline-banner")

      try await playground.restart()
      try await again.press(button: "Retry")
      try await again.waitFor(role: "check box", name: "typed before the crash")
      try await again.accessibleTree {
        !$0.contains { $0.name.hasPrefix("The task service cannot be reached.") && $0.isShowing }
      }
      // In the order they were added: the one typed last at the end.
      #expect(try await again.taskNames() == ["sent at once", "typed before the crash"])
      await again.stop()
    }

    @Test("'Keep me signed in' keeps B2C's session for Edit Profile and the next sign-in; Sign Out forgets it")
    func keepMeSignedIn() async throws {
      let playground = try await PlaygroundForUI()
      let app = try AppDriver(settings: playground.settings)
      let window = try await app.tickKeepMeSignedIn()
      try await app.checkScreen("welcome-keep-signed-in")
      _ = try await app.signInByTyping()
      try await app.waitFor(role: "label", name: "Ann Example")
      // B2C remembers the browser session: its profile page comes without a password. Cancel goes back to the list.
      try await app.chooseFromMenu("Edit Profile", window: window)
      try await app.waitFor(role: "label", name: "Edit your profile")
      try await app.checkScreen("edit-profile")
      try await app.press(button: "Cancel")
      try await app.waitFor(role: "label", name: "No Tasks")
      let webSession = app.home.appending(path: "data/io.github.b2ctasks.B2CTasks/web-session")
      #expect(FileManager.default.fileExists(atPath: webSession.path), "the cookies are kept on disk")
      // L5: WebKit's cookie store and cache are the user's alone (WebKit makes them 0644 and 0755 itself).
      for folder in [webSession, app.home.appending(path: "cache/io.github.b2ctasks.B2CTasks/web-session")] {
        let mode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
        #expect(mode == 0o700, "\(folder.path) has mode \(String(mode ?? 0, radix: 8))")
      }
      // Signed out, the session's cookies are gone: B2C shows its sign-in form again instead of signing in at once.
      try await app.chooseFromMenu("Sign Out", window: window)
      try await app.waitFor(role: "label", name: "Sign in to see your tasks")
      #expect(!FileManager.default.fileExists(atPath: webSession.path))
      try await app.openSignInPage()
      try await app.waitUntilGone(role: "label", name: "Ann Example")
      await app.stop()
    }

    @Test(
      "L10: another app signs out: the window signs out too and forgets the provider's cookies and the copy of the lists"
    )
    func signedOutElsewhere() async throws {
      // Tokens under the refresh margin: every use of the session asks the keyring (as an hour later would).
      let playground = try await PlaygroundForUI(
        options: ["--access-token-lifetime", "120", "--id-token-lifetime", "120"])
      let app = try AppDriver(settings: playground.settings)
      let window = try await app.tickKeepMeSignedIn()
      _ = try await app.signInByTyping()
      try await app.waitFor(role: "label", name: "No Tasks")
      try await app.quickAdd("kept offline", window: window)
      try await app.waitFor(role: "check box", name: "kept offline")
      let webSession = app.home.appending(path: "data/io.github.b2ctasks.B2CTasks/web-session")
      let offline = app.home.appending(path: "data/io.github.b2ctasks.B2CTasks/planner")
      let copied = await eventually(timeout: .seconds(30)) {
        !((try? FileManager.default.contentsOfDirectory(atPath: offline.path)) ?? []).isEmpty
      }
      try #require(copied && FileManager.default.fileExists(atPath: webSession.path), "cookies and a copy to forget")
      _ = try await app.runCLI(["sign-out"])  // the terminal signs the group out
      try await app.key("F5", window: window)
      try await app.waitFor(role: "label", name: "Sign in to see your tasks")
      try await app.waitFor(role: "label", name: "You were signed out in another app.")
      #expect(!FileManager.default.fileExists(atPath: webSession.path), "the provider's cookies are gone")
      #expect(((try? FileManager.default.contentsOfDirectory(atPath: offline.path)) ?? []).isEmpty, "no copy left")
      try await app.checkScreen("signed-out-elsewhere")
      // The next Sign In asks for the password: the provider does not remember the browser session.
      try await app.openSignInPage()
      try await app.waitUntilGone(role: "label", name: "Ann Example")
      await app.stop()
    }

    @Test("'Open in Browser Instead' signs in with the desktop's browser and a loopback redirect")
    func browserSignIn() async throws {
      let playground = try await PlaygroundForUI()
      let home = try TestDesktop.temporaryFolder("ui-browser")
      try installScriptedBrowser(home: home)
      let log = home.appending(path: "browser.log")
      let app = try AppDriver(
        settings: playground.settings, home: home,
        environment: [
          "B2C_TEST_EMAIL": "bob@example.com", "B2C_TEST_PASSWORD": "Tasks-Demo-2", "B2C_TEST_BROWSER_LOG": log.path,
        ])
      let window = try await app.openSignInPage()
      try await app.press(button: "Open in Browser Instead")
      try await app.waitFor(role: "label", name: "Bob Example")
      try await app.waitFor(role: "label", name: "No Tasks")
      // M4: what the browser's command line showed every local user holds nothing of the authorize request, nor the
      // one-time start address: only the path of a page other users cannot read (gone once it served).
      let start = try String(contentsOf: log, encoding: .utf8)
      #expect(start.contains("/b2c-tasks/sign-in-") && start.hasSuffix(".html\n"), "\(start)")
      for parameter in ["state=", "nonce=", "code_challenge", "redirect_uri", "/authorize", "b2c-tasks-sign-in"] {
        #expect(!start.contains(parameter), "the browser's command line names \(parameter): \(start)")
      }
      // Signed in in the browser, signed out there too: the browser is sent to the end-session page, with no token.
      try await app.chooseFromMenu("Sign Out", window: window)
      try await app.waitFor(role: "label", name: "Sign in to see your tasks")
      let opened = await eventually(timeout: .seconds(30)) {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("/oauth2/v2.0/logout")
      }
      #expect(opened, "the browser was not sent to the end-session page")
      #expect(!((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("id_token_hint"))
      await app.stop()
    }

    @Test("'Open in Browser Instead' with a browser that never answers: the app stops waiting and listening")
    func browserSignInTimesOut() async throws {
      let playground = try await PlaygroundForUI()
      let home = try TestDesktop.temporaryFolder("ui-browser-idle")
      let log = home.appending(path: "browser.log")
      // A browser that opens nothing; the shortest timeout the settings allow.
      let idle = home.appending(path: "idle-browser.sh")
      try Data("#!/bin/sh\nprintf '%s\\n' \"$1\" >>\"\(log.path)\"\n".utf8).write(to: idle)
      try installScriptedBrowser(home: home, script: idle)
      let keyfile = home.appending(path: "config/glib-2.0/settings/keyfile")
      try FileManager.default.createDirectory(
        at: keyfile.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data("[io/github/b2ctasks/B2CTasks]\nbrowser-sign-in-timeout=uint32 30\n".utf8).write(to: keyfile)
      let app = try AppDriver(settings: playground.settings, home: home)
      try await app.openSignInPage()
      try await app.press(button: "Open in Browser Instead")
      try await app.waitFor(role: "label", name: "Continue in Your Browser")
      // The browser is given a page leading to the listener's one-time start address (never the authorize request).
      var start: URLComponents?
      _ = await eventually(timeout: .seconds(30)) {
        let opened = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        start = TestDesktop.handOverTarget(opened).flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }
        return start?.port != nil
      }
      let port = try #require(start?.port, "the browser was given no loopback address")
      try await app.waitFor(
        role: "label",
        name:
          "The sign-in in your browser was not finished in time, so B2C Tasks stopped waiting for it. Please try again.",
        timeout: .seconds(120))
      try await app.waitFor(role: "push button", name: "Try Again")
      let late = try await ChildProcess.run(
        URL(filePath: "/usr/bin/curl"), ["-s", "--noproxy", "*", "-o", "/dev/null", "http://127.0.0.1:\(port)/"])
      #expect(late.status != 0, "a late answer finds no listener")
      try await app.checkScreen("browser-sign-in-timed-out")
      await app.stop()
    }

    /// Makes `script` (by default `scripted-browser.sh`) the desktop's default web browser in `home`'s XDG folders,
    /// as a person's browser is: a desktop entry for http(s) URLs and the default in `mimeapps.list`.
    private func installScriptedBrowser(home: URL, script: URL = TestDesktop.scriptedBrowser) throws {
      try installDefaultBrowser(home: home, name: "Scripted Browser", command: "/bin/sh \(script.path)")
    }
  }
}

// End-to-end UI tests of signing in inside the window, as a person does it: click Sign In, type into B2C's page,
// see the task list; then start again and get there through the keyring, without WebKit.

import Foundation
import TasksTestSupport
import Testing

/// A b2c-playground process from the installed prefix, on a free port, and app settings pointing at it.
final class PlaygroundForUI {
  private(set) var process: ChildProcess
  let data: URL
  let port: Int
  let settings: Data
  let keychainGroup = "ui.test.\(UUID().uuidString)"
  /// The app's client id, registered at the playground.
  static let clientID = "6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f10"
  /// The `authority` key for the External ID and OpenID Connect flavors (nil for B2C, which is named by its host,
  /// tenant and policies).
  let authority: String?
  private let arguments: [String]

  /// Starts a playground of `flavor` (b2c, external-id or oidc: the identity provider it plays) with further
  /// `options`; `logLevel` "info" logs every request (redacted); `tls` serves https with that certificate. The
  /// settings name the provider as a user would: B2C's tenant and policies, or the `authority` the playground says
  /// it serves.
  init(
    flavor: String = "b2c", options: [String] = [], logLevel: String = "warning", tls: ServerIdentity? = nil
  ) async throws {
    data = try TestDesktop.temporaryFolder("ui-playground")
    let tlsOptions = tls.map { ["--tls-cert", $0.certificate.path, "--tls-key", $0.key.path] } ?? []
    arguments = ["--flavor", flavor, "--log-level", logLevel] + tlsOptions + options
    // `restart` takes the port again: a port of the tests' own range, which no client's connection takes as its
    // local port meanwhile (the kernel's ephemeral ports are above it).
    (process, port) = try await Self.launch(data: data, port: try freeLoopbackPort(), arguments: arguments)
    let base = "\(tls == nil ? "http" : "https")://127.0.0.1:\(self.port)"
    switch flavor {
    case "external-id":
      let line = process.standardOutput.split(separator: "\n").first { $0.contains("authority ") } ?? ""
      authority = line.split(separator: "authority ").last.map { String($0.prefix { $0 != ")" }) }
    case "oidc": authority = base
    default: authority = nil
    }
    var file = SettingsFile(["clientID": Self.clientID])
    if let authority {
      file = file.with("authority", authority)
    } else {
      file = file.with("authorityHost", base).with("tenant", "b2ctasks.onmicrosoft.com")
        .with("signInPolicy", "B2C_1_SignUpOrSignIn").with("passwordResetPolicy", "B2C_1_PasswordReset")
        .with("editProfilePolicy", "B2C_1_EditProfile")
    }
    settings =
      file.with("redirectURI", "urn:ietf:wg:oauth:2.0:oob").with("keychain", keychainGroup)
      .with("taskAPI", base).data
  }

  /// Starts the program on `port` (0: a free one) and answers it with the port it listens on.
  private static func launch(data: URL, port requested: Int, arguments: [String]) async throws -> (ChildProcess, Int) {
    let prefix = try #require(TestDesktop.installPrefix)
    let process = try ChildProcess(
      prefix.appending(path: "bin/b2c-playground"), ["--port", "\(requested)", "--data", data.path] + arguments)
    var port: Int?
    _ = await eventually(timeout: .seconds(30)) {
      port = listeningPort(in: process.standardOutput)
      return port != nil || !process.isRunning
    }
    return (process, try #require(port, "playground did not start: \(process.standardError)"))
  }

  /// Everything the server has printed (its request log, at log level info).
  var processOutput: String { process.standardOutput + process.standardError }

  /// Stops the server (as a crash or an outage would) and waits until it is gone.
  func stop() async {
    process.kill()
    _ = await process.waitForExit(timeout: .seconds(10))
  }

  /// Starts the server again on the same port with the same data.
  func restart() async throws {
    (process, _) = try await Self.launch(data: data, port: port, arguments: arguments)
  }

  deinit {
    process.kill()
    try? FileManager.default.removeItem(at: data)
  }
}

extension AppDriver {
  /// Presses Sign In and waits until B2C's page has loaded in the window: its title shows under the window's
  /// (GTK 4.8 does not put WebKit's page content on the accessibility bus) and its email field has keyboard focus.
  @discardableResult
  /// `button` and `pageTitle`: in the app's language.
  func openSignInPage(button: String = "Sign In", pageTitle: String = "Sign in") async throws -> String {
    let window = try await waitForWindow()
    try await waitFor(role: "push button", name: button)
    try await press(button: button)
    try await waitFor(role: "label", name: pageTitle)
    // Keys typed before WebKit has drawn the page can be lost.
    try await waitForPaintedPage()
    return window
  }

  /// Signs in by typing the demo account into B2C's page in the window; returns the window.
  func signInByTyping(
    _ email: String = "ann@example.com", _ password: String = "Tasks-Demo-1", button: String = "Sign In",
    pageTitle: String = "Sign in"
  ) async throws -> String {
    let window = try await openSignInPage(button: button, pageTitle: pageTitle)
    try await typeSignIn(window: window, email, password)
    // On a loaded machine WebKit once lost the keys typed into a page it had drawn: its form check then shows its
    // bubble (a popover, visible but never "showing" to AT-SPI) over the field left empty, which it focuses. A person
    // types again; so does the test, once.
    // (A page that stays for another reason, such as a wrong password a test typed on purpose, is left as it is.)
    var bubble = false
    _ = try await eventually(timeout: .seconds(15), every: .milliseconds(300)) {
      guard let nodes = try await self.dumpTree() else { return false }
      bubble = nodes.contains { $0.role == "filler" && $0.name == "GtkPopover" && $0.states.contains("visible") }
      return bubble || !nodes.contains { $0.role == "label" && $0.name == pageTitle && $0.isShowing }
    }
    if bubble {
      try await key("ctrl+a", window: window)
      try await type(email, window: window)
      try await key("Tab", window: window)
      try await key("ctrl+a", window: window)
      try await type(password, window: window)
      try await key("Return", window: window)
    }
    return window
  }

  /// Types `email`, Tab, `password` and Return into the sign-in page on screen in `window`.
  func typeSignIn(window: String, _ email: String = "ann@example.com", _ password: String = "Tasks-Demo-1")
    async throws
  {
    try await type(email, window: window)
    try await key("Tab", window: window)
    try await type(password, window: window)
    try await key("Return", window: window)
  }

  /// Opens the add-task window with Ctrl+Shift+N and waits for its text. The text is filled and Add pressed through
  /// AT-SPI: Xvfb has no window manager to give the new window keyboard focus.
  func openAddTask(window: String) async throws {
    try await key("ctrl+shift+n", window: window)
    _ = try await waitForWindow(titled: "Add Task")
    try await waitFor(role: "text", name: "What needs doing?")
  }

  /// Waits until the button named `name` can (or cannot) be pressed.
  func waitForSensitive(
    button name: String, _ sensitive: Bool, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    try await accessibleTree(sourceLocation: sourceLocation) { nodes in
      nodes.contains {
        $0.role == "push button" && $0.name == name && $0.isShowing && $0.states.contains("sensitive") == sensitive
      }
    }
  }

  /// Adds a task through the add-task window.
  func addTask(_ text: String, window: String) async throws {
    try await openAddTask(window: window)
    try await setText(text, name: "What needs doing?")
    try await press(button: "Add")
  }

  /// Adds a task as a keyboard user does: Ctrl+N to the "New task…" entry, the text, Enter.
  func quickAdd(_ text: String, window: String) async throws {
    try await key("ctrl+n", window: window)
    try await waitForFocus(role: "text", name: "New task")
    try await type(text, window: nil)
    try await key("Return", window: nil)
  }
}

extension AppUI {
  @Suite("Signing in inside the window")
  struct SignInUITests {
    @Test("type into B2C's page, add three tasks; start again: the keyring signs in, WebKit stays out")
    func signInThenSSO() async throws {
      let playground = try await PlaygroundForUI()
      let app = try AppDriver(settings: playground.settings)
      let window = try await app.openSignInPage()
      // The header names the page's host and, as GNOME Web does, that plain http is not secure.
      try await app.waitFor(role: "label", name: "127.0.0.1:\(playground.port)")
      try await app.waitFor(
        role: "image", name: "Not secure: the page from 127.0.0.1:\(playground.port) is not encrypted")
      try await app.checkScreen("sign-in-page")
      try await app.typeSignIn(window: window)
      try await app.waitFor(role: "label", name: "No Tasks")
      try await app.waitFor(role: "label", name: "Ann Example")
      try await app.checkScreen("signed-in")
      #expect(try app.mapsWebKit())

      // Add is insensitive while the text is empty or blank; then three tasks.
      try await app.openAddTask(window: window)
      try await app.waitForSensitive(button: "Add", false)
      try await app.setText("  \n ", name: "What needs doing?")
      try await app.checkScreen("add-task-empty")
      try await app.waitForSensitive(button: "Add", false)
      try await app.setText("buy milk", name: "What needs doing?")
      try await app.waitForSensitive(button: "Add", true)
      try await app.press(button: "Add")
      try await app.waitFor(role: "check box", name: "buy milk")
      for text in ["walk the dog", "call mum"] {
        try await app.addTask(text, window: window)
        try await app.waitFor(role: "check box", name: text)
      }
      try await app.checkScreen("three-tasks")
      #expect(try await app.quitByKeyboard(window: window) == 0)
      await app.stop(keepHome: true)

      let again = try AppDriver(settings: playground.settings, home: app.home)
      _ = try await again.waitForWindow()
      try await again.waitFor(role: "check box", name: "call mum")
      try await again.waitFor(role: "label", name: "Ann Example")
      #expect(!(try again.mapsWebKit()), "single sign-on from the keyring: no web view, no WebKit")
      _ = try await again.screenshot("signed-in-again")
      await again.stop()
    }

    @Test("server down: an added task waits, marked; server back: it arrives exactly once")
    func outboxAcrossOutage() async throws {
      let playground = try await PlaygroundForUI()
      let app = try AppDriver(settings: playground.settings)
      let window = try await app.signInByTyping()
      try await app.waitFor(role: "label", name: "No Tasks")
      await playground.stop()
      try await app.addTask("written offline", window: window)
      try await app.waitFor(role: "check box", name: "written offline — change waiting to be sent")
      _ = try await app.screenshot("offline-task-waiting")
      try await playground.restart()
      try await app.key("F5", window: window)
      try await app.waitFor(role: "check box", name: "written offline")
      try await app.key("F5", window: window)
      try await app.waitFor(role: "check box", name: "written offline")
      let rows = try await app.accessibleTree { _ in true }.filter {
        $0.role == "check box" && $0.name.hasPrefix("written offline")
      }
      #expect(rows.count == 1, "the task arrived once: \(rows.map(\.name))")
      _ = try await app.screenshot("offline-task-sent")
      await app.stop()
    }

    @Test("'Forgot your password?' on B2C's page runs the reset policy in the same view, then signs in")
    func forgotPassword() async throws {
      let playground = try await PlaygroundForUI()  // its terminal (standard output) is the mailbox
      let app = try AppDriver(settings: playground.settings)
      let window = try await app.openSignInPage()
      // From the email field: Tab to the password, Tab to the link, Enter.
      try await app.key("Tab", window: window)
      try await app.key("Tab", window: window)
      try await app.key("Return", window: window)
      try await app.waitFor(role: "label", name: "Reset your password")
      try await app.checkScreen("reset-password-page")
      try await app.type("ann@example.com", window: window)
      try await app.key("Return", window: window)
      // The code arrives on the playground's terminal, as a mail would; the page (its title in the header) asks for it
      // and the new password.
      try await app.waitFor(role: "label", name: "Verification code")
      try await app.checkScreen("reset-code-page")
      var code: String?
      _ = await eventually(timeout: .seconds(30)) {
        code =
          playground.process.standardOutput.components(separatedBy: "password reset code is ").last?.prefix(6)
          .description
        return playground.process.standardOutput.contains("password reset code is ")
      }
      try await app.type(try #require(code), window: window)
      try await app.key("Tab", window: window)
      try await app.type("Reset-pass-1", window: window)
      try await app.key("Tab", window: window)
      try await app.type("Reset-pass-1", window: window)
      try await app.key("Return", window: window)
      // The reset signs the browser session in; the sign-in policy that follows needs no form. A toast confirms it.
      try await app.waitFor(role: "label", name: "No Tasks")
      try await app.waitFor(role: "label", name: "Ann Example")
      try await app.waitFor(role: "label", name: "Password changed")
      try await app.checkScreen("password-changed")
      await app.stop()
    }

    @Test(
      "External ID and a plain OpenID Connect issuer: type into the provider's page, see the list; no Edit Profile; four keys too",
      arguments: ["external-id", "oidc"], [false, true])
    func otherProviders(flavor: String, fourKeys: Bool) async throws {
      let playground = try await PlaygroundForUI(flavor: flavor, logLevel: "info")
      let settings =
        fourKeys
        ? Data(
          fourKeySettings(
            clientID: PlaygroundForUI.clientID, authority: try #require(playground.authority),
            keychain: playground.keychainGroup, taskAPI: "http://127.0.0.1:\(playground.port)"
          ).utf8) : playground.settings
      let app = try AppDriver(settings: settings)
      let window: String
      do {
        window = try await app.signInByTyping()
      } catch {
        Issue.record("the provider's requests: \(playground.processOutput)")
        throw error
      }
      try await app.waitFor(role: "label", name: "No Tasks")
      try await app.waitFor(role: "label", name: "Ann Example")
      try await app.addTask("from \(flavor)", window: window)
      try await app.waitFor(role: "check box", name: "from \(flavor)")
      try await app.checkScreen("signed-in-\(flavor)\(fourKeys ? "-four-keys" : "")")
      if fourKeys {
        let log = playground.processOutput.replacingOccurrences(of: "%3A", with: ":").replacingOccurrences(
          of: "%2F", with: "/")
        #expect(log.contains("redirect_uri=http://127.0.0.1/&"), "the sign-in used the default loopback redirect")
      }
      // Only B2C has an edit-profile flow: the menu has no such item here.
      try await app.key("F10", window: window)
      let menu = try await app.accessibleTree { $0.contains { $0.role == "menu item" && $0.name == "Sign Out" } }
      #expect(!menu.contains { $0.name.contains("Edit Profile") }, "\(menu.map(\.name))")
      try await app.key("Escape", window: window)
      await app.stop()
    }

    @Test("Cancel, on B2C's page or in the window, goes back to the welcome page quietly")
    func cancel() async throws {
      let playground = try await PlaygroundForUI()
      let app = try AppDriver(settings: playground.settings)
      let window = try await app.openSignInPage()
      try await app.press(button: "Cancel")
      try await app.waitFor(role: "label", name: "Sign in to see your tasks")
      try await app.openSignInPage()
      // B2C's own Cancel link: email, password, forgot link, Sign in, Sign up link, Cancel link.
      for _ in 0..<5 { try await app.key("Tab", window: window) }
      try await app.key("Return", window: window)
      try await app.waitFor(role: "label", name: "Sign in to see your tasks")
      await app.stop()
    }

    @Test("a sign-in view that cannot be loaded (a damaged installation) is said with the loader's reason")
    func brokenWebViewPlugin() async throws {
      let playground = try await PlaygroundForUI()
      // The installation as it is, but with its WebKit plugin damaged: the program and its data beside a broken
      // libTasksWebView.so.
      let installed = try #require(TestDesktop.installPrefix)
      let prefix = try TestDesktop.temporaryFolder("ui-damaged")
      let plugins = prefix.appending(path: "lib/b2c-tasks")
      try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
      try FileManager.default.createDirectory(at: prefix.appending(path: "bin"), withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        at: installed.appending(path: "bin/b2c-tasks"), to: prefix.appending(path: "bin/b2c-tasks"))
      try FileManager.default.createSymbolicLink(
        at: prefix.appending(path: "share"), withDestinationURL: installed.appending(path: "share"))
      try Data("not a library".utf8).write(to: plugins.appending(path: "libTasksWebView.so"))
      let app = try AppDriver(settings: playground.settings, prefix: prefix)
      _ = try await app.waitForWindow()
      try await app.waitFor(role: "push button", name: "Sign In")
      try await app.press(button: "Sign In")
      let nodes = try await app.accessibleTree {
        $0.contains { $0.name.hasPrefix("The sign-in page could not be shown") && $0.isShowing }
      }
      let message = nodes.first { $0.name.hasPrefix("The sign-in page could not be shown") }?.name ?? ""
      #expect(message.contains("libTasksWebView.so"), "the loader's reason is said: \(message)")
      #expect(!message.contains("answered something unexpected"), "not called a bad answer: \(message)")
      try await app.waitFor(role: "push button", name: "Try Again")
      try await app.checkScreen("sign-in-view-not-loaded")
      // The way out the message names: the browser, from the failure page.
      try await app.press(button: "Open in Browser Instead")
      try await app.waitUntilGone(role: "label", name: message)
      await app.stop()
      try? FileManager.default.removeItem(at: prefix)
    }

    @Test("a browser that cannot be started is said as such, not as a network failure")
    func browserNotStarted() async throws {
      let playground = try await PlaygroundForUI()
      let home = try TestDesktop.temporaryFolder("ui-no-browser")
      try installDefaultBrowser(home: home, name: "Missing Browser", command: "/nonexistent/b2c-missing-browser")
      let app = try AppDriver(settings: playground.settings, home: home)
      _ = try await app.openSignInPage()
      try await app.press(button: "Open in Browser Instead")
      let nodes = try await app.accessibleTree {
        $0.contains { $0.name.hasPrefix("No web browser could be started for the sign-in") && $0.isShowing }
      }
      let message = nodes.first { $0.name.hasPrefix("No web browser could be started") }?.name ?? ""
      // The user's only browser is missing (GIO then skips its entry, and says why no handler was found).
      #expect(
        message.range(of: #"the sign-in \([^)]+\)\."#, options: .regularExpression) != nil,
        "the desktop's reason is said: \(message)")
      #expect(!nodes.contains { $0.name.contains("cannot be reached") }, "not called a network failure")
      try await app.checkScreen("browser-not-started")
      await app.stop()
    }
  }
}

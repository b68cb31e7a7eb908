// UI tests of the first window: it opens, shows the welcome page, answers the Sign In button and quits on Ctrl+Q;
// a broken settings file is explained in the window.

import Foundation
import TasksTestSupport
import Testing

/// Every suite that starts b2c-tasks. They run one at a time: two instances of the app in one D-Bus session hand
/// over to each other (single instance), so parallel suites would drive each other's windows.
@Suite("App UI", .serialized, .enabled(if: TestDesktop.canRunApp || TestDesktop.isRequired))
enum AppUI {}

extension AppUI {
  @Suite("Welcome window")
  struct WelcomeWindowTests {
    @Test("the app opens with the welcome page, without WebKit; Sign In loads it, and a dead server gives a retry page")
    func welcome() async throws {
      let app = try AppDriver()
      let window = try await app.waitForWindow()
      try await app.waitFor(role: "label", name: "Sign in to see your tasks")
      try await app.waitFor(role: "push button", name: "Sign In")
      #expect(!(try app.mapsWebKit()), "a start without a session must not load WebKit")
      try await app.checkScreen("welcome")

      // The built-in settings point at 127.0.0.1:5995, where nothing listens in this test.
      try await app.press(button: "Sign In")
      try await app.waitFor(role: "label", name: "Sign-In Failed")
      try await app.waitFor(role: "push button", name: "Try Again")
      try await app.waitFor(role: "push button", name: "Copy Details")
      #expect(try app.mapsWebKit(), "the sign-in view loaded WebKit")
      try await app.checkScreen("sign-in-failed")

      #expect(try await app.quitByKeyboard(window: window) == 0, "the app should quit on Ctrl+Q")
      await app.stop()
    }

    @Test("a second launch hands over to the running app and opens no second window")
    func singleInstance() async throws {
      let app = try AppDriver()
      let window = try await app.waitForWindow()
      let second = try app.launchAgain()
      #expect(await second.waitForExit(timeout: .seconds(15)) == 0, "the second launch exits once it handed over")
      #expect(app.process.isRunning)
      #expect(try await app.visibleWindows() == [window])
      await app.stop()
    }

    @Test("the window comes back at the size it was left at (GSettings)")
    func windowSizePersists() async throws {
      let first = try AppDriver()
      let window = try await first.waitForWindow()
      let initial = try await first.windowSize(window)
      #expect(initial.width == 720 && initial.height == 560, "the schema's default size")
      try await first.resize(window, width: 900, height: 640)
      #expect(await eventually { (try? await first.windowSize(window))?.width == 900 })
      // The X server has the new size at once; the app lays the window out at its next frame. Quit after that,
      // as a person would.
      // (The header's Close button, at its right end, moves past the old width.)
      #expect(await eventually { (try? await first.extents(role: "push button", name: "Close"))?.x ?? 0 > 720 })
      #expect(try await first.quitByKeyboard(window: window) == 0)
      await first.stop(keepHome: true)

      let second = try AppDriver(home: first.home)
      let reopened = try await second.waitForWindow()
      let size = try await second.windowSize(reopened)
      #expect(size.width == 900 && size.height == 640, "reopened at \(size)")
      await second.stop()
    }

    @Test("a broken settings file is explained in the window, naming the file and the key")
    func settingsError() async throws {
      let broken = SettingsFile([
        "clientID": "90c0fe63-bcf2-44d5-8fb7-b8bbc0b29dc6",
        "authURL": "http://login.example.com/t.onmicrosoft.com/oauth2/v2.0/authorize?p=B2C_1_x",
        "tokenURL": "https://login.example.com/t.onmicrosoft.com/oauth2/v2.0/token?p=B2C_1_x",
        "bhh": "urn:ietf:wg:oauth:2.0:oob", "taskAPI": "https://tasks.example.com",
      ])
      let app = try AppDriver(settings: broken.data)
      _ = try await app.waitForWindow()
      try await app.waitFor(role: "label", name: "The Settings Cannot Be Used")
      let nodes = try await app.accessibleTree { nodes in
        nodes.contains {
          $0.isShowing
            && $0.name.hasSuffix(
              "settings.plist: authURL: not an https URL (http is allowed only for 127.0.0.1 and localhost)")
        }
      }
      #expect(!nodes.contains { $0.name == "Sign In" && $0.isShowing }, "no Sign In button with unusable settings")
      try await app.checkScreen("settings-error")
      #expect(app.process.standardError.contains("authURL: not an https URL"))
      await app.stop()
    }

    @Test("--settings names the file to use, and a missing one is reported as written, not replaced")
    func settingsOption() async throws {
      let app = try AppDriver(arguments: ["--settings", "/nonexistent/custom.plist"])
      _ = try await app.waitForWindow()
      try await app.accessibleTree { nodes in
        nodes.contains { $0.isShowing && $0.name == "/nonexistent/custom.plist: the file does not exist" }
      }
      await app.stop()
      // L7: the path is shown as written, not read as markup (an `&` blanked the page; a tag was a link).
      let odd = "/nonexistent/Tom & Jerry <a href=\"https://example.com\">tasks</a>.plist"
      let again = try AppDriver(arguments: ["--settings", odd])
      _ = try await again.waitForWindow()
      try await again.accessibleTree { nodes in
        nodes.contains { $0.isShowing && $0.name == "\(odd): the file does not exist" }
      }
      _ = try await again.screenshot("settings-path-as-written")
      await again.stop()
    }
  }
}

@Suite("Test desktop")
struct TestDesktopTests {
  @Test("a run that promises a desktop has one", .enabled(if: TestDesktop.isRequired))
  func desktopPresent() {
    #expect(TestDesktop.hasDisplay)
    #expect(TestDesktop.hasSessionBus)
    #expect(TestDesktop.installPrefix != nil)
  }
}

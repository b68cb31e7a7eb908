// The account's flows from the menu, as a person uses them: Switch Account keeps the current session until a new
// sign-in succeeds; leaving Edit Profile by the page's own Cancel link puts the user's name back under the title.

import Foundation
import TasksTestSupport
import Testing

extension AppUI {
  @Suite("Accounts")
  struct AccountUITests {
    @Test("Switch Account, then Cancel: still signed in as before, list and name kept; then switching to Bob works")
    func switchAccountCancel() async throws {
      let playground = try await PlaygroundForUI()
      let app = try AppDriver(settings: playground.settings)
      let window = try await app.signInByTyping()
      try await app.waitFor(role: "label", name: "Ann Example")
      // The menu says who is signed in.
      try await app.key("F10", window: window)
      try await app.waitFor(role: "label", name: "ann@example.com")
      try await app.checkScreen("menu-account")
      try await app.key("Escape", window: window)
      try await app.waitUntilGone(role: "label", name: "ann@example.com")
      try await app.addTask("Ann's task", window: window)
      try await app.waitFor(role: "check box", name: "Ann's task")

      try await app.chooseFromMenu("Switch Account…", window: window)
      try await app.waitFor(role: "label", name: "Sign in")
      try await app.waitForPaintedPage()
      try await app.press(button: "Cancel")
      try await app.waitFor(role: "check box", name: "Ann's task")
      try await app.waitFor(role: "label", name: "Ann Example")
      try await app.checkScreen("switch-account-cancelled")
      // The keyring still holds Ann's session: a new start needs no password.
      #expect(try await app.quitByKeyboard(window: window) == 0)
      await app.stop(keepHome: true)
      let again = try AppDriver(settings: playground.settings, home: app.home)
      let window2 = try await again.waitForWindow()
      try await again.waitFor(role: "check box", name: "Ann's task")

      // Switching for real: Bob's list replaces Ann's.
      try await again.chooseFromMenu("Switch Account…", window: window2)
      try await again.waitFor(role: "label", name: "Sign in")
      try await again.waitForPaintedPage()
      try await again.typeSignIn(window: window2, "bob@example.com", "Tasks-Demo-2")
      try await again.waitFor(role: "label", name: "Bob Example")
      try await again.waitFor(role: "label", name: "No Tasks")
      #expect(try await again.taskNames().isEmpty)
      try await again.key("F10", window: window2)
      try await again.waitFor(role: "label", name: "bob@example.com")
      #expect(!(try await again.accessibleTree { _ in true }.contains { $0.name == "ann@example.com" }))
      try await again.key("Escape", window: window2)
      await again.stop()
    }

    @Test("Edit Profile left by the page's own Cancel link: the list is subtitled with the user's name again")
    func editProfileCancelLink() async throws {
      let playground = try await PlaygroundForUI()
      let app = try AppDriver(settings: playground.settings)
      // Keep me signed in: B2C then shows the profile page without asking for the password.
      let window = try await app.tickKeepMeSignedIn()
      _ = try await app.signInByTyping()
      try await app.waitFor(role: "label", name: "Ann Example")

      try await app.chooseFromMenu("Edit Profile", window: window)
      try await app.waitFor(role: "label", name: "Edit your profile")
      try await app.waitForPaintedPage()
      // The page's own links: from the name field, Save, then Cancel.
      try await app.key("Tab", window: window)
      try await app.key("Tab", window: window)
      try await app.key("Return", window: window)
      try await app.waitFor(role: "label", name: "No Tasks")
      try await app.waitFor(role: "label", name: "Ann Example")
      try await app.waitUntilGone(role: "label", name: "Edit your profile")
      try await app.key("F5", window: window)
      try await app.waitFor(role: "label", name: "Ann Example")
      try await app.checkScreen("edit-profile-cancel-link")
      // Saved this time: a new name, confirmed, and shown under the title.
      try await app.chooseFromMenu("Edit Profile", window: window)
      try await app.waitFor(role: "label", name: "Edit your profile")
      try await app.waitForPaintedPage()
      try await app.key("ctrl+a", window: nil)
      try await app.type("Ann Renamed", window: nil)
      try await app.key("Return", window: nil)
      try await app.waitFor(role: "label", name: "Profile saved")
      try await app.waitFor(role: "label", name: "Ann Renamed")
      try await app.checkScreen("edit-profile-saved")
      await app.stop()
    }

    @Test("Edit Profile left with Escape, or with the page's Cancel link: the focus is in the list again (no trap)")
    func noKeyboardTrapAfterEditProfile() async throws {
      let playground = try await PlaygroundForUI()
      let app = try AppDriver(settings: playground.settings)
      let window = try await app.tickKeepMeSignedIn()
      _ = try await app.signInByTyping()
      try await app.waitFor(role: "label", name: "Ann Example")
      try await app.addTask("reach me by keyboard", window: window)
      try await app.waitFor(role: "check box", name: "reach me by keyboard")

      // The list page's content: the "New task…" entry and the list (its rows).
      let listRoles: Set<String> = ["check box", "list", "list item"]
      let inList: (AccessibleNode) -> Bool = { node in
        let focused: Bool = node.isShowing && node.states.contains("focused")
        let quickEntry: Bool = node.role == "text" && node.name == "New task"
        return focused && (listRoles.contains(node.role) || quickEntry)
      }
      // Escape in the page cancels it; the focus is in the list again (before: on nothing, a trap).
      try await app.chooseFromMenu("Edit Profile", window: window)
      try await app.waitFor(role: "label", name: "Edit your profile")
      try await app.waitForPaintedPage()
      try await app.key("Escape", window: nil)
      try await app.accessibleTree { (nodes: [AccessibleNode]) -> Bool in nodes.contains(where: inList) }
      // The page's own Cancel link (from the name field: Save, then Cancel) too; and Tab moves on from there.
      try await app.chooseFromMenu("Edit Profile", window: window)
      try await app.waitFor(role: "label", name: "Edit your profile")
      try await app.waitForPaintedPage()
      try await app.key("Tab", window: nil)
      try await app.key("Tab", window: nil)
      try await app.key("Return", window: nil)
      try await app.accessibleTree { (nodes: [AccessibleNode]) -> Bool in nodes.contains(where: inList) }
      // Tab moves on (entry, list, then out of the page): never stuck, never nowhere.
      var leftThePage = false
      for _ in 0..<3 where !leftThePage {
        try await app.key("Tab", window: nil)
        let nodes: [AccessibleNode] = try await app.accessibleTree { (nodes: [AccessibleNode]) -> Bool in
          nodes.contains { $0.isShowing && $0.states.contains("focused") }
        }
        leftThePage = !nodes.contains(where: inList)
      }
      #expect(leftThePage, "Tab leaves the list page")
      let names: [String] = try await app.taskNames()
      #expect(names == ["reach me by keyboard"], "nothing was changed on the way")
      await app.stop()
    }

    @Test(
      "header buttons that can do nothing are hidden; Escape cancels the sign-in page; the empty list offers Add Task")
    func pagesAndHeader() async throws {
      let playground = try await PlaygroundForUI()
      let app = try AppDriver(settings: playground.settings)
      _ = try await app.waitForWindow()
      try await app.waitFor(role: "push button", name: "Sign In")
      var tree = try await app.accessibleTree { _ in true }
      #expect(
        !tree.contains { $0.isShowing && ["Add Task", "Refresh"].contains($0.name) }, "hidden on the welcome page")
      // Escape, with B2C's page focused, goes back.
      try await app.openSignInPage()
      try await app.key("Escape", window: nil)
      try await app.waitFor(role: "label", name: "Sign in to see your tasks")
      _ = try await app.signInByTyping()
      try await app.waitFor(role: "label", name: "No Tasks")
      tree = try await app.accessibleTree { _ in true }
      #expect(tree.contains { $0.isShowing && $0.role == "push button" && $0.name == "Refresh" })
      try await app.checkScreen("empty-list")
      // An Add Task button (the header's or the empty page's) opens the add-task window.
      let buttons = tree.filter { $0.isShowing && $0.role == "push button" && $0.name == "Add Task" }
      #expect(buttons.count == 2, "the header's and the empty page's: \(buttons)")
      try await app.press(button: "Add Task")
      _ = try await app.waitForWindow(titled: "Add Task")
      try await app.setText("from the empty page", name: "What needs doing?")
      try await app.press(button: "Add")
      try await app.waitFor(role: "check box", name: "from the empty page")
      await app.stop()
    }

    @Test(
      "signed out while no window runs, by the CLI or by another app deleting the session: the next Sign In asks for the password",
      arguments: ["b2c-tasks-cli sign-out", "the session deleted from the keyring"])
    func signedOutWhileClosed(how: String) async throws {
      let playground = try await PlaygroundForUI()
      let app = try AppDriver(settings: playground.settings)
      let window = try await app.tickKeepMeSignedIn()
      _ = try await app.signInByTyping()
      try await app.waitFor(role: "label", name: "No Tasks")
      let cookies = [
        app.home.appending(path: "data/io.github.b2ctasks.B2CTasks/web-session"),
        app.home.appending(path: "cache/io.github.b2ctasks.B2CTasks/web-session"),
      ]
      func kept() -> Bool {
        cookies.contains { !((try? FileManager.default.contentsOfDirectory(atPath: $0.path)) ?? []).isEmpty }
      }
      try #require(await eventually(timeout: .seconds(30)) { kept() }, "Keep me signed in kept the provider's cookies")
      #expect(try await app.quitByKeyboard(window: window) == 0)
      if how.hasPrefix("b2c-tasks-cli") {
        let signOut = try await ChildProcess.run(
          try #require(TestDesktop.installPrefix).appending(path: "bin/b2c-tasks-cli"), ["sign-out", "--no-browser"],
          environment: [
            "XDG_CONFIG_HOME": app.home.appending(path: "config").path,
            "XDG_DATA_HOME": app.home.appending(path: "data").path,
            "XDG_CACHE_HOME": app.home.appending(path: "cache").path,
          ])
        #expect(signOut.status == 0, "\(signOut.error)")
        #expect(!kept(), "the CLI's sign-out removed the app's web session")
      } else {
        let cleared = try await ChildProcess.run(
          URL(filePath: "/usr/bin/secret-tool"), ["clear", "keychain-group", playground.keychainGroup])
        #expect(cleared.status == 0, "\(cleared.error)")
      }
      await app.stop(keepHome: true)
      let again = try AppDriver(settings: playground.settings, home: app.home)
      try await again.waitFor(role: "push button", name: "Sign In")
      #expect(
        await eventually(timeout: .seconds(30)) { !kept() }, "a start that finds no session forgets the web session")
      _ = try await again.openSignInPage()
      try await again.waitFor(role: "label", name: "Sign in")
      try await again.waitUntilGone(role: "label", name: "Ann Example")
      await again.stop()
    }
  }
}

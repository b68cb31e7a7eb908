// Preferences' "Other Devices": Ann makes an app password for her phone in the window, it is shown once with the
// address and user name, a CalDAV request signs in with it, and revoking it in the window refuses the next request.

import Foundation
import TasksTestSupport
import Testing

extension AppUI {
  @Suite("Preferences: app passwords for CalDAV apps on other devices")
  struct AppPasswordsUITests {
    /// A PROPFIND of `/dav/` with Basic `user` and `password` (through curl, the password in a header file): its
    /// status.
    static func davStatus(port: Int, user: String, password: String) async throws -> Int {
      let folder = try TestDesktop.temporaryFolder("dav-ui")
      defer { try? FileManager.default.removeItem(at: folder) }
      let header = folder.appending(path: "header")
      try ("Authorization: Basic " + Data("\(user):\(password)".utf8).base64EncodedString() + "\nDepth: 0\n")
        .write(to: header, atomically: true, encoding: .utf8)
      let run = try await ChildProcess.run(
        URL(filePath: "/usr/bin/curl"),
        [
          "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "PROPFIND", "-H", "@" + header.path,
          "http://127.0.0.1:\(port)/dav/",
        ])
      return Int(run.output) ?? 0
    }

    @Test(
      "Ann makes a password for Phone in Preferences: shown once with the address and user name, it signs in to CalDAV; revoked in the window, it is refused"
    )
    func makeUseRevoke() async throws {
      let playground = try await PlaygroundForUI()
      let app = try AppDriver(settings: playground.settings)
      let window = try await app.signInByTyping()
      try await app.waitFor(role: "list item", name: "Tasks, 0 open tasks")
      try await app.key("ctrl+comma", window: window)
      // Only the page on screen is presented to a screen reader: libadwaita 1.2 presented all three (on Sign-In, the
      // app passwords and the reminders' switch were read out), and each page's tab twice (the narrow window's bar).
      let signIn = try await app.accessibleTree {
        $0.contains { $0.role == "label" && $0.name == "No app has asked yet" }
          && $0.contains { $0.role == "page tab" && $0.name == "Reminders" }
      }
      #expect(
        !signIn.contains { $0.name == "No app passwords yet" || $0.name == "Remind Me with the Window Closed" },
        "\(signIn.filter { !$0.name.isEmpty }.map { "\($0.role) \($0.name)" })")
      #expect(signIn.filter { $0.role == "page tab" && $0.name == "Other Devices" }.count == 1)
      try await app.choosePage("Other Devices")
      try await app.waitFor(role: "label", name: "No app passwords yet")
      try await app.accessibleTree {
        $0.contains { $0.name == "No app passwords yet" && $0.isShowing }
          && !$0.contains { $0.name == "No app has asked yet" }
      }
      // (An entry row's text reports no focus to AT-SPI in GTK 4.8: the password appearing is the typing's effect.)
      try await app.click(role: "text", name: "Device Name, as Phone")
      try await app.type("Phone", window: nil)
      try await app.key("Return", window: nil)
      // The password: 32 letters and digits in groups of four, over the words that it is shown once.
      let isPassword = { (name: String) in name.count == 39 && name.split(separator: "-").count == 8 }
      let tree = try await app.accessibleTree { $0.contains { $0.role == "label" && isPassword($0.name) } }
      let password = try #require(tree.first { $0.role == "label" && isPassword($0.name) }?.name)
      try await app.waitFor(
        role: "label", name: "The password for Phone: type it in its app now. It is not shown again.")
      let address = try #require(tree.first { $0.role == "label" && $0.name.hasPrefix("Address: ") }?.name)
      let user = try #require(address.components(separatedBy: "User name: ").last)
      #expect(address.hasPrefix("Address: http://127.0.0.1:\(playground.port)"), "\(address)")
      try await app.waitFor(role: "label", name: "Phone")
      try await app.checkScreen("preferences-app-passwords")
      // A CalDAV app signs in with them.
      #expect(try await Self.davStatus(port: playground.port, user: user, password: password) == 207)
      // Revoked in the window: the list empties, and the next request is refused.
      try await app.press(button: "Revoke Phone")
      try await app.waitFor(role: "label", name: "No app passwords yet")
      #expect(try await Self.davStatus(port: playground.port, user: user, password: password) == 401)
      await app.stop()
    }
  }
}

// The standing hostile suite: the app as an attacker on this desktop meets it. A Flatpak-style sandboxed app (its
// own /.flatpak-info in bwrap, on a bus filtered by xdg-dbus-proxy to the broker alone, as the README tells such apps
// to ask for) and another local user watching every command line. Each new feature adds its cases here.

import Foundation
import TasksTestSupport
import Testing

/// Another local user (nobody) running `watch_command_lines.py`, its code on its own command line (it cannot read
/// the tests' files), from its start to `finish()`.
final class CommandLineWatcher {
  private let process: ChildProcess

  init() async throws {
    let source = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "watch_command_lines.py")
    let asNobody = [
      "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c",
      try String(contentsOf: source, encoding: .utf8),
    ]
    process =
      getuid() == 0
      ? try ChildProcess(URL(filePath: "/usr/bin/setpriv"), asNobody)
      : try ChildProcess(URL(filePath: "/usr/bin/sudo"), ["-n", "/usr/bin/setpriv"] + asNobody)
    let watching = await eventually(timeout: .seconds(60)) { [process] in
      process.standardOutput.contains(#""watching": true"#) || !process.isRunning
    }
    try #require(watching && process.isRunning, "the watcher runs as nobody: \(process.standardError)")
  }

  /// Stops watching; what it saw, opened and read.
  func finish() async throws -> [String: Any] {
    process.terminate()
    _ = await process.waitForExit(timeout: .seconds(30))
    let line = process.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
    let report = try? JSONSerialization.jsonObject(with: Data(line.utf8))
    return try #require(report as? [String: Any], "\(process.standardOutput) \(process.standardError)")
  }

  deinit { process.kill() }
}

extension AppUI {
  @Suite("Hostile apps and users")
  struct HostileUITests {
    @Test("a sandboxed app allowed to talk to the broker alone reaches the broker's object and nothing else of the app")
    func sandboxReachesOnlyTheBroker() async throws {
      let playground = try await PlaygroundForUI()
      // Started for the broker, as D-Bus starts it for a call: the app's own actions exist all the same.
      let app = try AppDriver(arguments: ["--gapplication-service"], settings: playground.settings)
      let sandbox = FlatpakSandbox(appID: "org.example.Notes")
      let bus = try await FilteredBus(for: sandbox, talkingTo: ["io.github.b2ctasks.Broker"])
      var notes = try BrokerClient(named: "notes_app.py", in: app.home)
      notes.sandboxAppID = sandbox.appID
      notes.bus = bus.address
      var answer: [String: Any] = [:]
      let serving = await eventually(timeout: .seconds(60)) {
        guard let (reached, status) = try? await notes.run(["reachable"]), status == 0 else { return false }
        answer = reached
        return (reached["objects"] as? [String: Any])?["/io/github/b2ctasks/Broker"] != nil
      }
      try #require(serving, "the broker answers through the filtered bus: \(answer)")
      let objects = try #require(answer["objects"] as? [String: Any])
      let interfaces = Set(objects.values.compactMap { $0 as? [String] }.joined())
      let standard: Set = [
        "org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Peer", "org.freedesktop.DBus.Properties",
      ]
      #expect(interfaces.subtracting(standard) == ["io.github.b2ctasks.Broker1"], "only the broker: \(objects)")
      let actions = try #require(answer["actions"] as? [String: Any])
      #expect(actions["listed"] == nil, "the app's actions are not reachable: \(actions)")
      #expect(
        ["org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownMethod"].contains(
          actions["error"] as? String), "\(actions)")
      await app.stop()
    }

    @Test(
      "another user watching every command line learns no sign-in address from the app or the CLI, though the browser waits 1.5 s; both say whom they signed in"
    )
    func otherUserLearnsNoSignInAddress() async throws {
      let playground = try await PlaygroundForUI()
      let home = try TestDesktop.temporaryFolder("ui-hostile-user")
      // A browser that takes 1.5 s to open what it is given: the time another user had to open it first.
      let slow = home.appending(path: "slow-browser.sh")
      try Data("#!/bin/sh\nsleep 1.5\nexec /bin/sh \"\(TestDesktop.scriptedBrowser.path)\" \"$1\"\n".utf8).write(
        to: slow)
      chmod(slow.path, 0o755)
      try installDefaultBrowser(home: home, name: "Slow Browser", command: "/bin/sh \(slow.path)")
      let watcher = try await CommandLineWatcher()
      let app = try AppDriver(
        settings: playground.settings, home: home,
        environment: ["B2C_TEST_EMAIL": "bob@example.com", "B2C_TEST_PASSWORD": "Tasks-Demo-2"])
      try await app.openSignInPage()
      try await app.press(button: "Open in Browser Instead")
      try await app.waitFor(role: "label", name: "Signed in as Bob Example <bob@example.com>")
      try await app.waitFor(role: "label", name: "No Tasks")
      _ = try await app.screenshot("browser-sign-in-says-whom")

      // The CLI, after a sign-out, through the same browser.
      let cli = try #require(TestDesktop.installPrefix).appending(path: "bin/b2c-tasks-cli")
      let environment: [String: String?] = [
        "XDG_CONFIG_HOME": home.appending(path: "config").path, "BROWSER": slow.path,
        "B2C_TEST_EMAIL": "ann@example.com", "B2C_TEST_PASSWORD": "Tasks-Demo-1",
      ]
      #expect(try await ChildProcess.run(cli, ["sign-out", "--no-browser"], environment: environment).status == 0)
      let signingIn = try ChildProcess(cli, ["sign-in"], environment: environment)
      let status = await signingIn.waitForExit(timeout: .seconds(120))
      #expect(status == 0, "\(signingIn.standardOutput) \(signingIn.standardError)")
      #expect(
        signingIn.standardOutput.contains("Signed in as Ann Example <ann@example.com>"), "\(signingIn.standardOutput)")

      let report = try await watcher.finish()
      // What the app, the CLI and this test's browser (GIO may start it as no child of the app) and their children
      // showed: other tests run beside this one.
      let parents = report["parents"] as? [String: String] ?? [:]
      let everything = report["seen"] as? [[String: String]] ?? []
      let roots = Set(["\(app.process.pid)", "\(signingIn.pid)"]).union(
        everything.filter { $0["line"]?.contains(slow.path) == true }.compactMap { $0["pid"] })
      func ours(_ pid: String) -> Bool {
        var current: String? = pid
        for _ in 0..<64 {
          guard let now = current, now != "0" else { return false }
          if roots.contains(now) { return true }
          current = parents[now]
        }
        return false
      }
      let seen = everything.filter { ours($0["pid"] ?? "") }.compactMap { $0["line"] }
      // The watcher did see both browsers' command lines, and could not read the pages they name.
      #expect(seen.filter { $0.contains("/b2c-tasks/sign-in-") }.count >= 2, "the browsers were watched: \(seen)")
      #expect((report["unreadable"] as? [Any])?.count ?? 0 >= 2, "\(report)")
      for line in seen {
        #expect(!line.contains("b2c-tasks-sign-in") && !line.contains("/authorize"), "on a command line: \(line)")
      }
      #expect((report["read"] as? [Any])?.isEmpty == true, "another user read: \(report["read"] ?? "")")
      await app.stop()
    }
  }
}

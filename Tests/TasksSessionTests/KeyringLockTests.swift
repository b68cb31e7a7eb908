// A keyring locked while B2C Tasks is signed in, with the desktop's real unlock prompt (gcr-prompter) under Xvfb:
// cancelled, it is reported as locked (not as a sign-out); answered, everything goes on.

import Foundation
import TasksTestSupport
import Testing

/// A D-Bus session of the test's own with a gnome-keyring in it, so that locking its login keyring blocks no other
/// test (they share the run's keyring, and each of them would get an unlock prompt); and an X display of its own for
/// the unlock prompt, so that the UI tests running meanwhile and this test never type into each other's windows
/// (seen here: the password went to the app's sign-in page, and the app's keys to the prompt).
final class PrivateKeyring: Sendable {
  static let password = "private-keyring-password"
  let display: ChildProcess
  let displayName: String
  let bus: ChildProcess
  let address: String
  let home: URL

  init() async throws {
    home = try TestDesktop.temporaryFolder("private-keyring")
    // Xvfb picks a free display number and prints it (-displayfd 1).
    display = try ChildProcess(
      URL(filePath: "/usr/bin/Xvfb"), ["-displayfd", "1", "-screen", "0", "1024x768x24", "-nolisten", "tcp"])
    let shown = await eventually(timeout: .seconds(20)) { [display] in display.standardOutput.contains("\n") }
    try #require(shown, "Xvfb did not start: \(display.standardError)")
    displayName = ":" + display.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    let runtime = home.appending(path: "runtime")
    try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime.path)
    // What the bus starts (the keyring's unlock prompt) inherits its environment: its own runtime folder, and no
    // accessibility bus. With the run's XDG_RUNTIME_DIR, the prompt's a11y bus launcher used the test session's
    // socket path (at-spi/bus_DISPLAY) and removed that socket when it left, and the UI tests' app, started
    // meanwhile, could not reach its accessibility bus (seen here).
    bus = try ChildProcess(
      URL(filePath: "/usr/bin/dbus-daemon"), ["--session", "--nofork", "--print-address"],
      environment: Self.desktop(home, display: displayName))
    let started = await eventually(timeout: .seconds(60)) { [bus] in bus.standardOutput.contains("\n") }
    try #require(started, "dbus-daemon did not start: \(bus.standardError)")
    address = bus.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    // The daemon forks and stays on the bus (it leaves with it). It must not keep the descriptors Foundation gave
    // the shell: Foundation counts the shell as running until they close.
    let keyring = try await ChildProcess.run(
      URL(filePath: "/bin/bash"),
      [
        "-c",
        """
        for fd in /proc/$$/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done 2>/dev/null
        printf '%s' "$1" | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1
        """,
        "bash", Self.password,
      ], environment: environment, timeout: .seconds(20))
    try #require(keyring.status == 0, "gnome-keyring-daemon: \(keyring.error)")
  }

  /// The folders and display of this private desktop, and no accessibility bus for its programs.
  static func desktop(_ home: URL, display: String) -> [String: String?] {
    [
      "XDG_DATA_HOME": home.appending(path: "data").path, "XDG_RUNTIME_DIR": home.appending(path: "runtime").path,
      "NO_AT_BRIDGE": "1", "GTK_A11Y": "none", "DISPLAY": display, "XAUTHORITY": nil,
    ]
  }

  /// The environment that puts a program on this bus, keyring and display.
  var environment: [String: String?] {
    Self.desktop(home, display: displayName).merging([
      "DBUS_SESSION_BUS_ADDRESS": address, "GNOME_KEYRING_CONTROL": nil,
    ]) { $1 }
  }

  /// Locks the login keyring, as the desktop's lock screen or Seahorse would.
  func lock() async throws {
    let result = try await ChildProcess.run(
      URL(filePath: "/usr/bin/gdbus"),
      [
        "call", "--session", "--dest", "org.freedesktop.secrets", "--object-path", "/org/freedesktop/secrets",
        "--method", "org.freedesktop.Secret.Service.Lock", "['/org/freedesktop/secrets/collection/login']",
      ], environment: environment)
    try #require(result.status == 0, "lock: \(result.error)")
  }

  /// Waits for the desktop's unlock prompt and answers it: the password and Return, or Escape (Cancel).
  func answerPrompt(unlocking: Bool) async throws {
    let search = try await ChildProcess.run(
      URL(filePath: "/usr/bin/xdotool"), ["search", "--sync", "--onlyvisible", "--class", "gcr-prompter"],
      environment: environment, timeout: .seconds(120))
    let window = try #require(search.output.split(separator: "\n").first.map(String.init), "no unlock prompt")
    try await xdotool(["windowfocus", "--sync", window])
    if unlocking {
      try await xdotool(["type", "--delay", "20", Self.password])
      try await xdotool(["key", "Return"])
    } else {
      try await xdotool(["key", "Escape"])
    }
  }

  /// Whether an unlock prompt is on screen now.
  func promptShown() async throws -> Bool {
    let search = try await ChildProcess.run(
      URL(filePath: "/usr/bin/xdotool"), ["search", "--onlyvisible", "--class", "gcr-prompter"],
      environment: environment, timeout: .seconds(20))
    return !search.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
  }

  /// Waits until no unlock prompt is on screen.
  func waitUntilNoPrompt() async throws {
    let gone = await eventually(timeout: .seconds(30)) {
      (try? await self.promptShown()) == false
    }
    try #require(gone, "the unlock prompt stayed on screen")
  }

  private func xdotool(_ arguments: [String]) async throws {
    let result = try await ChildProcess.run(
      URL(filePath: "/usr/bin/xdotool"), arguments, environment: environment, timeout: .seconds(20))
    try #require(result.status == 0, "xdotool \(arguments.first ?? ""): \(result.error)")
  }

  func stop() {
    bus.terminate()  // gnome-keyring-daemon leaves with its bus
    display.terminate()
    try? FileManager.default.removeItem(at: home)
  }
}

@Suite("Keyring locked while signed in", .serialized, .enabled(if: TestDesktop.canRunApp || TestDesktop.isRequired))
struct KeyringLockTests {
  /// Starts the reminder service (the built one) on `keyring`'s desktop with `cli`'s settings as its configuration;
  /// answers it and its environment.
  static func startReminderService(_ keyring: PrivateKeyring, _ cli: CLIRunner) throws -> (
    ChildProcess, [String: String?]
  ) {
    let config = keyring.home.appending(path: "config")
    let settings = config.appending(path: "io.github.b2ctasks.B2CTasks/settings.plist")
    try FileManager.default.createDirectory(at: settings.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: cli.settingsFile, to: settings)
    var environment = keyring.environment
    environment["XDG_CONFIG_HOME"] = config.path
    let service = try ChildProcess(
      TestDesktop.binaryFolder.appending(path: "b2c-tasks-reminders"), [], environment: environment)
    return (service, environment)
  }

  /// Ann signed in with the CLI on a private keyring (on the run's playground), for `body`.
  static func signedIn(_ body: (PrivateKeyring, CLIRunner) async throws -> Void) async throws {
    try await SessionHarness.with(keyring: true) { harness in
      let keyring = try await PrivateKeyring()
      defer { keyring.stop() }
      let cli = try CLIRunner(harness)
      let signIn = try await cli.run(["sign-in", "--timeout", "60"], environment: keyring.environment)
      try #require(signIn.status == 0, "\(signIn.output) \(signIn.error)")
      try await body(keyring, cli)
    }
  }

  @Test("locked: Cancel on the unlock prompt says the keyring is locked and signs no one out; the password goes on")
  func lockedThenUnlocked() async throws {
    try await Self.signedIn { keyring, cli in
      #expect(
        try await cli.run(["add", "kept", "behind", "the", "lock"], environment: keyring.environment).status == 0)

      try await keyring.lock()
      let refused = try cli.start(["list"], environment: keyring.environment)
      try await keyring.answerPrompt(unlocking: false)
      #expect(await refused.waitForExit(timeout: .seconds(30)) == 4, "exit status 4: the keyring")
      #expect(refused.standardError.contains("Your keyring is locked"), "\(refused.standardError)")
      #expect(!refused.standardError.contains("not signed in"), "a locked keyring is not a sign-out")
      // The cancelled prompt must be gone first, or the password could be typed into it as it closes.
      try await keyring.waitUntilNoPrompt()

      let unlocked = try cli.start(["list"], environment: keyring.environment)
      try await keyring.answerPrompt(unlocking: true)
      #expect(await unlocked.waitForExit(timeout: .seconds(30)) == 0, "\(unlocked.standardError)")
      #expect(unlocked.standardOutput.contains("kept behind the lock"), "the session was there all along")
    }
  }

  @Test(
    "S5: the reminder service with the keyring locked raises no unlock prompt, however often it is asked to read; unlocked by the user (in the terminal's prompt), it reads on and fires the reminder"
  )
  func reminderServiceNeverPrompts() async throws {
    try await Self.signedIn { keyring, cli in
      let format = DateFormatter()
      format.locale = Locale(identifier: "en_US_POSIX")
      format.dateFormat = "d MMMM yyyy"
      let yesterday = format.string(from: Date().addingTimeInterval(-86_400))
      let added = try await cli.run(
        ["add", "Call the plumber", "--due", yesterday, "--remind", "at the due time", "--json"],
        environment: keyring.environment)
      try #require(added.status == 0, "\(added.error)")
      let id = try #require(
        (try JSONSerialization.jsonObject(with: Data(added.output.utf8)) as? [String: Any])?["id"] as? String)
      try await keyring.lock()

      // The service on this desktop, with the terminal's settings as its configuration.
      let (service, environment) = try Self.startReminderService(keyring, cli)
      defer { service.kill() }
      func saidLocked() -> Int { service.standardError.components(separatedBy: "the keyring is locked").count - 1 }
      // Each read finds it locked and says so at once: a read that raised the prompt would wait on it instead.
      #expect(await eventually(timeout: .seconds(60)) { saidLocked() >= 1 }, "\(service.standardError)")
      #expect(try await !keyring.promptShown(), "the service raised the unlock prompt")
      for round in 1...2 {
        // The action is asked again until the service has heard it (a run killed at its bound sends nothing).
        let heard = await eventually(timeout: .seconds(120)) {
          if saidLocked() >= round + 1 { return true }
          _ = try? await ChildProcess.run(
            URL(filePath: "/usr/bin/gapplication"), ["action", "io.github.b2ctasks.B2CTasks.Reminders", "refresh"],
            environment: environment, timeout: .seconds(60))
          return saidLocked() >= round + 1
        }
        #expect(heard, "\(service.standardError)")
        #expect(try await !keyring.promptShown(), "the service raised the unlock prompt")
      }

      // The user unlocks it, in the prompt another program raises (the terminal's): the service reads on, and the
      // reminder fires (its ledger names the task).
      let unlocking = try cli.start(["list"], environment: keyring.environment)
      try await keyring.answerPrompt(unlocking: true)
      #expect(await unlocking.waitForExit(timeout: .seconds(30)) == 0, "\(unlocking.standardError)")
      let reminders = keyring.home.appending(path: "data/io.github.b2ctasks.B2CTasks/reminders")
      let fired = await eventually(timeout: .seconds(60)) {
        let files = (try? FileManager.default.contentsOfDirectory(at: reminders, includingPropertiesForKeys: nil)) ?? []
        return files.contains {
          $0.pathExtension == "fired" && ((try? String(contentsOf: $0, encoding: .utf8)) ?? "").contains(id)
        }
      }
      #expect(fired, "\(service.standardError)")
    }
  }

  @Test(
    "S4: a reminder service started while signed out (its settings there, the keyring unlocked and empty) writes nothing, through a refresh and its end"
  )
  func signedOutServiceWritesNothing() async throws {
    try await SessionHarness.with(keyring: true) { harness in
      let keyring = try await PrivateKeyring()
      defer { keyring.stop() }
      let cli = try CLIRunner(harness)
      let (service, environment) = try Self.startReminderService(keyring, cli)
      defer { service.kill() }
      func action(_ name: String) async throws -> Int32? {
        try await ChildProcess.run(
          URL(filePath: "/usr/bin/gapplication"), ["action", "io.github.b2ctasks.B2CTasks.Reminders", name],
          environment: environment, timeout: .seconds(20)
        ).status
      }
      // On the bus once an action reaches it; then a read asked for, and its end.
      #expect(
        await eventually(timeout: .seconds(60)) { (try? await action("refresh")) == 0 }, "\(service.standardError)")
      #expect(try await action("quit") == 0)
      #expect(await service.waitForExit(timeout: .seconds(30)) == 0, "\(service.standardError)")
      let data = keyring.home.appending(path: "data/io.github.b2ctasks.B2CTasks")
      #expect(AccountFolder.leftOver(dataHome: keyring.home.appending(path: "data")).isEmpty, "\(data.path)")
    }
  }
}

// Tests of reminders with no window: `b2c-tasks --background` (the reminder service) shows reminders set with the
// CLI as desktop notifications on the tests' own notification server, fires a missed one once, and its buttons
// finish or snooze the task at the service; what another client finished is withdrawn; with the task service out of
// reach it fires what it kept on disk, on time, and sends Mark as Done once the service is back.

import Foundation
import TasksTestSupport
import Testing

/// The tests' notification server (`notification_server.py`) on the session bus: what it was sent, and its buttons.
final class NotificationServer {
  let process: ChildProcess

  /// A server answering GetCapabilities with `capabilities` (`body-markup`: it reads bodies as markup, as GNOME
  /// Shell's does).
  init(capabilities: [String] = ["actions", "body", "persistence"]) async throws {
    let script = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "notification_server.py")
    process = try ChildProcess(Tools.python, [script.path, "--capabilities", capabilities.joined(separator: ",")])
    let ready = await eventually(timeout: .seconds(60)) { self.records.contains { $0["ready"] as? Bool == true } }
    try #require(ready, "the notification server did not start: \(process.standardError)")
  }

  deinit { process.terminate() }

  /// Every line it printed, as JSON objects.
  var records: [[String: Any]] {
    process.standardOutput.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
  }

  /// The notifications shown with `summary`, in order.
  func shown(_ summary: String) -> [[String: Any]] {
    records.filter { $0["call"] as? String == "Notify" && $0["summary"] as? String == summary }
  }

  /// Waits for the `count`th notification with `summary`.
  @discardableResult
  func waitForShown(
    _ summary: String, count: Int = 1, timeout: Duration = .seconds(120),
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> [String: Any] {
    let came = await eventually(timeout: timeout, every: .milliseconds(20)) { self.shown(summary).count >= count }
    try #require(came, "no notification “\(summary)”: \(records)", sourceLocation: sourceLocation)
    return shown(summary)[count - 1]
  }

  /// Whether notification `id` was closed by the program that showed it.
  func closed(_ id: Int) -> Bool {
    records.contains { $0["call"] as? String == "CloseNotification" && $0["id"] as? Int == id }
  }

  /// Clicks the button labelled `label` of `notification` (nil: the notification itself), as a person would.
  func press(_ label: String?, on notification: [String: Any]) async throws {
    let actions = try #require(notification["actions"] as? [String: String])
    let key = try #require(
      label.map { label in actions.first { $0.value == label }?.key } ?? actions.keys.first { $0 == "default" },
      "no button \(label ?? "default"): \(actions)")
    let id = try #require(notification["id"] as? Int)
    let call = try await ChildProcess.run(
      URL(filePath: "/usr/bin/gdbus"),
      [
        "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path",
        "/org/freedesktop/Notifications", "--method", "org.b2ctasks.TestNotifications.Press", String(id), key,
      ])
    try #require(call.status == 0, "\(call.error)")
  }
}

extension TerminalUser {
  /// The user of a window's home: the CLI shares its settings and, through the keyring, its sign-in.
  init(sharingWith app: AppDriver) {
    home = app.home
  }

  /// Starts `b2c-tasks --background` as the autostart entry does, with this user's folders.
  func startReminders() throws -> ChildProcess {
    let program = try #require(TestDesktop.installPrefix).appending(path: "bin/b2c-tasks")
    return try ChildProcess(program, ["--background"], environment: environment)
  }

  /// The user's task titled `title`, as the service has it (`list --json`).
  func task(_ title: String) async throws -> [String: Any]? {
    let output = try await run(["list", "--json"])
    let tasks = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]] ?? []
    return tasks.first { $0["title"] as? String == title }
  }

  /// Adds a task with `arguments` and answers the moment its first reminder is for.
  func add(_ arguments: [String]) async throws -> (id: String, remindAt: Date?) {
    let output = try await run(["add"] + arguments + ["--json"])
    let task = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    let reminder = (task["reminders"] as? [[String: Any]])?.first
    let at = (reminder?["at"] as? String).flatMap { try? Date($0, strategy: .iso8601) }
    return (try #require(task["id"] as? String), at)
  }
}

extension AppUI {
  @Suite("Reminders with the window closed", .serialized)
  struct ReminderUITests {
    /// The reminder service's name on the session bus: whether it is owned.
    static func serviceRuns() async throws -> Bool {
      let asked = try await ChildProcess.run(
        URL(filePath: "/usr/bin/gdbus"),
        [
          "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus", "--method",
          "org.freedesktop.DBus.NameHasOwner", "io.github.b2ctasks.B2CTasks.Reminders",
        ])
      return asked.output.contains("true")
    }

    /// Ends a reminder service another suite's window started (it outlives its window, as for a user): a second
    /// one would hand over to it.
    static func endRunningService() async throws {
      guard try await serviceRuns() else { return }
      _ = try await ChildProcess.run(
        URL(filePath: "/usr/bin/gapplication"), ["action", "io.github.b2ctasks.B2CTasks.Reminders", "quit"])
      #expect(await eventually { (try? await serviceRuns()) == false })
    }

    @Test(
      "b2c-tasks --background shows a reminder set with the CLI on time with no window, a missed one once; Mark as Done and Snooze reach the service, a snooze fires again at its end; one finished elsewhere is withdrawn; a sign-out withdraws and leaves nothing on disk; signed in again, what came due fires and what was never dismissed shows once more"
    )
    func remindersWithoutWindow() async throws {
      try await Self.endRunningService()
      let playground = try await PlaygroundForUI()
      let ann = try await TerminalUser(playground, email: "ann@example.com", password: "Tasks-Demo-1")
      let server = try await NotificationServer()
      let soon = try await ann.add(["Call the dentist", "--remind", "in 1 minute"])
      let remindAt = try #require(soon.remindAt)
      let plantsTask = try await ann.add(["Water the plants", "--due", Self.yesterday, "--remind", "1 hour before"])
      let rent = try await ann.add(["Pay the rent", "--due", Self.yesterday, "--remind", "at the due time"])
      let listed = try await ann.run(["reminders"])
      let order = ["Water the plants", "Pay the rent", "Call the dentist"].map { listed.range(of: $0)?.lowerBound }
      #expect(order.allSatisfy { $0 != nil } && order == order.sorted { $0! < $1! }, "\(listed)")
      let service = try ann.startReminders()
      defer { service.kill() }

      // Missed while nothing ran: shown at start, saying so, with the two buttons.
      let plants = try await server.waitForShown("Water the plants")
      let body = try #require(plants["body"] as? String)
      #expect(body.contains("Missed: ") && body.contains("Due Yesterday"), "\(body)")
      let labels = Set((plants["actions"] as? [String: String] ?? [:]).values)
      #expect(labels.isSuperset(of: ["Mark as Done", "Snooze"]), "\(labels)")
      #expect(
        (plants["hints"] as? [String: Any])?["desktop-entry"] as? String == "io.github.b2ctasks.B2CTasks.Reminders")
      let rentShown = try await server.waitForShown("Pay the rent")
      // It waits without a toolkit: no GTK in the process.
      let maps = try #require(readProcFile("/proc/\(service.pid)/maps"))
      #expect(!maps.contains("libgtk-4") && maps.contains("libgio-2.0"))

      // Targets no notification named, sent by another program of the session: nothing is done, nothing ends.
      for target in ["'not-a-task'", "''", "'\(UUID().uuidString)'"] {
        for action in ["done", "snooze", "open"] {
          _ = try await ChildProcess.run(
            URL(filePath: "/usr/bin/gapplication"), ["action", "io.github.b2ctasks.B2CTasks.Reminders", action, target])
        }
      }
      #expect(service.isRunning)

      // Snooze: the reminder is acknowledged now and snoozed ten minutes, at the service.
      try await server.press("Snooze", on: plants)
      let snoozed = await eventually {
        guard let task = try? await ann.task("Water the plants"),
          let reminder = (task["reminders"] as? [[String: Any]])?.first,
          let until = (reminder["snoozedUntil"] as? String).flatMap({ try? Date($0, strategy: .iso8601) })
        else { return false }
        return reminder["acknowledgedAt"] is String && abs(until.timeIntervalSinceNow - 600) < 60
          && task["status"] as? String == "needsAction"
      }
      let watered = try await ann.task("Water the plants")
      #expect(snoozed, "\(String(describing: watered))")
      // Snoozed again in the terminal (as on another device), to a minute from now: it fires again then (below).
      try await ann.run(["snooze", plantsTask.id, "--until", "in 1 minute"])
      let resnoozed = try #require(
        try await ann.task("Water the plants").flatMap { ($0["reminders"] as? [[String: Any]])?.first }
          .flatMap { $0["snoozedUntil"] as? String }.flatMap { try? Date($0, strategy: .iso8601) })
      #expect(abs(resnoozed.timeIntervalSinceNow - 60) < 30)
      let garbage = try await ann.attempt(["snooze", plantsTask.id, "--until", "at 00:00"])
      #expect(garbage.status == 2 && garbage.error.contains("has passed"), "\(garbage.error)")

      // Snoozed in the terminal (as on another device): the service withdraws its notification.
      let car = try await ann.add(["Book the car service", "--due", Self.yesterday, "--remind", "at the due time"])
      let carShown = try await server.waitForShown("Book the car service")
      try await ann.run(["snooze", car.id])
      let carID = try #require(carShown["id"] as? Int)
      #expect(await eventually { server.closed(carID) }, "\(server.records)")

      // Finished in the terminal: the service withdraws its notification at its next read of the feed.
      try await ann.run(["done", rent.id])  // which tells the service to read the feed now
      let rentID = try #require(rentShown["id"] as? Int)
      #expect(await eventually { server.closed(rentID) }, "\(server.records)")

      // Asked to end (as when the session ends), it ends between two of its steps, by itself.
      // On time: within two seconds of the moment it was set for, with no window open since login, and with the
      // task service out of reach since the service started again (it kept its reminders on disk).
      service.terminate()
      #expect(await service.waitForExit(timeout: .seconds(30)) == 0)
      await playground.stop()
      let offline = try ann.startReminders()
      defer { offline.kill() }
      let dentist = try await server.waitForShown("Call the dentist", timeout: .seconds(150))
      let late = try #require(dentist["time"] as? Double) - remindAt.timeIntervalSince1970
      #expect(late > -0.5 && late < 2, "shown \(late) s after its time")
      // The snooze's end: shown again, on time (from what it kept, too).
      let plantsAgain = try await server.waitForShown("Water the plants", count: 2, timeout: .seconds(150))
      let snoozeLate = try #require(plantsAgain["time"] as? Double) - resnoozed.timeIntervalSince1970
      #expect(snoozeLate > -0.5 && snoozeLate < 2, "shown again \(snoozeLate) s after the snooze's end")
      // Done while the task service is out of reach, and the reminder service asked to end the moment it took the
      // press: the press is kept (its outbox), and its next start sends it once the task service is back.
      try await server.press("Mark as Done", on: dentist)
      let dentistID = try #require(dentist["id"] as? Int)
      #expect(await eventually { server.closed(dentistID) }, "\(server.records)")
      offline.terminate()
      #expect(await offline.waitForExit(timeout: .seconds(30)) == 0)
      try await playground.restart()
      let again = try ann.startReminders()
      defer { again.kill() }
      #expect(await eventually { (try? await ann.task("Call the dentist"))?["status"] as? String == "completed" })

      // Once: a second start fires none of them again, but what is new.
      _ = try await ann.add(["Post the letter", "--due", Self.yesterday, "--remind", "at the due time"])
      let letter = try await server.waitForShown("Post the letter")
      let plantsNow = try? await ann.task("Water the plants")
      #expect(
        server.shown("Water the plants").count == 2 && server.shown("Pay the rent").count == 1,
        "\(server.records) \(String(describing: plantsNow))")
      #expect(server.shown("Call the dentist").count == 1)

      // Signed out: its notifications are withdrawn, and nothing of the account stays on disk, the ledger of what
      // fired included. Signed in again: what came due meanwhile fires, and what fired and was never dismissed
      // shows once more, as missed (the computer kept nothing of the account to know it had).
      try await ann.run(["sign-out", "--no-browser"])  // which tells the service
      let letterID = try #require(letter["id"] as? Int)
      #expect(await eventually { server.closed(letterID) }, "\(server.records)")
      let dataHome = ann.home.appending(path: "data")
      #expect(
        await eventually { AccountFolder.leftOver(dataHome: dataHome).isEmpty },
        "\(AccountFolder.leftOver(dataHome: dataHome))")
      try await ann.signIn(email: "ann@example.com", password: "Tasks-Demo-1")
      _ = try await ann.add(["Return the books", "--due", Self.yesterday, "--remind", "at the due time"])
      try await server.waitForShown("Return the books")
      let letterAgain = try await server.waitForShown("Post the letter", count: 2)
      #expect((letterAgain["body"] as? String)?.contains("Missed: ") == true, "\(letterAgain)")
    }

    @Test(
      "a reminder set on another device (a phone over CalDAV, which tells this computer nothing) fires at once: the service holds a long poll of the feed, which the phone's change answers"
    )
    func reminderFromAnotherDevice() async throws {
      try await Self.endRunningService()
      let playground = try await PlaygroundForUI(logLevel: "info")
      let ann = try await TerminalUser(playground, email: "ann@example.com", password: "Tasks-Demo-1")
      let server = try await NotificationServer()
      _ = try await ann.add(["Warm up", "--due", Self.yesterday, "--remind", "at the due time"])
      let list = try #require(try await ann.task("Warm up")?["listId"] as? String)
      let made = try await ann.run(["app-passwords", "add", "Phone", "--json"])
      let phone = try #require(try JSONSerialization.jsonObject(with: Data(made.utf8)) as? [String: String])
      let (user, password) = (try #require(phone["username"]), try #require(phone["password"]))
      let service = try ann.startReminders()
      defer { service.kill() }
      try await server.waitForShown("Warm up")
      // Long polls of the feed answered so far (the request log says so when each is answered).
      func waits() -> Int { playground.process.standardError.components(separatedBy: "&wait=").count - 1 }

      // The phone (DAVx5, say) adds a task due yesterday with an alarm at its due time, over CalDAV.
      let day = DateFormatter()
      day.locale = Locale(identifier: "en_US_POSIX")
      day.dateFormat = "yyyyMMdd"
      let due = day.string(from: Date().addingTimeInterval(-86_400))
      let todo = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//Test//EN", "BEGIN:VTODO", "UID:phone-\(UUID().uuidString)",
        "DTSTAMP:20261203T101010Z", "SUMMARY:Set on the phone", "DUE;VALUE=DATE:\(due)", "BEGIN:VALARM",
        "TRIGGER;RELATED=END:PT0S", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "END:VALARM", "END:VTODO",
        "END:VCALENDAR", "",
      ].joined(separator: "\r\n")
      let folder = try TestDesktop.temporaryFolder("phone")
      defer { try? FileManager.default.removeItem(at: folder) }
      let header = folder.appending(path: "header")  // the password in a file, never on a command line
      try
        ("Authorization: Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        + "\nContent-Type: text/calendar; charset=utf-8\nIf-None-Match: *\n")
        .write(to: header, atomically: true, encoding: .utf8)
      let body = folder.appending(path: "todo.ics")
      try todo.write(to: body, atomically: true, encoding: .utf8)
      let answered = waits()
      let put = try await ChildProcess.run(
        URL(filePath: "/usr/bin/curl"),
        [
          "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "PUT", "-H", "@" + header.path, "--data-binary",
          "@" + body.path, "http://127.0.0.1:\(playground.port)/dav/calendars/\(user)/\(list)/\(UUID().uuidString).ics",
        ])
      try #require(put.output == "201", "the phone's PUT answered \(put.output)")
      // Nothing tells the service: its waiting request is answered, and the reminder fires.
      let shown = try await server.waitForShown("Set on the phone", timeout: .seconds(120))
      #expect((shown["body"] as? String)?.contains("Missed: ") == true, "\(shown)")
      #expect(waits() > answered, "the reminder came without a long poll of the feed being answered")
    }

    @Test(
      "once the window shows a task with a reminder it writes the autostart entry and starts the service; a click on a notification opens the task, whose details dismiss it or snooze it for another length; Preferences' switch turned off removes the entry and ends the service, which withdraws its notifications"
    )
    func preferencesSwitch() async throws {
      try await Self.endRunningService()
      let playground = try await PlaygroundForUI()
      let server = try await NotificationServer()
      let app = try AppDriver(settings: playground.settings, environment: ["G_MESSAGES_DEBUG": "b2c-tasks"])
      let window = try await app.signInByTyping()
      try await app.waitFor(role: "list item", name: "Tasks, 0 open tasks")
      let entry = app.home.appending(path: "config/autostart/io.github.b2ctasks.B2CTasks.Reminders.desktop")
      #expect(!FileManager.default.fileExists(atPath: entry.path), "no reminder yet: no autostart entry")

      // A reminder set in the terminal, sharing the window's sign-in: the window's next read writes the entry, which
      // starts the installed b2c-tasks, and starts the service, which shows it.
      let ann = TerminalUser(sharingWith: app)
      _ = try await ann.add(["Feed the cat", "--due", Self.yesterday, "--remind", "at the due time"])
      _ = try await ann.add(["Water the fern", "--due", Self.yesterday, "--remind", "at the due time"])
      _ = try await ann.add(["Walk the dog", "--due", Self.yesterday, "--remind", "at the due time"])
      try await app.key("F5", window: window)
      #expect(await eventually { FileManager.default.fileExists(atPath: entry.path) })
      let program = try #require(TestDesktop.installPrefix).appending(path: "bin/b2c-tasks").path
      let contents = try String(contentsOf: entry, encoding: .utf8)
      #expect(contents.contains("\nExec=\(program) --background\n"), "\(contents)")
      let shown = await eventually(timeout: .seconds(60)) { !server.shown("Feed the cat").isEmpty }
      try #require(shown, "not shown; the window said: \(app.process.standardError.suffix(3000))")
      let cat = try await server.waitForShown("Feed the cat")
      #expect(try await Self.serviceRuns())
      // A click on the notification shows the task's list in the window (Upcoming was shown), and its details.
      try await app.click(role: "list item", name: "Upcoming, 0 open tasks")
      try await server.press(nil, on: cat)
      _ = try await app.accessibleTree { nodes in
        nodes.contains {
          $0.role == "list item" && $0.name.hasPrefix("Tasks, 3 open") && $0.states.contains("selected")
        }
      }
      _ = try await app.waitForWindow(titled: "Feed the cat")
      // Its details: the reminder fired; Dismiss acknowledges it, at the service (the click closed the notification).
      try await app.waitFor(role: "label", name: "Fired, not yet dismissed")
      try await app.scrollAndClick(role: "push button", name: "Dismiss Reminder “At the due time”", in: "Feed the cat")
      let dismissed = await eventually {
        let reminder = (try? await ann.task("Feed the cat")).flatMap { ($0["reminders"] as? [[String: Any]])?.first }
        return reminder?["acknowledgedAt"] is String && reminder?["snoozedUntil"] is NSNull
      }
      let catNow = try await ann.task("Feed the cat")
      #expect(dismissed, "\(String(describing: catNow))")
      try await app.waitUntilGone(role: "label", name: "Fired, not yet dismissed")
      try await app.key("Escape", window: nil)
      try await app.waitUntilGone(role: "frame", name: "Feed the cat")

      // Another's notification clicked: its details snooze it for another length than the notification's, at the
      // service.
      let fern = try await server.waitForShown("Water the fern")
      try await server.press(nil, on: fern)
      _ = try await app.waitForWindow(titled: "Water the fern")
      try await app.scrollAndClick(role: "push button", name: "Snooze", in: "Water the fern")
      try await app.waitFor(role: "push button", name: "For 30 minutes")
      try await app.checkScreen("details-reminder-snooze")
      try await app.press(button: "For 30 minutes")
      func fernSnoozedUntil() async -> Date? {
        guard
          let reminder = (try? await ann.task("Water the fern")).flatMap({ $0["reminders"] as? [[String: Any]] })?
            .first,
          reminder["acknowledgedAt"] is String
        else { return nil }
        return (reminder["snoozedUntil"] as? String).flatMap { try? Date($0, strategy: .iso8601) }
      }
      let snoozed = await eventually {
        await fernSnoozedUntil().map { abs($0.timeIntervalSinceNow - 1_800) < 60 } ?? false
      }
      let fernNow = try await ann.task("Water the fern")
      #expect(snoozed, "\(String(describing: fernNow))")
      let until = try #require(await fernSnoozedUntil())
      let day = Calendar.current.isDateInToday(until) ? "Today" : "Tomorrow"
      _ = try await app.accessibleTree { nodes in
        nodes.contains { $0.role == "label" && $0.name == "Snoozed until \(day) \(Self.clock(until))" }
      }
      try await app.key("Escape", window: nil)

      // Preferences, Reminders: the switch is on; off, the entry goes and the service ends, taking its notification.
      try await app.key("ctrl+comma", window: window)
      try await app.choosePage("Reminders")
      try await app.waitFor(role: "check box", name: "Remind Me with the Window Closed")
      try await app.checkScreen("preferences-reminders")
      try await app.click(role: "check box", name: "Remind Me with the Window Closed")
      #expect(await eventually { !FileManager.default.fileExists(atPath: entry.path) })
      #expect(await eventually { (try? await Self.serviceRuns()) == false })
      let dog = try await server.waitForShown("Walk the dog")
      let id = try #require(dog["id"] as? Int)
      #expect(server.closed(id), "\(server.records)")
      await app.stop()
    }

    @Test(
      "Mark as Done and Snooze pressed while the service is not running: D-Bus starts it for the press, as GNOME Shell does, and the task is completed or snoozed at the service"
    )
    func pressStartsTheService() async throws {
      try await Self.endRunningService()
      let playground = try await PlaygroundForUI()
      let ann = try await TerminalUser(playground, email: "ann@example.com", password: "Tasks-Demo-1")
      let fish = try await ann.add(["Feed the fish", "--due", Self.yesterday, "--remind", "at the due time"])
      let bins = try await ann.add(["Put out the bins", "--due", Self.yesterday, "--remind", "at the due time"])
      // The service ran once (it showed both and kept its agenda), then ended, as at the end of a session.
      let server = try await NotificationServer()
      let first = try ann.startReminders()
      defer { first.kill() }
      try await server.waitForShown("Feed the fish")
      try await server.waitForShown("Put out the bins")
      first.terminate()
      #expect(await first.waitForExit(timeout: .seconds(30)) == 0)
      #expect(await eventually { (try? await Self.serviceRuns()) == false })

      // The session bus can start the service, with Ann's folders (its D-Bus service file, as the package installs
      // it, in a folder of the bus's own; the bus reads it again).
      let removeActivation = try Self.activatableService(for: ann)
      defer { removeActivation() }
      // GNOME Shell's press of a notification's button: org.freedesktop.Application.ActivateAction, which D-Bus
      // delivers as soon as the service it starts owns its name, before it has read anything.
      try await Self.pressOnStoppedService("done", fish.id)
      #expect(await eventually { (try? await ann.task("Feed the fish"))?["status"] as? String == "completed" })
      try await Self.endRunningService()
      try await Self.pressOnStoppedService("snooze", bins.id)
      let snoozed = await eventually {
        guard
          let reminder = (try? await ann.task("Put out the bins")).flatMap({ $0["reminders"] as? [[String: Any]] })?
            .first,
          let until = (reminder["snoozedUntil"] as? String).flatMap({ try? Date($0, strategy: .iso8601) })
        else { return false }
        return reminder["acknowledgedAt"] is String && abs(until.timeIntervalSinceNow - 600) < 60
      }
      let binsNow = try await ann.task("Put out the bins")
      #expect(snoozed, "\(String(describing: binsNow))")
      try await Self.endRunningService()
    }

    /// Sends the service's `action` for `task` while nobody owns its name: the bus starts it (the call's reply comes
    /// once the service has taken it).
    static func pressOnStoppedService(_ action: String, _ task: String) async throws {
      #expect(try await serviceRuns() == false)
      let call = try await ChildProcess.run(
        URL(filePath: "/usr/bin/gdbus"),
        [
          "call", "--session", "--timeout", "60", "--dest", "io.github.b2ctasks.B2CTasks.Reminders", "--object-path",
          "/io/github/b2ctasks/B2CTasks/Reminders", "--method", "org.freedesktop.Application.ActivateAction", action,
          "[<'\(task.lowercased())'>]", "{}",
        ])
      try #require(call.status == 0, "\(call.error)")
    }

    /// A D-Bus service file that starts the installed reminder service with `user`'s folders, in the session bus's
    /// own data folder (the tests' bus was started with the tests' XDG_DATA_HOME); answers what removes it.
    static func activatableService(for user: TerminalUser) throws -> () -> Void {
      let data = try #require(ProcessInfo.processInfo.environment["XDG_DATA_HOME"])
      let folder = URL(filePath: data).appending(path: "dbus-1/services")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let file = folder.appending(path: "io.github.b2ctasks.B2CTasks.Reminders.service")
      let program = try #require(TestDesktop.installPrefix).appending(path: "lib/b2c-tasks/b2c-tasks-reminders").path
      let folders = user.environment.compactMap { name, value in value.map { "\(name)=\($0)" } }.sorted()
      try Data(
        """
        [D-BUS Service]
        Name=io.github.b2ctasks.B2CTasks.Reminders
        Exec=/usr/bin/env \(folders.joined(separator: " ")) \(program) --gapplication-service

        """.utf8
      ).write(to: file)
      reloadBus()
      return {
        try? FileManager.default.removeItem(at: file)
        reloadBus()
      }
    }

    private static func reloadBus() {
      let reload = Process()
      reload.executableURL = URL(filePath: "/usr/bin/gdbus")
      reload.arguments = [
        "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus", "--method",
        "org.freedesktop.DBus.ReloadConfig",
      ]
      try? reload.run()
      reload.waitUntilExit()
    }

    /// `date`'s time on this computer's clock, as the app writes it ("10:40").
    static func clock(_ date: Date) -> String {
      let format = DateFormatter()
      format.locale = Locale(identifier: "en_US_POSIX")
      format.dateFormat = "HH:mm"
      return format.string(from: date)
    }

    /// Yesterday as the CLI reads it ("28 November 2026").
    static var yesterday: String {
      let format = DateFormatter()
      format.locale = Locale(identifier: "en_US_POSIX")
      format.dateFormat = "d MMMM yyyy"
      return format.string(from: Date().addingTimeInterval(-86_400))
    }
  }
}

// The hostile collaborator, on the other member's desktop: Bob owns a list shared with Ann and writes what he likes
// into it (its name, titles, notes, dates at the calendar's end, repeats, reminders); what reaches Ann's screen,
// through her window or her reminder service, is shown as written, never as markup, and her edits of it go through.

import Foundation
import TasksTestSupport
import Testing

extension AppUI {
  @Suite("A hostile member of a shared list, on the other member's desktop", .serialized)
  struct HostileMemberUITests {
    @Test(
      "S2: a list's name and a title another member wrote reach the notification as text: escaped for a server that reads body markup (as GNOME Shell's does), as written for one that does not"
    )
    func markupInNotifications() async throws {
      try await ReminderUITests.endRunningService()
      let playground = try await PlaygroundForUI()
      let ann = try await TerminalUser(playground, email: "ann@example.com", password: "Tasks-Demo-1")
      let bob = try await TerminalUser(playground, email: "bob@example.com", password: "Tasks-Demo-2")
      let listName = #"<a href="https://evil.example/">Home</a> & <b>co</b>"#
      try await bob.run(["lists", "add", listName])
      let shared = try await bob.run(["lists", "share", listName])
      let code = try #require(shared.split(separator: "\n").last.map(String.init))
      try await ann.run(["lists", "join"], input: code)

      let markupServer = try await NotificationServer(capabilities: [
        "actions", "body", "body-markup", "body-hyperlinks",
      ])
      let title = #"<i>Pay</i> &amp; <u>now</u>"#
      _ = try await bob.add([
        title, "--list", listName, "--due", ReminderUITests.yesterday, "--remind", "at the due time",
      ])
      let service = try ann.startReminders()
      defer { service.kill() }
      let shown = try await markupServer.waitForShown(title)  // a summary is text for every server: as written
      let body = try #require(shown["body"] as? String)
      #expect(
        body.hasSuffix("&lt;a href=&quot;https://evil.example/&quot;&gt;Home&lt;/a&gt; &amp; &lt;b&gt;co&lt;/b&gt;"),
        "\(body)")
      #expect(markupServer.records.contains { $0["call"] as? String == "GetCapabilities" })

      // A server that shows bodies as text gets them as written (escaping would show the entities).
      markupServer.process.terminate()
      _ = await markupServer.process.waitForExit(timeout: .seconds(30))
      let textServer = try await NotificationServer()
      let second = "Second <b>one</b>"
      _ = try await bob.add([
        second, "--list", listName, "--due", ReminderUITests.yesterday, "--remind", "at the due time",
      ])
      // Ann's service reads the feed at its minute, or at once when an app of the session asks it to.
      _ = try await ChildProcess.run(
        URL(filePath: "/usr/bin/gapplication"), ["action", "io.github.b2ctasks.B2CTasks.Reminders", "refresh"])
      let plain = try await textServer.waitForShown(second, timeout: .seconds(150))
      #expect((plain["body"] as? String)?.hasSuffix(" · " + listName) == true, "\(plain)")
    }

    @Test(
      "S3: a member's burst of reminders with 60 000 characters of notes each: three notifications on Ann's screen and one grouped that counts the rest; her agenda on disk keeps no notes"
    )
    func reminderFlood() async throws {
      try await ReminderUITests.endRunningService()
      let playground = try await PlaygroundForUI()
      let ann = try await TerminalUser(playground, email: "ann@example.com", password: "Tasks-Demo-1")
      let bob = try await TerminalUser(playground, email: "bob@example.com", password: "Tasks-Demo-2")
      try await bob.run(["lists", "add", "Flood"])
      let shared = try await bob.run(["lists", "share", "Flood"])
      try await ann.run(["lists", "join"], input: try #require(shared.split(separator: "\n").last.map(String.init)))
      let notes = String(repeating: "n", count: 60_000)
      for index in 0..<8 {
        try await bob.run([
          "add", "Flood \(index)", "--list", "Flood", "--note", notes, "--due", ReminderUITests.yesterday, "--remind",
          "at the due time",
        ])
      }
      let server = try await NotificationServer()
      let service = try ann.startReminders()
      defer { service.kill() }
      let group = try await server.waitForShown("5 more reminders")
      let single = server.records.filter {
        $0["call"] as? String == "Notify" && ($0["summary"] as? String)?.hasPrefix("Flood ") == true
      }
      #expect(single.count == 3, "\(single.map { $0["summary"] ?? "" })")
      #expect((group["body"] as? String)?.components(separatedBy: " · ").count == 3, "\(group)")
      let folder = ann.home.appending(path: "data/io.github.b2ctasks.B2CTasks/reminders")
      let agendas = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        .filter { $0.pathExtension == "json" }
      let agenda = try Data(contentsOf: try #require(agendas.first))
      #expect(
        agenda.count < 20_000 && !String(decoding: agenda, as: UTF8.self).contains("nnnnnnnnnn"), "\(agenda.count)")
    }

    @Test(
      "the window: Bob's list name and titles with markup, a bidi override and 4 000 characters show as written; his task due 9999-12-31 repeating daily is finished by Ann (the series ends), not a failure"
    )
    func hostileTextInTheWindow() async throws {
      let playground = try await PlaygroundForUI()
      let app = try AppDriver(settings: playground.settings)
      let window = try await app.signInByTyping()
      try await app.waitFor(role: "list item", name: "Tasks, 0 open tasks")
      let bob = try await TerminalUser(playground, email: "bob@example.com", password: "Tasks-Demo-2")
      let listName = #"<b>Bob</b> & <a href="https://evil.example/">co</a>"#
      try await bob.run(["lists", "add", listName])
      let shared = try await bob.run(["lists", "share", listName])
      let code = try #require(shared.split(separator: "\n").last.map(String.init))
      try await TerminalUser(sharingWith: app).run(["lists", "join"], input: code)
      let markup = "<i>Pay</i> &amp; <u>now</u> \u{202E}evil"
      let long = String(repeating: "Long title ", count: 363) + "end"
      try await bob.run(["add", markup, "--list", listName, "--note", "<a href=\"https://evil.example/\">notes</a>"])
      try await bob.run(["add", long, "--list", listName])
      try await bob.run([
        "add", "End of days", "--list", listName, "--due", "31 December 9999", "--repeat", "every day",
      ])

      try await app.key("F5", window: window)
      let row = "\(listName), 3 open tasks, Shared by Bob Example"
      try await app.click(role: "list item", name: row)
      // A label's accessible name is the text it shows: markup read as markup would show without its tags.
      try await app.waitFor(role: "label", name: listName)
      try await app.waitFor(role: "label", name: markup)
      try await app.waitFor(role: "label", name: long)
      try await app.checkScreen("hostile-member-window")

      // Finishing the task due on the calendar's last day: no day follows, so the series ends and it is done.
      try await app.click(role: "check box", name: "End of days")
      try await app.waitFor(role: "list item", name: "\(listName), 2 open tasks, Shared by Bob Example")
      let finished = try await bob.run(["list", "--list", listName, "--json"])
      let tasks = try JSONSerialization.jsonObject(with: Data(finished.utf8)) as? [[String: Any]] ?? []
      let end = tasks.first { $0["title"] as? String == "End of days" }
      #expect(end?["status"] as? String == "completed", "\(finished)")
      await app.stop()
    }
  }
}

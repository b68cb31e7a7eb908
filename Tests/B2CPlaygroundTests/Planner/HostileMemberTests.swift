// The hostile collaborator, at the service: Bob, a member of Ann's shared list, writes whatever the API lets him
// (dates at the calendar's end, repeats, reminders, a day of finishing that has not come) and Ann's feed, lists and
// tasks keep answering; a task stored in a form no release can read is left out and reported, never a 500.

import Foundation
import GRDB
import TasksTestSupport
import Testing

@Suite("A hostile member of a shared list, at the service", .serialized)
struct HostileMemberTests {
  /// Ann's list "Shared", with Bob a member; `body` gets Ann's and Bob's clients and the list's id.
  private func withSharedList(
    _ host: TaskAPIHost, _ body: (PlannerClient, PlannerClient, String, TaskAPIEndpoint) async throws -> Void
  ) async throws {
    try await PlannerAPITests.withAPI(host) { harness, api in
      let (ann, bob) = try await PlannerAPITests.annAndBob(harness, api.base)
      let list = try await ann.newList("Shared")
      let code = try #require(try await ann.object("POST", "/lists/\(list)/invitations")["code"] as? String)
      #expect(try await bob.join(code).status == 200)
      try await body(ann, bob, list, api)
    }
  }

  /// Every read Ann's devices make of the list answers 200, and each of its tasks can be read, changed and deleted.
  private func annStillSyncs(_ ann: PlannerClient, _ list: String) async throws {
    var copy = FeedCopy()
    try await copy.follow(ann)
    #expect(try await ann.call("GET", "/lists/\(list)/tasks").status == 200)
    for (id, task) in copy.tasks where task["listId"] as? String == list {
      let path = "/lists/\(list)/tasks/\(id)"
      #expect(try await ann.call("GET", path).status == 200, "\(task["title"] ?? "")")
      #expect(try await ann.call("PATCH", path, ["priority": 1]).status == 200, "\(task["title"] ?? "")")
    }
    for id in copy.tasks.keys where copy.tasks[id]?["listId"] as? String == list {
      #expect(try await ann.call("DELETE", "/lists/\(list)/tasks/\(id)").status == 204)
    }
  }

  @Test(
    "S1: dates at the calendar's end, repeats past it and a day of finishing that has not come leave Ann's sync whole",
    arguments: TaskAPIHost.allCases)
  func calendarsEnd(host: TaskAPIHost) async throws {
    try await withSharedList(host) { ann, bob, list, _ in
      // The reported attack: a daily task "from completion", finished on a day far in the future.
      let daily = try await bob.newTask(
        list,
        ["title": "Daily", "due": ["date": "2026-12-01"], "recurrence": ["rrule": "FREQ=DAILY", "from": "completion"]])
      let dailyPath = "/lists/\(list)/tasks/\(daily["id"] as! String)/complete"
      let future = try await bob.call("POST", dailyPath, ["occurrence": "2026-12-01", "today": "9999-12-31"])
      #expect(try future.status == 400 && future.json()["field"] as? String == "today")
      // A weekly task due on the calendar's last day: finishing it ends the series.
      let weekly = try await bob.newTask(
        list, ["title": "Weekly", "due": ["date": "9999-12-31"], "recurrence": ["rrule": "FREQ=WEEKLY"]])
      let ended = try await bob.object(
        "POST", "/lists/\(list)/tasks/\(weekly["id"] as! String)/complete", ["occurrence": "9999-12-31"])
      #expect(ended["status"] as? String == "completed")
      // A reminder that the next occurrence would move past 9999.
      let late = try await bob.newTask(
        list,
        [
          "title": "Late", "due": ["date": "9999-12-30"], "recurrence": ["rrule": "FREQ=YEARLY;INTERVAL=1000"],
          "reminders": [["at": "9999-12-31T23:59:59Z"]],
        ])
      let lateDone = try await bob.object(
        "POST", "/lists/\(list)/tasks/\(late["id"] as! String)/complete", ["occurrence": "9999-12-30"])
      #expect(lateDone["status"] as? String == "completed")
      // Times past 9999 do not enter.
      let tooLate = try await bob.call(
        "PUT", "/lists/\(list)/tasks/\(UUID().uuidString.lowercased())",
        ["title": "x", "reminders": [["at": "+10000-01-01T00:00:00Z"]]], headers: ["If-None-Match": "*"])
      #expect(tooLate.status == 400)
      try await annStillSyncs(ann, list)
    }
  }

  @Test("a task stored in a form that cannot be read is left out of every read, reported, and can be deleted")
  func unreadableTask() async throws {
    try await withSharedList(.service) { ann, bob, list, api in
      let kept = try await bob.newTask(list, ["title": "Readable"])
      let damaged = try await bob.newTask(list, ["title": "Damaged", "due": ["date": "2026-12-01"]])
      let id = damaged["id"] as! String
      // What the release before this one could write: a date of year 10000 in the task's details.
      let database = try DatabaseQueue(path: try #require(api.data).appending(path: "tasks.sqlite").path)
      try await database.write { db in
        try db.execute(
          sql:
            "UPDATE tasks SET details = replace(details, '2026-12-01', '10000-01-01'), version = version + 1 WHERE uuid = ?",
          arguments: [id])
        #expect(db.changesCount == 1)
      }
      try database.close()
      var copy = FeedCopy()
      try await copy.follow(ann)
      #expect(copy.tasks[kept["id"] as! String] != nil && copy.tasks[id] == nil, "the feed answers, without it")
      let tasks = try await ann.array("/lists/\(list)/tasks")
      #expect(tasks.map { $0["title"] as? String } == ["Readable"])
      let path = "/lists/\(list)/tasks/\(id)"
      #expect(try await ann.call("GET", path).status == 409)
      #expect(try await bob.call("PATCH", path, ["title": "Fixed?"]).status == 409)
      #expect(try await bob.call("POST", path + "/complete", ["occurrence": "2026-12-01"]).status == 409)
      let log = try #require(api.process?.process).standardOutput + api.process!.process.standardError
      #expect(log.contains("a stored task cannot be read") && log.contains(id) && !log.contains("10000-01-01"))
      #expect(try await ann.call("DELETE", path).status == 204)
      try await copy.follow(ann)
      #expect(copy.tasks.count == 1)
    }
  }

  @Test(
    "a list's order among the others is each member's own: Bob's sortKey moves the list for Bob alone; Ann's order, its version and her feed stay, and Bob's other devices read it from his feed",
    arguments: TaskAPIHost.allCases)
  func ownOrder(host: TaskAPIHost) async throws {
    try await withSharedList(host) { ann, bob, list, _ in
      _ = try await ann.object("PATCH", "/lists/\(list)", ["sortKey": "m"])
      let before = try await ann.object("GET", "/lists/\(list)")
      let annsToken = try #require(try await ann.changes().answer["next"] as? String)
      let bobsToken = try #require(try await bob.changes().answer["next"] as? String)
      #expect(
        try await bob.object("GET", "/lists/\(list)")["sortKey"] as? String == "",
        "Ann moved it after Bob joined: his place for it stayed")
      let moved = try await bob.object("PATCH", "/lists/\(list)", ["sortKey": "a"])
      #expect(moved["sortKey"] as? String == "a" && moved["version"] as? Int == before["version"] as? Int)
      let after = try await ann.object("GET", "/lists/\(list)")
      #expect(after["sortKey"] as? String == "m" && after["version"] as? Int == before["version"] as? Int)
      let annsPage = try await ann.changes(since: annsToken).answer
      #expect((annsPage["lists"] as? [Any])?.isEmpty == true && annsPage["next"] as? String == annsToken)
      let bobsPage = try await bob.changes(since: bobsToken).answer
      let seen = (bobsPage["lists"] as? [[String: Any]])?.first { $0["id"] as? String == list }
      #expect(seen?["sortKey"] as? String == "a", "\(bobsPage)")
      // Bob cannot rename it: the name is the owner's.
      #expect(try await bob.call("PATCH", "/lists/\(list)", ["name": "Bob's now"]).status == 403)
    }
  }
}

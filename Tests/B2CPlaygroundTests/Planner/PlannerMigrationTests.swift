// The planner's migration: a database the previous release wrote (SQLite and PostgreSQL) is opened by b2c-tasks-api
// with every task in its owner's default list and nothing changed.

import Foundation
import TaskService
import TasksTestSupport
import Testing

@Suite("Task API v2: databases of the previous release migrate", .serialized)
struct PlannerMigrationTests {
  @Test(
    "every owner's tasks go to their default list, with their ids, texts, states and times; keys still replay",
    arguments: [TaskAPIHost.service, .postgres])
  func previousRelease(host: TaskAPIHost) async throws {
    try await PlaygroundHarness.with { harness in
      let annToken = try #require(
        try await SignInDriver(harness).tokens("ann@example.com", "Tasks-Demo-1")["access_token"] as? String)
      let bobToken = try #require(
        try await SignInDriver(harness).tokens("bob@example.com", "Tasks-Demo-2")["access_token"] as? String)
      let inspector = TokenInspector(harness)
      let annClaims = try await inspector.claims(annToken)
      let issuer = try #require(annClaims["iss"] as? String)
      let ann = issuer + " " + (try #require(annClaims["oid"] as? String))
      let bob = issuer + " " + (try #require(try await inspector.claims(bobToken)["oid"] as? String))
      let rows: [PreviousRelease.Row] = [
        .init(owner: ann, text: "buy milk", completed: false, dateModified: "2025-03-01 10:00:00"),
        .init(owner: bob, text: "Bob's own", completed: true, dateModified: "2025-03-02 11:00:00"),
        .init(owner: ann, text: "call mum", completed: true, dateModified: "2025-03-03 12:30:00"),
      ]
      let data = try TestDesktop.temporaryFolder("tasks-api-previous")
      defer { try? FileManager.default.removeItem(at: data) }
      let database: String
      if host == .postgres {
        database = try await PreviousRelease.postgres(rows: rows)
      } else {
        database = data.appending(path: "tasks.sqlite").path
        try PreviousRelease.sqlite(at: database, rows: rows)
      }
      let api = try await TaskAPIProcess.start(database: database, issuerMetadata: harness.policyMetadata)
      try await withTeardown({ await api.stop() }) {
        let v1 = TaskClient(api: api.base, token: annToken)
        let tasks = try await v1.list()
        #expect(tasks.map { $0["Id"] as? Int } == [1, 3])
        #expect(tasks.map { $0["Text"] as? String } == ["buy milk", "call mum"])
        #expect(tasks.map { $0["Completed"] as? Bool } == [false, true])
        #expect(
          tasks.map { $0["DateModified"] as? String } == ["2025-03-01T10:00:00.000Z", "2025-03-03T12:30:00.000Z"])
        let replay = try await v1.add("again", key: "key-1")
        #expect(replay.location == "/api/tasks/1", "the old key still answers its task")

        let v2 = PlannerClient(api: api.base, token: annToken)
        let lists = try await v2.array("/lists")
        #expect(lists.count == 1 && lists[0]["isDefault"] as? Bool == true)
        let listID = try #require(lists[0]["id"] as? String)
        let v2Tasks = try await v2.array("/lists/\(listID)/tasks")
        #expect(v2Tasks.map { $0["title"] as? String } == ["buy milk", "call mum"])
        #expect(v2Tasks.map { $0["status"] as? String } == ["needsAction", "completed"])
        #expect(v2Tasks.map { $0["updatedAt"] as? String } == ["2025-03-01T10:00:00.000Z", "2025-03-03T12:30:00.000Z"])
        #expect(v2Tasks.allSatisfy { $0["version"] as? Int == 1 && $0["due"] is NSNull })
        let feed = try await v2.changes().answer
        #expect((feed["tasks"] as? [Any])?.count == 2)
        let bobsTasks = try await TaskClient(api: api.base, token: bobToken).list()
        #expect(bobsTasks.map { $0["Text"] as? String } == ["Bob's own"])
      }
    }
  }
}

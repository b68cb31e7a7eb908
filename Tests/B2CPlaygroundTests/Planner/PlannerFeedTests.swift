// The change feed under concurrent writers: two b2c-tasks-api instances on one PostgreSQL, several accounts writing
// one shared list through both at once, an instance and then PostgreSQL restarted meanwhile, and a reader following
// /api/v2/changes. At the end the reader's copy equals a full read, and every acknowledged write is there.

import Foundation
import Synchronization
import TasksTestSupport
import Testing

@Suite("Task API v2: the change feed under concurrent writers on two instances", .serialized)
struct PlannerFeedTests {
  /// What the writers had acknowledged: each task's last title, and the tasks deleted.
  private final class Acknowledged: Sendable {
    let titles = Mutex<[String: String]>([:])
    let deleted = Mutex<Set<String>>([])
    let done = Mutex(false)
  }

  @Test(
    "writers through both instances, one instance killed and PostgreSQL restarted: the reader's copy equals a full read"
  )
  func concurrentWriters() async throws {
    let harness = try await PlaygroundHarness.start()
    let server = try await PostgresServer()
    let database = try await server.createDatabase()
    // Restarted on its port below: a port of the tests' own range, which no client's connection takes as its local
    // port meanwhile (the kernel's ephemeral ports are above it).
    let first = try await TaskAPIProcess.start(
      database: database, issuerMetadata: harness.policyMetadata, port: try freeLoopbackPort())
    let second = try await TaskAPIProcess.start(database: database, issuerMetadata: harness.policyMetadata)
    let restarted = Mutex<TaskAPIProcess?>(nil)
    try await withTeardown({
      await first.stop()
      await second.stop()
      await restarted.withLock { $0 }?.stop()
      await server.remove()
      await harness.stop()
    }) {
      let annToken = try await PlannerAPITests.client(harness, first.base).token
      let bobToken = try await PlannerAPITests.client(harness, first.base, "bob@example.com", "Tasks-Demo-2").token
      let ann = PlannerClient(api: first.base, token: annToken)
      let list = try await ann.newList("Shared")
      let code = try #require(try await ann.object("POST", "/lists/\(list)/invitations")["code"] as? String)
      #expect(try await PlannerClient(api: second.base, token: bobToken).join(code).status == 200)

      let acknowledged = Acknowledged()
      // Four writers: Ann and Bob, each through both instances; each retries a write until it is acknowledged (a PUT
      // with If-None-Match is a replay after a lost answer, a PATCH sets the same title again).
      let writers = [(annToken, first.base), (annToken, second.base), (bobToken, first.base), (bobToken, second.base)]
      let writing = Task {
        try await withThrowingTaskGroup { group in
          for (index, (token, base)) in writers.enumerated() {
            group.addTask {
              try await Self.write(
                writer: index, client: PlannerClient(api: base, token: token), list: list, acknowledged: acknowledged)
            }
          }
          try await group.waitForAll()
        }
      }
      // The reader: Ann's feed, through either instance in turn, until the writers are done.
      let reading = Task {
        var copy = FeedCopy()
        var round = 0
        while !acknowledged.done.withLock({ $0 }) {
          round += 1
          let client = PlannerClient(api: round % 2 == 0 ? first.base : second.base, token: annToken)
          let before = copy.tasks.mapValues { $0["version"] as? Int ?? 0 }
          // Pages of three tasks: the writers write between a read's pages.
          guard let page = try? await client.changes(since: copy.token, limit: 3).answer else { continue }
          for task in page["tasks"] as? [[String: Any]] ?? [] {
            let id = task["id"] as? String ?? ""
            #expect((task["version"] as? Int ?? 0) >= (before[id] ?? 0), "a task went back to an older version")
          }
          copy.apply(page)
        }
        return copy
      }

      // Meanwhile: kill -9 the first instance and start it again, then restart PostgreSQL.
      let going = await eventually(timeout: .seconds(120)) { acknowledged.titles.withLock { $0.count } >= 8 }
      try #require(going, "the writers did not get going")
      first.kill()
      _ = await first.process.waitForExit(timeout: .seconds(30))
      let again = try await TaskAPIProcess.start(
        database: database, issuerMetadata: harness.policyMetadata, port: first.port)
      restarted.withLock { $0 = again }
      let more = await eventually(timeout: .seconds(120)) { acknowledged.titles.withLock { $0.count } >= 16 }
      try #require(more, "the writers stopped after the restart")
      await server.stop()
      try await server.start()

      try await writing.value
      acknowledged.done.withLock { $0 = true }
      var copy = try await reading.value
      let reader = PlannerClient(api: second.base, token: annToken)
      // The loop may have stopped between the pages of a read, which ends where it began: after the last write.
      let caughtUp = await eventually(timeout: .seconds(60)) { (try? await copy.catchUp(reader, limit: 3)) != nil }
      try #require(caughtUp, "the reader could not read the feed at the end")
      // PostgreSQL restarted: a pooled connection may be found closed once (503), as any client retries.
      var full = FeedCopy()
      let read = await eventually(timeout: .seconds(60)) { (try? await full.follow(reader)) != nil }
      try #require(read, "no full read at the end")
      #expect(copy.summary == full.summary, "the reader's copy differs from a full read")
      var listed: [[String: Any]] = []
      let tasksRead = await eventually(timeout: .seconds(60)) {
        guard let tasks = try? await reader.array("/lists/\(list)/tasks") else { return false }
        listed = tasks
        return true
      }
      try #require(tasksRead, "the list's tasks could not be read at the end")
      let expected = acknowledged.titles.withLock { $0 }.filter {
        !acknowledged.deleted.withLock { $0 }.contains($0.key)
      }
      #expect(
        Dictionary(uniqueKeysWithValues: listed.map { ($0["id"] as! String, $0["title"] as! String) }) == expected,
        "an acknowledged write is missing")
      #expect(copy.tasks.count == expected.count)
    }
  }

  /// One writer: 45 writes to its own tasks of `list` (a new task every third, a title change otherwise, a deletion
  /// every ninth), each retried until acknowledged.
  private static func write(writer: Int, client: PlannerClient, list: String, acknowledged: Acknowledged)
    async throws
  {
    var mine: [String] = []
    for step in 0..<45 {
      let title = "writer \(writer) step \(step)"
      var method = "PATCH"
      var id = mine.last ?? ""
      var headers: [String: String] = [:]
      if step % 3 == 0 || mine.isEmpty {
        method = "PUT"
        id = UUID().uuidString.lowercased()
        headers["If-None-Match"] = "*"
      } else if step % 9 == 8 {
        method = "DELETE"
        id = mine.removeFirst()
      } else {
        id = mine[step % mine.count]
      }
      let path = "/lists/\(list)/tasks/\(id)"
      let answered = await eventually(timeout: .seconds(120), every: .milliseconds(100)) {
        let status =
          (try? await client.call(method, path, method == "DELETE" ? nil : ["title": title], headers: headers))?
          .status
        // A deletion retried after its answer was lost finds the task gone.
        return status.map { (200..<300).contains($0) || (method == "DELETE" && $0 == 404) } ?? false
      }
      try #require(answered, "\(method) \(path) was never acknowledged")
      switch method {
      case "DELETE": acknowledged.deleted.withLock { _ = $0.insert(id) }
      case "PUT":
        mine.append(id)
        acknowledged.titles.withLock { $0[id] = title }
      default: acknowledged.titles.withLock { $0[id] = title }
      }
    }
  }
}

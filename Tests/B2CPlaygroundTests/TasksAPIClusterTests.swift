// TasksAPIClusterTests: b2c-tasks-api as a deployment runs it: several instances on one real PostgreSQL, behind
// nginx, started together, restarted under load, and told apart from a database that is down.

import Foundation
import Synchronization
import TasksTestSupport
import Testing

@Suite("b2c-tasks-api: several instances on one PostgreSQL, behind nginx")
struct TasksAPIClusterTests {
  private func annToken(_ harness: PlaygroundHarness) async throws -> String {
    try #require(try await SignInDriver(harness).tokens("ann@example.com", "Tasks-Demo-1")["access_token"] as? String)
  }

  private func texts(_ client: TaskClient) async throws -> [String] {
    try await client.list().compactMap { $0["Text"] as? String }
  }

  @Test("three instances started at once on a new database migrate it once, and all of them serve")
  func concurrentStart() async throws {
    try await PlaygroundHarness.with { harness in
      let server = try await PostgresServer.shared()
      let database = try await server.createDatabase()
      let instances = try await withThrowingTaskGroup { group in
        for _ in 0..<3 {
          group.addTask { try await TaskAPIProcess.start(database: database, issuerMetadata: harness.policyMetadata) }
        }
        return try await group.reduce(into: [TaskAPIProcess]()) { $0.append($1) }
      }
      try await withTeardown({ for instance in instances { await instance.stop() } }) {
        let token = try await annToken(harness)
        for (index, instance) in instances.enumerated() {
          #expect(try await Browser().get(instance.base.appending(path: "ready")).status == 200)
          #expect(try await TaskClient(api: instance.base, token: token).add("from instance \(index)").status == 204)
        }
        let name = try #require(database.split(separator: "/").last.map(String.init))
        #expect(
          try await server.psql(name, "SELECT string_agg(version, ',' ORDER BY version) FROM schema_migrations")
            == "caldav-v1,feed-notify-v1,planner-v1,planner-v2-changed-by,planner-v3-member-order,tasks-v1,tasks-v2-list-versions"
        )
        #expect(
          try await texts(TaskClient(api: instances[0].base, token: token)) == (0..<3).map { "from instance \($0)" })
      }
    }
  }

  @Test("behind nginx: adds through either instance list through the other; one Idempotency-Key is stored once")
  func twoInstances() async throws {
    let pair = try await BalancedPair.start()
    try await withTeardown({ await pair.stop() }) {
      let (first, second, balancer) = (pair.first, pair.second, pair.balancer)
      let token = try await annToken(pair.harness)
      let viaFirst = TaskClient(api: first.base, token: token)
      let viaSecond = TaskClient(api: second.base, token: token)
      let viaBalancer = TaskClient(api: balancer.base, token: token)

      #expect(try await viaFirst.add("added through the first").status == 204)
      #expect(try await viaSecond.add("added through the second").status == 204)
      let both = ["added through the first", "added through the second"]
      #expect(try await texts(viaFirst) == both)
      #expect(try await texts(viaSecond) == both)
      // A list the second instance answered (and keeps in memory) changes with an add through the first.
      #expect(try await viaFirst.add("added through the first again").status == 204)
      #expect(try await texts(viaSecond) == both + ["added through the first again"])
      #expect(
        try await viaSecond.call("DELETE", "\(try await viaSecond.list().last?["Id"] as? Int ?? 0)").status == 204)
      #expect(try await texts(viaFirst) == both)

      // Through nginx (round robin): every add lands once, and both instances take some.
      for index in 1...6 { #expect(try await viaBalancer.add("balanced \(index)").status == 204) }
      #expect(try await texts(viaBalancer) == both + (1...6).map { "balanced \($0)" })
      for instance in [first, second] {
        let log = instance.process.standardOutput + instance.process.standardError
        let posts = log.split(separator: "\n").filter { $0.contains("method=POST") }.count
        #expect(posts >= 2, "an instance behind nginx took \(posts) adds")
      }

      // The same add sent to both instances at once, five times over: each key stored once, with one id.
      for round in 1...5 {
        let key = "retry-\(round)-\(UUID().uuidString)"
        async let one = viaFirst.add("keyed \(round)", key: key)
        async let other = viaSecond.add("keyed \(round)", key: key)
        let (a, b) = try await (one, other)
        #expect(a.status == 204 && b.status == 204)
        #expect(a.headers["location"] != nil && a.headers["location"] == b.headers["location"])
      }
      let keyed = try await texts(viaBalancer).filter { $0.hasPrefix("keyed") }
      #expect(keyed == (1...5).map { "keyed \($0)" })
    }
  }

  @Test("one instance killed and started again while a client keeps adding through nginx: every task lands once")
  func restartUnderLoad() async throws {
    let pair = try await BalancedPair.start()
    let (harness, first) = (pair.harness, pair.first)
    let progress = Progress()
    try await withTeardown({
      await pair.stop()
      await progress.restarted.withLock { $0 }?.stop()
    }) {
      let client = TaskClient(api: pair.balancer.base, token: try await annToken(harness))

      // The client: each add keeps its Idempotency-Key and is retried until it is acknowledged, as the app's outbox
      // does; it goes on until told to stop.
      let adding = Task {
        var index = 0
        while !progress.enough.withLock({ $0 }) && index < 5000 {
          index += 1
          let key = "restart-\(index)-\(UUID().uuidString)"
          let acknowledged = await eventually(timeout: .seconds(120), every: .milliseconds(100)) {
            (try? await client.add("task \(index)", key: key).status) == 204
          }
          try #require(acknowledged, "task \(index) was never acknowledged")
          progress.sent.withLock { $0 = index }
        }
        return index
      }
      // The restart: kill -9 the first instance mid-stream, then start it again on the same port; the client stops once
      // the restarted instance has taken adds too.
      let started = await eventually(timeout: .seconds(120)) { progress.sent.withLock { $0 } >= 5 }
      try #require(started, "the client did not get going")
      first.kill()
      #expect(await first.process.waitForExit(timeout: .seconds(30)) != nil)
      let again = try await TaskAPIProcess.start(
        database: pair.database, issuerMetadata: harness.policyMetadata, port: first.port)
      progress.restarted.withLock { $0 = again }
      let rejoined = await eventually(timeout: .seconds(120)) {
        let log = again.process.standardOutput + again.process.standardError
        return log.split(separator: "\n").filter { $0.contains("method=POST") }.count >= 3
      }
      progress.enough.withLock { $0 = true }
      let count = try await adding.value
      #expect(rejoined, "the restarted instance took no adds (nginx never went back to it)")
      #expect(try await texts(client) == (1...count).map { "task \($0)" })
    }
  }

  /// The playground, two instances on one new PostgreSQL database, and nginx in front of them.
  private struct BalancedPair {
    let harness: PlaygroundHarness
    let database: String
    let first: TaskAPIProcess
    let second: TaskAPIProcess
    let balancer: Balancer

    static func start() async throws -> BalancedPair {
      let harness = try await PlaygroundHarness.start()
      let database = try await PostgresServer.shared().createDatabase()
      // The first is restarted on its port (`restartUnderLoad`): a port of the tests' own range, which no client's
      // connection takes as its local port meanwhile (the kernel's ephemeral ports are above it).
      let first = try await TaskAPIProcess.start(
        database: database, issuerMetadata: harness.policyMetadata, port: try freeLoopbackPort())
      let second = try await TaskAPIProcess.start(database: database, issuerMetadata: harness.policyMetadata)
      let balancer = try await Balancer(upstreams: [first.port, second.port])
      return BalancedPair(harness: harness, database: database, first: first, second: second, balancer: balancer)
    }

    func stop() async {
      await balancer.stop()
      await first.stop()
      await second.stop()
      await harness.stop()
    }
  }

  /// What the restart test's client and its restarter share.
  private final class Progress: Sendable {
    /// The last add acknowledged.
    let sent = Mutex(0)
    /// Whether the client may stop.
    let enough = Mutex(false)
    let restarted = Mutex<TaskAPIProcess?>(nil)
  }

  @Test("a database whose list versions are not numbers: a list answers a plain 500, logged as unreadable, not down")
  func unreadableVersions() async throws {
    try await PlaygroundHarness.with { harness in
      let server = try await PostgresServer.shared()
      let database = try await server.createDatabase()
      let api = try await TaskAPIProcess.start(database: database, issuerMetadata: harness.policyMetadata)
      try await withTeardown({ await api.stop() }) {
        let client = TaskClient(api: api.base, token: try await annToken(harness))
        #expect(try await client.add("before").status == 204)
        #expect(try await texts(client) == ["before"], "the version reads' statement is prepared")
        let name = try #require(database.split(separator: "/").last.map(String.init))
        _ = try await server.psql(
          name,
          "ALTER TABLE owner_versions ALTER COLUMN version TYPE text; UPDATE owner_versions SET version = 'not a number'"
        )
        let listed = try await client.call("GET")
        #expect(listed.status == 500, "a list over unreadable versions answered \(listed.status)")
        #expect(!listed.text.contains("not a number"))
        #expect(try await Browser().get(api.base.appending(path: "ready")).status == 200)
        let log = api.process.standardOutput + api.process.standardError
        #expect(log.contains("answered rows it cannot read") && !log.contains("cannot be reached"), "\(log)")
      }
    }
  }

  @Test("/ready, adds and lists answer 503 while PostgreSQL is down and work once it is back; /health stays 200")
  func readiness() async throws {
    try await PlaygroundHarness.with { harness in
      let server = try await PostgresServer()
      let database = try await server.createDatabase()
      let api = try await TaskAPIProcess.start(database: database, issuerMetadata: harness.policyMetadata)
      try await withTeardown({
        await api.stop(); await server.remove()
      }) {
        let client = TaskClient(api: api.base, token: try await annToken(harness))
        #expect(try await client.add("before the outage").status == 204)
        #expect(try await texts(client) == ["before the outage"], "the list-version reads' connection opens")
        let browser = Browser()
        let ready = api.base.appending(path: "ready")
        #expect(try await browser.get(ready).status == 200)

        await server.stop()
        let down = await eventually(timeout: .seconds(60)) { (try? await browser.get(ready).status) == 503 }
        #expect(down, "/ready did not notice the database was gone")
        #expect(try await browser.get(api.base.appending(path: "health")).status == 200)
        let refused = try await client.add("during the outage")
        #expect(refused.status == 503, "an add while the database is down answered \(refused.status)")
        let listed = try await client.call("GET")
        #expect(listed.status == 503, "a list while the database is down answered \(listed.status)")

        try await server.start()
        let back = await eventually(timeout: .seconds(60)) { (try? await browser.get(ready).status) == 200 }
        #expect(back, "/ready did not notice the database was back")
        #expect(try await client.add("after the outage").status == 204)
        #expect(try await texts(client) == ["before the outage", "after the outage"])
      }
    }
  }
}

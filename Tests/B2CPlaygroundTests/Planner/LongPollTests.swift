// The change feed's long poll (`GET /api/v2/changes?since=…&wait=SECONDS`) on every host: an edit answers a waiting
// request before its wait ends, on PostgreSQL through another instance (NOTIFY) and after the notifications'
// connection was cut; a wait with nothing to tell ends empty; another account's edits never wake it; one account
// cannot hold more than its share of waiting requests.

import Foundation
import Synchronization
import TasksTestSupport
import Testing

@Suite("Task API v2: the long poll of the change feed", .serialized)
struct LongPollTests {
  /// Ann's feed token after a full read.
  private static func token(_ client: PlannerClient) async throws -> String {
    try #require(try await client.changes().answer["next"] as? String)
  }

  /// What a waiting request was answered: the tasks' titles, the next token, and how long it took.
  struct Answer: Sendable {
    let titles: [String]
    let next: String?
    let seconds: Double
  }

  /// A waiting request, started now on a connection of its own; with `retryingRefusal`, asked again while the
  /// account's waiting requests are full (a probe holds a place for a moment).
  private static func waiting(_ client: PlannerClient, since: String, wait: Int, retryingRefusal: Bool = false)
    -> Task<Answer, any Error>
  {
    let own = PlannerClient(api: client.api, token: client.token)
    return Task {
      let started = ContinuousClock.now
      var page: [String: Any]
      while true {
        do {
          page = try await own.changes(since: since, wait: wait).answer
          break
        } catch let refused as PlannerClient.Unexpected where retryingRefusal && refused.answer.status == 429 {
          // Asked again shortly: 32 waiters asking back at once would keep two busy CPUs from the requests that wait.
          try await Task.sleep(for: .milliseconds(50))
        }
      }
      let elapsed = ContinuousClock.now - started
      return Answer(
        titles: (page["tasks"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String },
        next: page["next"] as? String,
        seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
    }
  }

  @Test(
    "an edit answers a waiting request long before its wait ends; a wait with nothing new ends empty; another account's edit wakes nobody; a shared list's edit wakes its member",
    arguments: TaskAPIHost.allCases)
  func waitsForTheNextChange(host: TaskAPIHost) async throws {
    try await PlannerAPITests.withAPI(host) { harness, api in
      let ann = try await PlannerAPITests.client(harness, api.base)
      let bob = try await PlannerAPITests.client(harness, api.base, "bob@example.com", "Tasks-Demo-2")
      let list = try await ann.newList("Errands")
      let since = try await Self.token(ann)

      // Bad waits are refused, naming the field.
      for bad in ["-1", "281", "ten", "1e2", "99999"] {
        let answer = try await ann.call("GET", "/changes?since=\(since)&wait=\(bad)")
        #expect(answer.status == 400 && answer.text.contains("wait"), "wait=\(bad): \(answer.status) \(answer.text)")
      }
      // A token behind the position answers at once, as without wait.
      _ = try await ann.newTask(list, ["title": "Milk"])
      let behind = try await Self.waiting(ann, since: since, wait: 50).value
      #expect(behind.titles == ["Milk"] && behind.seconds < 50)
      let now = try #require(behind.next)

      // Nothing new: empty, with the same token, once the wait is over (and not before).
      let quiet = try await Self.waiting(ann, since: now, wait: 2).value
      #expect(quiet.seconds >= 1.9 && quiet.titles.isEmpty && quiet.next == now)

      // Waiting: Bob's private edit does not wake Ann, her own edit through another connection does.
      let annWaits = Self.waiting(ann, since: now, wait: 50)
      let bobsToken = try await Self.token(bob)
      let bobWaits = Self.waiting(bob, since: bobsToken, wait: 4)
      let bobsList = try await bob.newList("Bob's own")
      _ = try await bob.newTask(bobsList, ["title": "Secret of Bob"])
      _ = try await ann.newTask(list, ["title": "Bread"])
      let woken = try await annWaits.value
      #expect(woken.titles == ["Bread"], "\(woken.titles)")
      #expect(woken.seconds < 45, "the edit did not end the wait: \(woken.seconds) s")
      // Bob's own waiter was woken by his edits, not Ann's: his answer holds his list only.
      let bobs = try await bobWaits.value
      #expect(!bobs.titles.contains("Bread") && !bobs.titles.contains("Milk"), "\(bobs.titles)")

      // A list Bob joins wakes him for Ann's edits in it; the answer carries the shared task and nothing of Ann's
      // other lists.
      let shared = try await ann.newList("Shared")
      let code = try #require(try await ann.object("POST", "/lists/\(shared)/invitations")["code"] as? String)
      #expect(try await bob.join(code).status == 200)
      let bobNow = try await Self.token(bob)
      let bobShared = Self.waiting(bob, since: bobNow, wait: 50)
      _ = try await ann.newTask(list, ["title": "Not for Bob"])
      _ = try await ann.newTask(shared, ["title": "For both"])
      let sharedAnswer = try await bobShared.value
      #expect(sharedAnswer.titles == ["For both"], "\(sharedAnswer.titles)")
      #expect(sharedAnswer.seconds < 45)
    }
  }

  @Test("one account holds at most 32 waiting requests: the next gets 429 with Retry-After; an edit answers them all")
  func limitPerAccount() async throws {
    try await PlannerAPITests.withAPI(.playground) { harness, api in
      let ann = try await PlannerAPITests.client(harness, api.base)
      let list = try await ann.newList("Errands")
      let since = try await Self.token(ann)
      let waiters = (0..<32).map { _ in Self.waiting(ann, since: since, wait: 55, retryingRefusal: true) }
      // Once the 32 wait, the 33rd is refused (until then it may be one of the 32, and a waiter it kept out is
      // asked again).
      var refused: HTTPAnswer?
      let full = await eventually(timeout: .seconds(40)) {
        guard let answer = try? await ann.call("GET", "/changes?since=\(since)&wait=1") else { return false }
        refused = answer
        return answer.status == 429
      }
      #expect(full && refused?.headers["retry-after"] == "5", "\(refused?.status ?? 0) \(refused?.text ?? "")")
      _ = try await ann.newTask(list, ["title": "Wake up"])
      for waiter in waiters {
        let woken = try await waiter.value
        #expect(woken.titles == ["Wake up"] && woken.seconds < 50)
      }
      // They have all left: Ann may wait again.
      let next = try #require(try await ann.changes(since: since).answer["next"] as? String)
      #expect(try await ann.call("GET", "/changes?since=\(next)&wait=1").status == 200)
    }
  }

  @Test(
    "SIGTERM answers the waiting requests at once (nothing changed) and the service ends: a long poll never holds up a shutdown",
    arguments: [TaskAPIHost.service, .postgres])
  func shutdownAnswersWaiters(host: TaskAPIHost) async throws {
    // At debug level the service logs each request as it starts: the test signals once all three have.
    try await PlannerAPITests.withAPI(host, arguments: ["--log-level", "debug"]) { harness, api in
      let process = try #require(api.process)
      let ann = try await PlannerAPITests.client(harness, api.base)
      let since = try await Self.token(ann)
      let waiters = (0..<3).map { _ in Self.waiting(ann, since: since, wait: 250, retryingRefusal: true) }
      // Once the service has all three (a request it has begun is answered before it ends; one the client had not
      // yet sent would meet a closed port: a busy machine can start a waiter's task late).
      let arrived = await eventually(timeout: .seconds(120)) {
        process.process.standardError.split(separator: "\n").count {
          $0.contains("request started") && $0.contains("wait=250")
        } == 3
      }
      try #require(arrived, "the three waiting requests did not reach the service: \(process.process.standardError)")
      process.terminate()
      let ended = await process.process.waitForExit(timeout: .seconds(60))
      #expect(
        ended == 0, "b2c-tasks-api did not end on SIGTERM with requests waiting: \(process.process.standardError)")
      for waiter in waiters {
        let answer = try await waiter.value
        #expect(answer.titles.isEmpty && answer.next == since && answer.seconds < 200)
      }
    }
  }

  @Test(
    "PostgreSQL, two instances: an edit through one answers a request waiting on the other (NOTIFY), also after the notifications' connection was cut"
  )
  func acrossInstances() async throws {
    let harness = try await PlaygroundHarness.start()
    let server = try await PostgresServer.shared()
    let database = try await server.createDatabase()
    let first = try await TaskAPIProcess.start(database: database, issuerMetadata: harness.policyMetadata)
    let second = try await TaskAPIProcess.start(database: database, issuerMetadata: harness.policyMetadata)
    try await withTeardown({
      await first.stop()
      await second.stop()
      await harness.stop()
    }) {
      let annOnFirst = try await PlannerAPITests.client(harness, first.base)
      let annOnSecond = PlannerClient(api: second.base, token: annOnFirst.token)
      let list = try await annOnFirst.newList("Errands")
      let name = try #require(database.split(separator: "/").last.map(String.init))
      for round in 1...3 {
        let since = try await Self.token(annOnFirst)
        let waiting = Self.waiting(annOnFirst, since: since, wait: 50)
        if round == 3 {
          // Cut every listening connection (both instances'): each connects again, and the requests waiting
          // meanwhile read their position again (the notifications of the gap are lost).
          let cut = try await server.psql(
            name,
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%'"
          )
          #expect((Int(cut) ?? 0) >= 1, "no listening connection was found: \(cut)")
        }
        _ = try await annOnSecond.newTask(list, ["title": "Round \(round)"])
        let woken = try await waiting.value
        #expect(woken.titles == ["Round \(round)"], "round \(round): \(woken.titles)")
        #expect(woken.seconds < 45, "round \(round): the other instance's edit did not end the wait")
      }
      // Both listen again after the cut.
      let listening = await eventually(timeout: .seconds(30)) {
        let count = try? await server.psql(
          name, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%'")
        return count == "2"
      }
      #expect(listening, "the instances did not listen again")
    }
  }
}

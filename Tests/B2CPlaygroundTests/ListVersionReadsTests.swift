// ListVersionReadsTests: list-version reads shared by concurrent list requests, never stale.

import Foundation
import Synchronization
import TasksTestSupport
import Testing

@testable import TaskService

extension ListVersionReads {
  /// Reads through an `async` function, each read in a task of its own.
  convenience init(asyncRead: @escaping @Sendable ([String]) async throws -> [String: Int64]) {
    self.init { owners, completion in
      Task {
        do { completion(.success(try await asyncRead(owners))) } catch { completion(.failure(error)) }
      }
    }
  }
}

@Suite("List versions read together for concurrent list requests")
struct ListVersionReadsTests {
  /// A database whose reads see its versions as they were when the read started, and finish only when released.
  final class HeldDatabase: Sendable {
    private struct State {
      var versions: [String: Int64] = [:]
      var reads: [[String]] = []
      var held: [CheckedContinuation<Void, Never>] = []
      var failNext = false
    }
    private let state = Mutex(State())

    func set(_ owner: String, _ version: Int64) { state.withLock { $0.versions[owner] = version } }
    func failNextRead() { state.withLock { $0.failNext = true } }
    var reads: [[String]] { state.withLock { $0.reads } }
    var heldCount: Int { state.withLock { $0.held.count } }

    /// Lets the oldest held read finish.
    func releaseOne() {
      let next = state.withLock { $0.held.isEmpty ? nil : $0.held.removeFirst() }
      next?.resume()
    }

    func read(_ owners: [String]) async throws -> [String: Int64] {
      let (snapshot, fail) = state.withLock { state in
        state.reads.append(owners.sorted())
        defer { state.failNext = false }
        return (state.versions.filter { owners.contains($0.key) }, state.failNext)
      }
      await withCheckedContinuation { continuation in state.withLock { $0.held.append(continuation) } }
      if fail { throw TaskStoreUnavailable() }
      return snapshot
    }
  }

  /// Starts `version(owner:)` in a task of its own.
  func ask(_ reads: ListVersionReads, _ owner: String) -> Task<Int64, any Error> {
    Task { try await reads.version(owner: owner) }
  }

  @Test("a request that arrives while a read is under way is answered by the next read, which sees later changes")
  func neverStale() async throws {
    let database = HeldDatabase()
    let reads = ListVersionReads(asyncRead: { try await database.read($0) })
    database.set("ann", 1)
    let first = ask(reads, "ann")
    try #require(await eventually { database.heldCount == 1 })
    // Ann adds a task (committed after the first read started), then lists again.
    database.set("ann", 2)
    let second = ask(reads, "ann")
    try #require(await eventually { reads.waitingCount == 1 })
    database.releaseOne()
    #expect(try await first.value == 1, "the first request sees what was there when it asked")
    try #require(await eventually { database.heldCount == 1 })
    database.releaseOne()
    #expect(try await second.value == 2, "the second request never gets the older read's answer")
    #expect(database.reads == [["ann"], ["ann"]])
  }

  @Test("requests that arrive during one read share the next, whatever their owners; an unknown owner is 0")
  func shared() async throws {
    let database = HeldDatabase()
    let reads = ListVersionReads(asyncRead: { try await database.read($0) })
    database.set("ann", 3)
    database.set("bob", 7)
    let first = ask(reads, "ann")
    try #require(await eventually { database.heldCount == 1 })
    let owners = (0..<12).map { ["ann", "bob", "carol"][$0 % 3] }
    let waiting = owners.map { ask(reads, $0) }
    try #require(await eventually { reads.waitingCount == 12 })
    database.releaseOne()
    try #require(await eventually { database.heldCount == 1 })
    database.releaseOne()
    #expect(try await first.value == 3)
    for (owner, task) in zip(owners, waiting) {
      #expect(try await task.value == ["ann": 3, "bob": 7, "carol": 0][owner])
    }
    #expect(database.reads == [["ann"], ["ann", "bob", "carol"]], "thirteen requests, two reads")
  }

  @Test("a failed read fails the requests it was for, and the next requests read again")
  func failure() async throws {
    let database = HeldDatabase()
    let reads = ListVersionReads(asyncRead: { try await database.read($0) })
    database.set("ann", 5)
    database.failNextRead()
    let failing = ask(reads, "ann")
    try #require(await eventually { database.heldCount == 1 })
    database.releaseOne()
    await #expect(throws: TaskStoreUnavailable.self) { try await failing.value }
    let next = ask(reads, "ann")
    try #require(await eventually { database.heldCount == 1 })
    database.releaseOne()
    #expect(try await next.value == 5)
  }

  @Test("a read that completes before it returns (a database's own thread can) answers everyone, read after read")
  func completedInside() async throws {
    let count = Mutex(0)
    let reads = ListVersionReads { owners, completion in
      let number = count.withLock { count in
        count += 1
        return Int64(count)
      }
      completion(.success(Dictionary(uniqueKeysWithValues: owners.map { ($0, number) })))
    }
    let answers = try await withThrowingTaskGroup(of: Int64.self) { group in
      for index in 0..<200 { group.addTask { try await reads.version(owner: "owner \(index % 7)") } }
      return try await group.reduce(into: [Int64]()) { $0.append($1) }
    }
    #expect(answers.count == 200 && answers.allSatisfy { $0 >= 1 })
    let before = count.withLock { $0 }
    #expect(try await reads.version(owner: "ann") == before + 1, "a later request starts a read of its own")
    #expect(reads.waitingCount == 0)
  }
}

// ListVersionReads: the list-version checks of concurrent list requests, read from the database together. Sendable.

import Synchronization

/// Reads list versions for many requests in one query: while one read is under way, the requests that arrive wait
/// and are read together in the next one, whatever their owners.
///
/// Never stale: every request is answered by a read that *started after it arrived*, so a change committed before a
/// list request (through this instance or any other) is always seen. Under load one query answers many requests
/// (the database's round trip, and the thread switches around it, were most of a cached list request's cost);
/// alone, a request waits for one read as before.
final class ListVersionReads: Sendable {
  /// Reads the versions of a set of owners (an owner without tasks may be left out: 0).
  typealias Read = @Sendable ([String]) async throws -> [String: Int64]

  private struct Waiter {
    let owner: String
    let continuation: CheckedContinuation<Int64, any Error>
  }
  private struct State {
    var reading = false
    var waiting: [Waiter] = []
  }
  private let state = Mutex(State())
  private let read: Read

  init(read: @escaping Read) { self.read = read }

  /// How many requests wait for the next read.
  var waitingCount: Int { state.withLock { $0.reading ? $0.waiting.count : 0 } }

  /// The owner's list version, from a read that starts after this call.
  func version(owner: String) async throws -> Int64 {
    try await withCheckedThrowingContinuation { continuation in
      let start = state.withLock { state in
        state.waiting.append(Waiter(owner: owner, continuation: continuation))
        guard !state.reading else { return false }
        state.reading = true
        return true
      }
      // A task of its own, not the request's: a request whose client goes away must not cancel the others' read.
      if start { Task { await self.readWhileWaiting() } }
    }
  }

  /// Reads for everyone waiting, again and again, until nobody is.
  private func readWhileWaiting() async {
    while true {
      let batch = state.withLock { state in
        defer { state.waiting = [] }
        if state.waiting.isEmpty { state.reading = false }
        return state.waiting
      }
      if batch.isEmpty { return }
      var owners = Set<String>()
      for waiter in batch { owners.insert(waiter.owner) }
      do {
        let versions = try await read(Array(owners))
        for waiter in batch { waiter.continuation.resume(returning: versions[waiter.owner] ?? 0) }
      } catch {
        for waiter in batch { waiter.continuation.resume(throwing: error) }
      }
    }
  }
}

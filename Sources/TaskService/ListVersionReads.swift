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
  /// Starts reading the versions of a set of owners (an owner without tasks may be left out: 0) and calls its
  /// completion once, on any thread. A completion, not `async`: the next read starts from where the last one
  /// finished (a database's own thread or event loop), without a hop through Swift's executor in between.
  typealias Read = @Sendable ([String], @escaping @Sendable (Result<[String: Int64], any Error>) -> Void) -> Void

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
      // Not in the request's task: a request whose client goes away must not cancel the others' read.
      if start { readWhileWaiting() }
    }
  }

  /// Reads for everyone waiting; when the read is done, reads again for those who came meanwhile, until nobody is.
  private func readWhileWaiting() {
    while true {
      let batch = state.withLock { state in
        defer { state.waiting = [] }
        if state.waiting.isEmpty { state.reading = false }
        return state.waiting
      }
      if batch.isEmpty { return }
      var owners = Set<String>()
      for waiter in batch { owners.insert(waiter.owner) }
      // A read that completes before `read` returns goes round this loop instead of nesting a call per read.
      let call = ReadCall()
      read(Array(owners)) { result in
        switch result {
        case .success(let versions):
          for waiter in batch { waiter.continuation.resume(returning: versions[waiter.owner] ?? 0) }
        case .failure(let error):
          for waiter in batch { waiter.continuation.resume(throwing: error) }
        }
        if !call.completedInside() { self.readWhileWaiting() }
      }
      guard call.returned() else { return }
    }
  }

  /// Whether a read's completion came while `read` was still running (then the loop reads next) or after.
  private final class ReadCall: Sendable {
    private enum Phase { case running, completedInside, returned }
    private let phase = Mutex(Phase.running)

    /// From the completion: true if `read` has not returned yet.
    func completedInside() -> Bool {
      phase.withLock { phase in
        guard phase == .running else { return false }
        phase = .completedInside
        return true
      }
    }

    /// When `read` returns: true if its completion already came.
    func returned() -> Bool {
      phase.withLock { phase in
        if phase == .completedInside { return true }
        phase = .returned
        return false
      }
    }
  }
}

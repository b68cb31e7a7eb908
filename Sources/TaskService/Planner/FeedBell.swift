// FeedBell: the change feed's long poll (`GET /api/v2/changes?since=…&wait=SECONDS`): the requests waiting for a
// member's next change, and the bell the database rings when a member's feed position moves. Sendable.

import Synchronization

/// The feed requests waiting for a change, by member. The store rings it with the members whose feed position moved
/// once their change is committed (SQLite: a temporary trigger on the writer's connection, rung after the commit;
/// PostgreSQL: `NOTIFY` from a trigger, heard by every instance). A ring is only a hint: a woken request reads the
/// member's position again, so a ring too early, twice or for nothing costs one shared one-row read, and a request
/// registers before it reads the position, so that no change between the read and the wait goes unheard.
public final class FeedBell: Sendable {
  /// The most requests one member may have waiting at once (the member's devices and windows); more get 429.
  public let limitPerMember: Int

  private struct State {
    var waiting: [String: [ObjectIdentifier: Waiter]] = [:]
    var count = 0
  }
  private let state = Mutex(State())

  public init(limitPerMember: Int = 32) {
    self.limitPerMember = limitPerMember
  }

  /// How many requests wait now.
  public var waitingCount: Int { state.withLock { $0.count } }

  /// A waiter for `member`'s next ring, or nil when the member has `limitPerMember` waiting already. Call
  /// `leave` when done with it.
  func enter(member: String) -> Waiter? {
    let waiter = Waiter(member: member)
    return state.withLock { state in
      guard state.waiting[member, default: [:]].count < limitPerMember else { return nil }
      state.waiting[member, default: [:]][ObjectIdentifier(waiter)] = waiter
      state.count += 1
      return waiter
    }
  }

  func leave(_ waiter: Waiter) {
    state.withLock { state in
      guard state.waiting[waiter.member]?.removeValue(forKey: ObjectIdentifier(waiter)) != nil else { return }
      state.count -= 1
      if state.waiting[waiter.member]?.isEmpty == true { state.waiting[waiter.member] = nil }
    }
  }

  /// Wakes the requests waiting for any of `members` (their positions moved, and the move is committed).
  public func ring<Members: Sequence<String>>(_ members: Members) {
    let woken = state.withLock { state in members.flatMap { state.waiting[$0].map { Array($0.values) } ?? [] } }
    for waiter in woken { waiter.ring() }
  }

  /// Wakes every waiting request (rings may have been missed: the notifications' connection was lost).
  public func ringAll() {
    for waiter in state.withLock({ $0.waiting.values.flatMap(\.values) }) { waiter.ring() }
  }

  /// One waiting request: a ring that comes while it is not waiting is kept for its next wait.
  final class Waiter: Sendable {
    let member: String
    private struct State {
      var rung = false
      var closed = false
      var continuation: CheckedContinuation<Void, Never>?
    }
    private let state = Mutex(State())

    init(member: String) {
      self.member = member
    }

    /// Whether `close` was called: the request answers now, with what it has.
    var isClosed: Bool { state.withLock { $0.closed } }

    /// Ends the wait for good (the service is shutting down: a request waiting minutes would hold it up).
    func close() {
      state.withLock { $0.closed = true }
      ring()
    }

    func ring() {
      let waiting = state.withLock { state in
        guard let continuation = state.continuation else {
          state.rung = true
          return CheckedContinuation<Void, Never>?.none
        }
        state.continuation = nil
        return continuation
      }
      waiting?.resume()
    }

    /// Waits for a ring (at once if one came since the last wait) or `deadline`: answers whether it was rung.
    func wait(until deadline: ContinuousClock.Instant) async -> Bool {
      await withTaskGroup(of: Bool.self) { group in
        group.addTask { await self.rung() }
        group.addTask {
          try? await Task.sleep(until: deadline, clock: .continuous)
          return false
        }
        let first = await group.next() ?? false
        group.cancelAll()
        return first
      }
    }

    /// Returns true once rung, false when cancelled first.
    private func rung() async -> Bool {
      await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          let now = state.withLock { state in
            if state.rung {
              state.rung = false
              return true
            }
            state.continuation = continuation
            return false
          }
          if now { continuation.resume() }
        }
        return !Task.isCancelled
      } onCancel: {
        ring()
      }
    }
  }
}

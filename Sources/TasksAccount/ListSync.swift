// ListSync: the task list's fetches: when, what was last saved offline, and the automatic retry while the task
// service cannot be reached. Main actor.

import FoundationEssentials
import TasksCore

/// What the account knows of its fetches of the list: when the last one was, whether one is under way (a live
/// refresh asks at most so often), the list last written to the offline copy (a refresh that brings the same list
/// writes nothing), the server's last list with its version (a refresh asks for it only if it changed), and the
/// automatic retry while the task service cannot be reached: after 5 s, then twice as long each time (at most 5 min),
/// and at once when the network changes.
@MainActor
final class ListSync {
  var savedList: [TaskItem]?
  /// The last list the server sent, with its version: the next fetch asks for it only if it changed.
  var knownList: KnownList?
  var lastFetch: ContinuousClock.Instant?
  var fetching = false
  /// What a retry does (a quiet refresh of the list).
  var retry: @MainActor () async -> Void = {}
  private var retryTask: Task<Void, Never>?
  private var retryDelay: Duration = .seconds(5)
  private var watchingNetwork = false
  private unowned let host: any AccountHost

  init(host: any AccountHost) {
    self.host = host
  }

  /// Whether a retry waits.
  var isRetrying: Bool { retryTask != nil }

  /// Tries again after the next wait, unless a retry is already waiting.
  func scheduleRetry() {
    guard retryTask == nil else { return }
    watchNetwork()
    let delay = retryDelay
    retryDelay = min(retryDelay * 2, .seconds(300))
    retryTask = Task { [weak self] in
      try? await Task.sleep(for: delay)
      guard let self, !Task.isCancelled else { return }
      self.retryTask = nil
      await self.retry()
    }
  }

  /// The service answered (or nobody is signed in any more): no more retries, and the next outage starts again at
  /// 5 s.
  func stopRetrying() {
    retryTask?.cancel()
    retryTask = nil
    retryDelay = .seconds(5)
  }

  /// Forgets the account's lists (signed out).
  func reset() {
    stopRetrying()
    savedList = nil
    knownList = nil
    lastFetch = nil
  }

  private func watchNetwork() {
    guard !watchingNetwork else { return }
    watchingNetwork = true
    host.onNetworkChange { [weak self] in
      guard let self, self.retryTask != nil else { return }
      self.retryTask?.cancel()
      self.retryTask = nil
      Task { await self.retry() }
    }
  }
}

// AccountHost, SyncRetry: what the account asks of the application (the app implements it with GLib, the tests
// headless), and the automatic retry while the task service cannot be reached. Main actor.

import FoundationEssentials
import TasksCore

/// What the account asks of the application: to keep running while a request must not be cut short, work that can
/// wait until the window is drawn, the network's state, and a debug log.
@MainActor
public protocol AccountHost: AnyObject {
  /// Keeps the application running until the answer is called.
  func holdApplication() -> @MainActor () -> Void
  /// Runs `body` once nothing more urgent is to be done (after the window is drawn).
  func whenIdle(_ body: @escaping @MainActor () async -> Void)
  /// Whether the computer has a network at all.
  var networkAvailable: Bool { get }
  /// Calls `body` whenever the network changes.
  func onNetworkChange(_ body: @escaping @MainActor () -> Void)
  /// Writes a debug line (never a secret).
  func debug(_ message: String)
}

/// The automatic retry while the task service cannot be reached: after 5 s, then twice as long each time (at most
/// 5 min), and at once when the network changes (also when it changed while a retry was under way, which then
/// failed: the next one goes at once).
@MainActor
final class SyncRetry {
  /// What a retry does (a quiet refresh).
  var retry: @MainActor () async -> Void = {}
  private var retryTask: Task<Void, Never>?
  private var retryDelay: Duration = .seconds(5)
  private var watchingNetwork = false
  /// The network changed while no retry was waiting (one under way, say).
  private var networkChanged = false
  private weak var host: (any AccountHost)?

  init(host: any AccountHost) {
    self.host = host
  }

  /// Whether a retry waits.
  var isWaiting: Bool { retryTask != nil }

  /// Tries again after the next wait, unless a retry is already waiting.
  func schedule() {
    guard retryTask == nil else { return }
    watchNetwork()
    let delay = networkChanged ? .zero : retryDelay
    networkChanged = false
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
  func stop() {
    retryTask?.cancel()
    retryTask = nil
    retryDelay = .seconds(5)
    networkChanged = false
  }

  private func watchNetwork() {
    guard !watchingNetwork, let host else { return }
    watchingNetwork = true
    host.onNetworkChange { [weak self] in
      guard let self else { return }
      guard self.retryTask != nil else { return self.networkChanged = true }
      self.retryTask?.cancel()
      self.retryTask = nil
      Task { await self.retry() }
    }
  }
}

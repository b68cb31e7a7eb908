// BrokerSignIn: a sign-in the broker asked for, followed in the window until it ends. Main actor.

import FoundationEssentials
import TasksCore

/// Waits for a sign-in the user makes in the window: it ends with the account when the session is signed in, and
/// with nil when the user goes back to the welcome page from a sign-in page (Cancel, Escape) or closes the window.
@MainActor
final class BrokerSignIn {
  private var continuation: CheckedContinuation<Account?, Never>?
  private var watch: Task<Void, Never>?
  private var sawSignInPage = false

  /// Waits on `session`; the window reports its pages through `page(_:)`.
  func wait(for session: Session) async -> Account? {
    await withCheckedContinuation { continuation in
      self.continuation = continuation
      watch = Task { [weak self] in
        for await state in await session.updates() {
          if case .signedIn(let account) = state { self?.finish(account) }
        }
      }
    }
  }

  /// The window showed `page` (nil: it closed). Answers whether the wait is over.
  func page(_ page: WindowPage?) -> Bool {
    switch page {
    case nil: finish(nil)
    case .signIn?, .browser?, .signInFailed?: sawSignInPage = true
    case .welcome?: if sawSignInPage { finish(nil) }
    default: break
    }
    return continuation == nil
  }

  private func finish(_ account: Account?) {
    watch?.cancel()
    continuation?.resume(returning: account)
    continuation = nil
  }
}

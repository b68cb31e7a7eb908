// AccountController: the window's account side: the session, each account's files, sign-in in the window or the
// browser, sign-out, switching accounts, Edit Profile. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore
import TasksLoopback

/// Runs the account flows for a window: restores the session at start, signs in (in the window's web view or the
/// system browser), signs out every app of the keychain group, switches accounts (the current session stays until
/// the new one is signed in) and keeps each account's outbox and offline copy. It tells the window (`ui`, through
/// `AccountWindow`) which page and toasts to show, and the list (`tasks`) what to load or forget.
@MainActor
final class AccountController {
  let session: Session
  let signIn: SignInController
  private unowned let ui: any AccountWindow
  private let tasks: TaskListSession
  /// The signed-in account's outbox and offline copy.
  private var currentFiles: AccountFiles?

  init(ui: any AccountWindow, session: Session, signIn: SignInController, tasks: TaskListSession) {
    self.ui = ui
    self.session = session
    self.signIn = signIn
    self.tasks = tasks
    signIn.onFinished = { [unowned self] step in self.signInFinished(step) }
  }

  /// Cancels the sign-in on screen (Escape, Cancel): back to the list when someone is still signed in.
  func cancelSignIn() {
    Task {
      await signIn.cancel()
      await leaveSignIn()
    }
  }

  /// Shows what the start-up load brought: the list (the offline copy first if the server's is still on its way),
  /// the sign-in page for a session that has ended, or the welcome page.
  func start(_ startup: StartupLoad) async {
    let session = startup.session
    Task {
      for await state in await session.updates() { self.ui.stateChanged(state) }
    }
    switch await startup.restored.value {
    case .success(let restored?):
      currentFiles = restored.files
      await tasks.showAtStart(restored, list: startup.list, listIsReady: startup.listIsReady)
    case .success(nil):
      if case .needsSignIn(let account) = await session.state {
        sessionEnded(account)
      } else {
        ui.show(.welcome)
      }
    case .failure(let error):
      keyringFailed(error)
    }
  }

  /// The keyring could not be read (locked and not unlocked, say): the welcome page, and a Retry that asks again.
  private func keyringFailed(_ error: SessionError) {
    ui.show(.welcome)
    ui.showToast(error.message, aboutList: false) { [unowned self] in
      Task {
        do throws(SessionError) {
          if try await self.session.restore() != nil { await self.tasks.reload() }
        } catch {
          self.keyringFailed(error)
        }
      }
    }
  }

  /// The session can no longer be refreshed: sign in again, as the same user; the outbox stays for then.
  func sessionEnded(_ account: Account?) {
    ui.showToast(tr("Your sign-in has ended. Please sign in again."))
    startSignIn(loginHint: account?.email)
  }

  func startSignIn(editProfile: Bool = false, prompt: String? = nil, loginHint: String? = nil) {
    ui.show(.signIn)
    Task {
      let started = await signIn.start(
        editProfile: editProfile, persistent: ui.keepsSignedIn, prompt: prompt, loginHint: loginHint)
      if case .failure(let error) = started { ui.showSignInFailure(error) }
    }
  }

  func startBrowserSignIn() {
    ui.show(.browser)
    Task {
      let timeout = ui.browserSignInTimeout ?? LoopbackListener.defaultTimeout
      if case .failure(let error) = await signIn.startInBrowser(
        parent: ui.parentWindow, timeout: timeout, keepSignedIn: ui.keepsSignedIn)
      {
        ui.showSignInFailure(error)
      }
    }
  }

  func signInFinished(_ step: SignInStep) {
    switch step {
    case .signedIn(let account), .profileUpdated(let account):
      b2c_debug("sign-in: the tokens are checked and in the keyring")
      if let previous = currentFiles, previous.objectID != account.objectID {
        // Switched to another account: the previous one's offline copy goes, as at sign-out (its outbox stays).
        currentFiles = nil
        tasks.clear()
        Task { await previous.cache.remove() }
      }
      ui.present()
      ui.show(.loading)
      Task {
        await tasks.reload()
        if case .profileUpdated = step { ui.showToast(tr("Profile saved")) }
        if case .signedIn = step, await session.passwordChanged { ui.showToast(tr("Password changed")) }
      }
    case .cancelled:
      Task { await leaveSignIn() }
    case .failed(let error):
      ui.showSignInFailure(error)
    case .notOurs, .load:
      break
    }
  }

  /// Back from a cancelled flow: to the list when someone is still signed in (Edit Profile), else to the welcome
  /// page.
  private func leaveSignIn() async {
    if await session.account != nil { ui.showTasksPage() } else { ui.show(.welcome) }
  }

  /// Switch Account: a sign-in that asks for a password even if B2C remembers someone. The current session stays
  /// (and Cancel goes back to its list) until the new sign-in succeeds and replaces it.
  func switchAccount() {
    Task {
      await tasks.finishPendingWork()?.value  // a pending delete goes out under the current account
      startSignIn(prompt: "login")
    }
  }

  /// Signs out every app of the keychain group, forgets B2C's cookies and the offline copy; the outbox stays on
  /// disk for when this user signs in again.
  @discardableResult
  func signOut() -> Task<Void, Never> {
    Task {
      await tasks.finishPendingWork()?.value  // the delete goes out while the session can still send it
      let cache = currentFiles?.cache
      let logout: Session.Logout?
      do throws(SessionError) {
        logout = try await session.signOut()
      } catch {
        ui.showToast(error.message)
        return
      }
      await forgetSignIn(cache)
      // A sign-in made in the browser left the provider's session there: end it there too.
      if let logout, logout.inBrowser, let reason = signIn.openInBrowser(logout.url, parent: ui.parentWindow) {
        ui.showToast(String(template: tr("No web browser could be opened (%@)."), reason))
      }
    }
  }

  /// Another app of the keychain group signed out: this window is signed out too, and forgets what its own Sign Out
  /// forgets (the next Sign In asks for the password again); the outbox stays for this user's next sign-in.
  func signedOutElsewhere() {
    Task {
      await forgetSignIn(currentFiles?.cache)
      ui.showToast(SessionError.signedOutElsewhere.message)
    }
  }

  /// What a sign-out forgets on this computer: the offline copy, the provider's cookies; then the welcome page.
  private func forgetSignIn(_ cache: TaskCache?) async {
    currentFiles = nil
    await cache?.remove()
    signIn.clearWebsiteData()
    tasks.clear()
    ui.show(.welcome)
  }

  /// The outbox and offline copy of `account` (each account has its own).
  func files(for account: Account) -> AccountFiles {
    if let currentFiles, currentFiles.objectID == account.objectID { return currentFiles }
    let files = AccountFiles(account: account, in: session.key)
    currentFiles = files
    return files
  }
}

/// One account's files: the outbox of tasks waiting to be sent and the offline copy of the list.
struct AccountFiles: Sendable {
  let objectID: String
  let outbox: Outbox
  let cache: TaskCache

  init(account: Account, in key: SessionKey) {
    objectID = account.objectID
    outbox = Outbox(file: Outbox.file(for: account, in: key))
    cache = TaskCache(account: account, in: key)
  }
}

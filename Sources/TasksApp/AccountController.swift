// AccountController: the window's account side: sign-in in the window or the browser, Sign Out, Switch Account, Edit
// Profile, and the start of a window on the application's account. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksAccount
import TasksCore
import TasksLoopback

/// Runs the account flows a window shows: the start (the list restored from the keyring, or the welcome page), a
/// sign-in (in the window's web view or the system browser), Sign Out (the account's one sign-out, `AccountSession`),
/// switching accounts (the current session stays until the new one is signed in) and Edit Profile. The account
/// itself, its files and its list are the application's (`account`); this tells the window (`ui`, through
/// `AccountWindow`) which page and toasts to show.
@MainActor
final class AccountController {
  let account: AccountSession
  let signIn: SignInController
  private unowned let ui: any AccountWindow

  var session: Session { account.session }

  init(ui: any AccountWindow, account: AccountSession, signIn: SignInController) {
    self.ui = ui
    self.account = account
    self.signIn = signIn
    signIn.onFinished = { [unowned self] step in self.signInFinished(step) }
    // A first read's first pages leave the loading page (`showLists`).
    account.planner.onPreview = { [weak self] in
      if let self, self.ui.page == .loading { self.ui.show(.tasks) }
    }
  }

  /// Cancels the sign-in on screen (Escape, Cancel): back to the list when someone is still signed in.
  func cancelSignIn() {
    Task {
      await signIn.cancel()
      await leaveSignIn()
    }
  }

  /// Shows what the start-up load brought: the lists (the copy on disk first, then the service's), the sign-in page
  /// for a session that has ended, or the welcome page.
  func start(_ startup: StartupLoad) async {
    Task {
      for await state in await session.updates() { self.ui.stateChanged(state) }
    }
    switch await startup.restored.value {
    case .success(let restored?):
      account.adopt(restored.files)
      account.planner.adopt(restored.saved)
      showLists()
    case .success(nil):
      if case .needsSignIn(let signedOut) = await session.state {
        sessionEnded(signedOut)
      } else {
        account.foundNoSession()
        ui.show(.welcome)
      }
    case .failure(let error):
      keyringFailed(error)
    }
  }

  /// The keyring could not be read (locked and not unlocked, say): the welcome page, and a Retry that asks again.
  private func keyringFailed(_ error: SessionError) {
    ui.show(.welcome)
    ui.showToast(error.message) { [unowned self] in
      Task {
        do throws(SessionError) {
          if try await self.session.restore() != nil { self.showLists() }
        } catch {
          self.keyringFailed(error)
        }
      }
    }
  }

  /// The session can no longer be refreshed: sign in again, as the same user; the outbox stays for then.
  func sessionEnded(_ signedOut: Account?) {
    ui.showToast(tr("Your sign-in has ended. Please sign in again."))
    startSignIn(loginHint: signedOut?.email)
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
    case .signedIn(let signedIn), .profileUpdated(let signedIn):
      b2c_debug("sign-in: the tokens are checked and in the keyring")
      ui.present()
      ui.show(.loading)
      Task {
        await account.signedIn(signedIn)
        showLists()
        if case .profileUpdated = step { ui.showToast(tr("Profile saved")) }
        if case .signedIn = step, await session.passwordChanged { ui.showToast(tr("Password changed")) }
        if case .signedIn(let who) = step, await session.signedInWithBrowser {
          // Said plainly: the browser's sign-in could have been finished by someone else's account.
          ui.showToast(String(template: tr("Signed in as %@"), who.nameAndEmail))
        }
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
  /// page, and a sign-in the broker waits for is given up.
  private func leaveSignIn() async {
    if await session.account != nil {
      ui.show(.tasks)
    } else {
      ui.show(.welcome)
      account.signInAbandoned()
    }
  }

  /// Switch Account: a sign-in that asks for a password even if B2C remembers someone. The current session stays
  /// (and Cancel goes back to its list) until the new sign-in succeeds and replaces it.
  func switchAccount() {
    account.planner.soon { [weak self] planner in
      await planner.finishPendingWork()  // a pending delete goes out under the current account
      self?.startSignIn(prompt: "login")
    }
  }

  /// Sign Out: the account's one sign-out (every app of the keychain group; the window shows the welcome page when it
  /// is done); a sign-in made in the browser is ended there too. What waits is sent first; what cannot be sent (the
  /// service cannot be reached) would be discarded with the account's files, so the user is asked first.
  @discardableResult
  func signOut() -> Task<Void, Never> {
    Task {
      let waiting = await account.waitingAfterSending()
      if waiting > 0, await !confirmDiscarding(waiting) { return }
      do throws(SessionError) {
        let logout = try await account.signOut()
        if let logout, logout.inBrowser, let reason = Browser.open(logout.url, parent: ui.parentWindow) {
          ui.showToast(String(template: tr("No web browser could be opened (%@)."), reason))
        }
      } catch {
        ui.showToast(error.message)
      }
    }
  }

  /// Asks whether to sign out although `count` changes could not be sent (a sign-out removes them from this
  /// computer); answers whether to.
  private func confirmDiscarding(_ count: Int) async -> Bool {
    await withCheckedContinuation { continuation in
      let dialog = MessageDialog.new(
        parent: Window(ui.parentWindow), heading: tr("Sign out and discard your changes?"),
        body: String(
          template: trn(
            "%d change has not reached the task service yet, which cannot be reached now. Signing out removes it from this computer.",
            "%d changes have not reached the task service yet, which cannot be reached now. Signing out removes them from this computer.",
            count), count))
      dialog.addResponse("cancel", label: tr("_Cancel"))
      dialog.addResponse("discard", label: tr("_Discard and Sign Out"), destructive: true)
      dialog.defaultResponse = "cancel"
      var answered = false
      dialog.onResponse { response in
        guard !answered else { return }
        answered = true
        continuation.resume(returning: response == "discard")
      }
      dialog.asWindow.present()
    }
  }

  /// Shows the signed-in account's lists: the copy on disk at once, then what the service says, with the header's
  /// spinner while it is asked. Without a copy (the first start on this computer), the loading page stays until the
  /// service's first page has come (the rest fill in as they come, the spinner turning) or the service could not be
  /// reached, rather than an empty list a moment before the tasks.
  func showLists() {
    Task {
      let planner = account.planner
      let hasCopy = await planner.showSaved()
      if hasCopy { ui.show(.tasks) }
      await ui.whileLoading { await planner.refresh() }
      if !hasCopy, await session.account != nil { ui.show(.tasks) }
    }
  }

  /// The window closes: the lists go on without it (a deletion whose Undo showed is carried out now), and a sign-in
  /// the broker waits for is given up.
  func windowClosed() {
    account.planner.windowClosed()
    account.signInAbandoned()
  }
}

// SignInController: the sign-in page: the embedded web view, its progress and the flow with the core. Main actor.

import CGtk
import CWebViewABI
import FoundationEssentials
import Glibc
import GtkSupport
import TasksAccount
import TasksCore
import TasksLoopback
import TasksSoup

/// Runs sign-ins in the window's web view. Every navigation is shown to the core's redirect interpreter before it
/// happens (server 302s included): the app's redirect is intercepted and handed to the session, which answers with
/// the next step; other navigations load if they are https (or http on loopback), and are refused otherwise.
///
/// Each sign-in gets a new web view, dropped when the flow ends. Its network session is ephemeral (B2C's cookies last
/// one sign-in) unless the user chose "Keep me signed in": then they live in the app's `web-session` folders until
/// Sign Out. "Open in Browser Instead" runs the same flow in the system browser with a loopback redirect (RFC 8252).
@MainActor
final class SignInController {
  private let session: Session
  private let installation: Installation
  /// Where B2C's cookies are kept with "Keep me signed in" (the account's sign-out removes them).
  private let webSession: WebSessionFolders
  private let slot: UnsafeMutablePointer<GtkWidget>
  private let progressBar: OpaquePointer
  private var webView: UnsafeMutableRawPointer?
  private var plugin: WebViewPlugin?
  private var interpreter: RedirectInterpreter?
  /// A sign-in in the system browser under way: the loopback listener waiting for its redirect, and the timer that
  /// ends it when it takes too long.
  private var browserFlow: (listener: LoopbackListener, timer: Task<Void, any Error>)?
  /// Called when a flow ends: signed in, cancelled, profile edited or failed.
  var onFinished: (SignInStep) -> Void = { _ in }
  /// Called with the title of each page of the sign-in once it has loaded.
  var onPageLoaded: (String) -> Void = { _ in }
  /// Called as each page of the sign-in starts to arrive: its host (with the port, if any), and whether it came over
  /// a verified TLS connection.
  var onPageCommitted: (_ host: String, _ secure: Bool) -> Void = { _, _ in }

  init(
    session: Session, installation: Installation, webSession: WebSessionFolders, slot: UnsafeMutablePointer<GtkWidget>,
    progressBar: OpaquePointer
  ) {
    self.session = session
    self.installation = installation
    self.webSession = webSession
    self.slot = slot
    self.progressBar = progressBar
  }

  /// Starts a sign-in (or, with `editProfile`, the profile policy) in a new web view; `persistent` ("Keep me
  /// signed in") keeps B2C's cookies on disk and the session past the desktop session. Fails when WebKit cannot be
  /// loaded.
  func start(
    editProfile: Bool = false, persistent: Bool, prompt: String? = nil, loginHint: String? = nil
  ) async -> Result<Void, SessionError> {
    await stopListening()
    let request: AuthorizationRequest
    do throws(SessionError) {
      request =
        editProfile
        ? try await session.startEditProfile()
        : try await session.startSignIn(prompt: prompt, loginHint: loginHint, keepSignedIn: persistent)
    } catch {
      return .failure(error)
    }
    let view: UnsafeMutableRawPointer
    switch makeWebView(persistent: persistent) {
    case .success(let made): view = made
    case .failure(let error):
      await session.cancelFlow()
      return .failure(error)
    }
    interpreter = request.interpreter
    plugin?.load(view, request.url.absoluteString)
    // Keyboard focus goes to the page, whose email field has autofocus: a person can type at once.
    gtk_widget_grab_focus(view.widget)
    return .success(())
  }

  /// Starts the sign-in in the system browser instead: listens on loopback for B2C's redirect and opens the
  /// authorize URL with the desktop's default browser. The web view's flow, if any, ends.
  /// After `timeout` seconds without the browser's answer, the listener stops and the flow fails.
  func startInBrowser(
    parent: UnsafeMutablePointer<GtkWindow>, timeout: Int, keepSignedIn: Bool
  ) async -> Result<Void, SessionError> {
    await cancel()
    let listener: LoopbackListener
    do {
      listener = try await LoopbackListener.start(
        registered: session.settings.redirectURI,
        onOpenedTwice: { [weak self] in await self?.endBrowserFlow(.openedTwice) }
      ) { [weak self] url in
        await self?.browserRedirect(url) ?? .notFound
      }
    } catch {
      return .failure(.listener(address: (error as? LoopbackListener.StartError)?.address ?? "127.0.0.1"))
    }
    let timer = Task { [weak self] in
      try await Task.sleep(for: .seconds(timeout))
      await self?.endBrowserFlow(.timedOut)
    }
    browserFlow = (listener, timer)
    let request: AuthorizationRequest
    do throws(SessionError) {
      request = try await session.startSignIn(
        redirectURI: listener.redirectURI, inBrowser: true, keepSignedIn: keepSignedIn)
    } catch {
      await stopListening()
      return .failure(error)
    }
    // The browser gets a page only this user can read, which leads to a one-time address of the listener: neither
    // that address nor the authorize request is on a command line, which every local user can read.
    let page: URL
    do throws(HandOverPage.Failure) { page = try listener.handOverPage(redirectingTo: request.url) } catch {
      await cancel()
      return .failure(.browserUnavailable(error.message))
    }
    if let reason = Browser.open(page: page, parent: parent) {
      b2c_debug("sign-in: no web browser could be started")
      await cancel()
      return .failure(.browserUnavailable(reason))
    }
    return .success(())
  }

  /// Stops the flow at the user's request.
  func cancel() async {
    if let webView { plugin?.stop(webView) }
    interpreter = nil
    await session.cancelFlow()
    dropWebView()
    await stopListening()
  }

  /// Removes the cookies and storage of a web view still open (signed out: the account removed the folders kept for
  /// "Keep me signed in").
  func clearLiveWebView() {
    if let webView { plugin?.clearData(webView) }
  }

  private func stopListening() async {
    guard let flow = browserFlow else { return }
    browserFlow = nil
    flow.timer.cancel()
    await flow.listener.stop()
  }

  /// Ends the browser's flow with `failure`, unless it has ended already: stops listening (a late answer finds no
  /// one) and says so. No answer in time (`.timedOut`), or the one-time start address opened a second time
  /// (`.openedTwice`: another program may hold the flow).
  private func endBrowserFlow(_ failure: AuthorizationFailure) async {
    guard browserFlow != nil else { return }
    b2c_debug("sign-in: the browser's flow ends (\(failure)); the loopback listener stops")
    await session.cancelFlow()
    await stopListening()
    onFinished(.failed(.authorization(failure)))
  }

  /// B2C's redirect arrived at the loopback listener: the session decides, the browser sees a short page.
  private func browserRedirect(_ url: String) async -> LoopbackAnswer {
    guard await session.acceptsRedirect(url) else { return .rejected }
    let step = await session.handleRedirect(url)
    let answer = LoopbackAnswer(step, closing: tr("You can close this tab and go back to B2C Tasks."))
    guard answer.endsFlow else { return answer }
    // The flow is over: the listener stops once this answer has reached the browser (it waits for answers under way).
    let finished = browserFlow
    browserFlow = nil
    finished?.timer.cancel()
    Task { await finished?.listener.stop() }
    onFinished(step)
    return answer
  }

  /// A new web view in the page's slot, or why there is none (the plugin, its folders or WebKit failed).
  private func makeWebView(persistent: Bool) -> Result<UnsafeMutableRawPointer, SessionError> {
    dropWebView()
    let plugin: WebViewPlugin
    switch WebViewLoader.load(installation: installation) {
    case .success(let loaded): plugin = loaded
    case .failure(let error):
      b2c_debug("sign-in: the web view plugin could not be loaded")
      return .failure(.signInViewUnavailable(error.detail))
    }
    self.plugin = plugin
    // The view holds the controller (through its hooks' context) until it is finalised.
    var hooks = B2CWebViewHooks()
    hooks.context = Unmanaged.passRetained(self).toOpaque()
    hooks.release = { context in
      if let context { Unmanaged<SignInController>.fromOpaque(context).release() }
    }
    hooks.decide = { context, uri in
      MainActor.assumeIsolated { controller(context).decide(uri.map { String(cString: $0) } ?? "") }
    }
    hooks.load_failed = { context, _, message in
      MainActor.assumeIsolated { controller(context).loadFailed(message.map { String(cString: $0) } ?? "") }
    }
    hooks.progress = { context, fraction in
      MainActor.assumeIsolated { controller(context).progressChanged(fraction) }
    }
    hooks.loaded = { context, title in
      MainActor.assumeIsolated { controller(context).onPageLoaded(title.map { String(cString: $0) } ?? "") }
    }
    hooks.committed = { context, uri, secure in
      MainActor.assumeIsolated {
        controller(context).onPageCommitted(
          HTTPClient.hostName(uri.flatMap { URL(string: String(cString: $0)) }), secure != 0)
      }
    }
    hooks.tls_failed = { context, uri, flags in
      MainActor.assumeIsolated {
        controller(context).certificateRefused(uri.map { String(cString: $0) } ?? "", flags: flags)
      }
    }
    let folders = persistent ? webSession : nil
    if let folders {
      // Before WebKit makes them (its cookie store and cache would be readable by every local user).
      do throws(AtomicFileError) {
        try AtomicFile.makePrivateFolder(folders.data)
        try AtomicFile.makePrivateFolder(folders.cache)
      } catch {
        switch error {
        case .notWritten(let path, let number):
          return .failure(.signInViewUnavailable("\(path): \(String(cString: strerror(number)))"))
        }
      }
    }
    let view = plugin.new(
      &hooks, folders?.data.path(percentEncoded: false), folders?.cache.path(percentEncoded: false))
    guard let view else { return .failure(.signInViewUnavailable("WebKit")) }
    gtk_widget_set_vexpand(view.widget, 1)
    gtk_box_append(slot.cast(to: gtk_box_get_type(), as: GtkBox.self), view.widget)
    webView = view
    return .success(view)
  }

  private func dropWebView() {
    if let webView {
      gtk_box_remove(slot.cast(to: gtk_box_get_type(), as: GtkBox.self), webView.widget)
    }
    webView = nil
  }

  /// Whether the view loads `uri`, or the app takes it (its redirect), or nobody does.
  private func decide(_ uri: String) -> B2CWebViewDecision {
    guard let interpreter else { return B2C_WEB_VIEW_REFUSE }
    if case .notOurs = interpreter.interpret(uri) {
      return SignInNavigation.mayLoad(uri) ? B2C_WEB_VIEW_LOAD : B2C_WEB_VIEW_REFUSE
    }
    b2c_debug("sign-in: the redirect to the app was intercepted")
    Task { await self.handle(uri) }
    return B2C_WEB_VIEW_INTERCEPT
  }

  private func handle(_ uri: String) async {
    let step = await session.handleRedirect(uri)
    switch step {
    case .notOurs: return
    case .load(let next):
      interpreter = await session.currentRequest?.interpreter
      if let webView { plugin?.load(webView, next.absoluteString) }
    case .signedIn, .profileUpdated, .cancelled, .failed:
      interpreter = nil
      dropWebView()
      onFinished(step)
    }
  }

  private func loadFailed(_ message: String) {
    end(with: .network(.unreachable(message)))
  }

  /// WebKit refused a page's certificate (no exception is ever offered): the flow ends naming the host.
  private func certificateRefused(_ uri: String, flags: UInt32) {
    b2c_debug("sign-in: a page's TLS certificate was refused")
    end(with: .network(.untrusted(host: HTTPClient.hostName(URL(string: uri)), CertificateProblem(tlsFlags: flags))))
  }

  private func end(with error: SessionError) {
    interpreter = nil
    dropWebView()
    Task {
      await session.cancelFlow()
      onFinished(.failed(error))
    }
  }

  private func progressChanged(_ fraction: Double) {
    gtk_progress_bar_set_fraction(progressBar, fraction)
    gtk_widget_set_opacity(progressBar.widget, fraction >= 1 ? 0 : 1)
  }
}

/// The controller a web view's hooks were given.
private func controller(_ context: UnsafeMutableRawPointer?) -> SignInController {
  Unmanaged<SignInController>.fromOpaque(context!).takeUnretainedValue()
}

// SignInController: the sign-in page: the embedded web view, its progress and the flow with the core. Main actor.

import CGtk
import Foundation
import GtkSupport
import TasksCore

/// Runs sign-ins in the window's web view. Every navigation is shown to the core's redirect interpreter before it
/// happens (server 302s included): the app's redirect is intercepted and handed to the session, which answers with
/// the next step; other navigations load if they are https (or http on loopback), and are refused otherwise.
@MainActor
final class SignInController {
  private let session: Session
  private let installation: Installation
  private let slot: UnsafeMutablePointer<GtkWidget>
  private let progressBar: OpaquePointer
  private var webView: UnsafeMutableRawPointer?
  private var plugin: WebViewPlugin?
  private var interpreter: RedirectInterpreter?
  /// Called when a flow ends: signed in, cancelled, profile edited or failed.
  var onFinished: (SignInStep) -> Void = { _ in }
  /// Called with the title of each page of the sign-in once it has loaded.
  var onPageLoaded: (String) -> Void = { _ in }

  init(session: Session, installation: Installation, slot: UnsafeMutablePointer<GtkWidget>, progressBar: OpaquePointer)
  {
    self.session = session
    self.installation = installation
    self.slot = slot
    self.progressBar = progressBar
  }

  /// Starts a sign-in (or, with `editProfile`, the profile policy) in the web view; false when WebKit cannot be
  /// loaded.
  func start(editProfile: Bool = false) async -> Result<Void, SessionError> {
    let request: AuthorizationRequest
    if editProfile {
      do { request = try await session.startEditProfile() } catch { return .failure(error) }
    } else {
      request = await session.startSignIn()
    }
    guard let view = makeWebView() else {
      await session.cancelFlow()
      return .failure(.badResponse("the sign-in view could not be loaded"))
    }
    interpreter = request.interpreter
    plugin?.load(view, request.url.absoluteString)
    // Keyboard focus goes to the page, whose email field has autofocus: a person can type at once.
    gtk_widget_grab_focus(view.widget)
    return .success(())
  }

  /// Stops the flow at the user's request.
  func cancel() async {
    if let webView { plugin?.stop(webView) }
    interpreter = nil
    await session.cancelFlow()
    dropWebView()
  }

  /// Clears the web view's cookies and storage (sign-out).
  func clearWebsiteData() {
    if let webView { plugin?.clearData(webView) }
  }

  private func makeWebView() -> UnsafeMutableRawPointer? {
    dropWebView()
    guard case .success(let plugin) = WebViewLoader.load(installation: installation) else { return nil }
    self.plugin = plugin
    let context = Unmanaged.passUnretained(self).toOpaque()
    let decide: WebViewPlugin.Decide = { context, uri in
      MainActor.assumeIsolated {
        Unmanaged<SignInController>.fromOpaque(context!).takeUnretainedValue().decide(
          uri.map { String(cString: $0) } ?? "")
      }
    }
    let failed: WebViewPlugin.Failed = { context, uri, message in
      MainActor.assumeIsolated {
        Unmanaged<SignInController>.fromOpaque(context!).takeUnretainedValue().loadFailed(
          message.map { String(cString: $0) } ?? "")
      }
    }
    let progress: WebViewPlugin.Progress = { context, fraction in
      MainActor.assumeIsolated {
        Unmanaged<SignInController>.fromOpaque(context!).takeUnretainedValue().progressChanged(fraction)
      }
    }
    let loaded: WebViewPlugin.Loaded = { context, title in
      MainActor.assumeIsolated {
        Unmanaged<SignInController>.fromOpaque(context!).takeUnretainedValue().onPageLoaded(
          title.map { String(cString: $0) } ?? "")
      }
    }
    guard let view = plugin.new(context, decide, failed, progress, loaded, nil, nil) else { return nil }
    gtk_widget_set_vexpand(view.widget, 1)
    gtk_box_append(slot.cast(to: gtk_box_get_type(), as: GtkBox.self), view.widget)
    webView = view
    return view
  }

  private func dropWebView() {
    if let webView {
      gtk_box_remove(slot.cast(to: gtk_box_get_type(), as: GtkBox.self), webView.widget)
    }
    webView = nil
  }

  /// 0: load, 1: intercepted (ours), 2: refused.
  private func decide(_ uri: String) -> Int32 {
    guard let interpreter else { return 2 }
    if case .notOurs = interpreter.interpret(uri) {
      return Self.mayLoad(uri) ? 0 : 2
    }
    Task { await self.handle(uri) }
    return 1
  }

  /// The sign-in pages may load https, http on loopback (the playground) and about: pages; nothing else.
  static func mayLoad(_ uri: String) -> Bool {
    guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased() else {
      return false
    }
    switch scheme {
    case "https", "about", "data", "blob": return true
    case "http": return LoopbackHost.contains(components.host ?? "")
    default: return false
    }
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
    interpreter = nil
    dropWebView()
    Task {
      await session.cancelFlow()
      onFinished(.failed(.network(.unreachable(message))))
    }
  }

  private func progressChanged(_ fraction: Double) {
    gtk_progress_bar_set_fraction(progressBar, fraction)
    gtk_widget_set_opacity(progressBar.widget, fraction >= 1 ? 0 : 1)
  }
}

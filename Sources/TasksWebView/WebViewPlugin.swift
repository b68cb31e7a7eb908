// TasksWebView: the embedded sign-in web view (WebKitGTK 6.0), built as its own shared library so that b2c-tasks
// maps WebKit only when a sign-in is needed. Main thread (GTK's); C ABI towards the app, no Swift types cross it.

import CWebKit
import CWebViewABI

/// The app's hooks for one view (a copy of what it passed); freed with the view, releasing the app's context.
private final class WebViewHooks {
  let hooks: B2CWebViewHooks

  init(_ hooks: B2CWebViewHooks) {
    self.hooks = hooks
  }

  deinit {
    hooks.release?(hooks.context)
  }
}

private func hooks(_ data: gpointer?) -> B2CWebViewHooks {
  Unmanaged<WebViewHooks>.fromOpaque(data!).takeUnretainedValue().hooks
}

/// `gboolean decide-policy(WebKitWebView*, WebKitPolicyDecision*, WebKitPolicyDecisionType, gpointer)`: every
/// navigation (server 302s included) is shown to the app before it happens.
private let decidePolicy: @convention(c) (gpointer?, gpointer?, UInt32, gpointer?) -> gboolean = {
  _, decision, type, data in
  guard let decision,
    type == WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION.rawValue
      || type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION.rawValue
  else { return 0 }
  let navigation = OpaquePointer(decision)
  guard let action = webkit_navigation_policy_decision_get_navigation_action(navigation),
    let request = webkit_navigation_action_get_request(action), let uri = webkit_uri_request_get_uri(request)
  else { return 0 }
  let hooks = hooks(data)
  if hooks.decide?(hooks.context, uri) == B2C_WEB_VIEW_LOAD { return 0 }
  // Intercepted (the app's redirect) or refused, and when the app gave no answer.
  webkit_policy_decision_ignore(decision.assumingMemoryBound(to: WebKitPolicyDecision.self))
  return 1
}

/// `gboolean load-failed(WebKitWebView*, WebKitLoadEvent, gchar*, GError*, gpointer)`.
private let loadFailed:
  @convention(c) (gpointer?, UInt32, UnsafePointer<CChar>?, UnsafeMutablePointer<GError>?, gpointer?)
    -> gboolean = { _, _, uri, error, data in
      guard let error else { return 0 }
      // Navigations the app intercepted or that were cancelled are not failures.
      if error.pointee.domain == webkit_policy_error_quark() { return 1 }
      if error.pointee.domain == webkit_network_error_quark()
        && error.pointee.code == Int32(WEBKIT_NETWORK_ERROR_CANCELLED.rawValue)
      {
        return 1
      }
      let hooks = hooks(data)
      hooks.load_failed?(hooks.context, uri, error.pointee.message)
      return 1  // the app shows its own page
    }

/// `gboolean load-failed-with-tls-errors(WebKitWebView*, gchar*, GTlsCertificate*, GTlsCertificateFlags, gpointer)`:
/// the page's certificate was refused (WebKit's policy is to fail). The app is told the URI and
/// `GTlsCertificateFlags`; no exception is ever made, and nothing from that host is shown.
private let loadFailedWithTLSErrors:
  @convention(c) (gpointer?, UnsafePointer<CChar>?, gpointer?, UInt32, gpointer?) -> gboolean = {
    _, uri, _, flags, data in
    let hooks = hooks(data)
    hooks.tls_failed?(hooks.context, uri, flags)
    return 1  // handled: no load-failed, no WebKit error page
  }

/// `void load-changed(WebKitWebView*, WebKitLoadEvent, gpointer)`: once a page is committed (its first bytes came
/// from the server), the app is told its URI and whether it came over a verified TLS connection (1) or not (0), as
/// a browser shows it beside the address.
private let loadChanged: @convention(c) (gpointer?, UInt32, gpointer?) -> Void = { view, event, data in
  guard let view, event == WEBKIT_LOAD_COMMITTED.rawValue else { return }
  let webView = view.assumingMemoryBound(to: WebKitWebView.self)
  var certificate: UnsafeMutablePointer<GTlsCertificate>?
  var errors = GTlsCertificateFlags(0)
  let secure = webkit_web_view_get_tls_info(webView, &certificate, &errors) != 0 && errors.rawValue == 0
  let hooks = hooks(data)
  hooks.committed?(hooks.context, webkit_web_view_get_uri(webView), secure ? 1 : 0)
}

/// `void notify::estimated-load-progress(GObject*, GParamSpec*, gpointer)`.
private let progressChanged: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { view, _, data in
  guard let view else { return }
  let hooks = hooks(data)
  hooks.progress?(
    hooks.context, webkit_web_view_get_estimated_load_progress(view.assumingMemoryBound(to: WebKitWebView.self)))
}

/// Tells the app the page's title once the page has finished loading (the title alone can come before the new
/// page is painted).
private func reportLoaded(_ view: gpointer, _ data: gpointer?) {
  let webView = view.assumingMemoryBound(to: WebKitWebView.self)
  guard webkit_web_view_is_loading(webView) == 0, let title = webkit_web_view_get_title(webView) else { return }
  let hooks = hooks(data)
  hooks.loaded?(hooks.context, title)
}

/// `void notify::title(GObject*, GParamSpec*, gpointer)`.
private let titleChanged: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { view, _, data in
  if let view { reportLoaded(view, data) }
}

/// `void notify::is-loading(GObject*, GParamSpec*, gpointer)`.
private let loadingChanged: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { view, _, data in
  if let view { reportLoaded(view, data) }
}

/// `B2CWebViewNewFunction`: creates a sign-in web view. With `dataDirectory` B2C's cookies are kept there ("Keep me
/// signed in"); otherwise the view's network session is ephemeral and its cookies end with it. Returns a floating
/// `GtkWidget*`. The hooks are copied; their `release` runs when the view is finalised (or at once, on failure).
@_cdecl("b2c_web_view_new")
public func b2cWebViewNew(
  _ hooks: UnsafePointer<B2CWebViewHooks>?, _ dataDirectory: UnsafePointer<CChar>?,
  _ cacheDirectory: UnsafePointer<CChar>?
) -> UnsafeMutableRawPointer? {
  guard let hooks else { return nil }
  let box = Unmanaged.passRetained(WebViewHooks(hooks.pointee))
  defer { box.release() }
  let session: OpaquePointer? =
    dataDirectory != nil
    ? webkit_network_session_new(dataDirectory, cacheDirectory) : webkit_network_session_new_ephemeral()
  if let dataDirectory, let session, let cookies = webkit_network_session_get_cookie_manager(session) {
    // A persistent session keeps cookies only where it is told to.
    let file = String(cString: dataDirectory) + "/cookies.sqlite"
    webkit_cookie_manager_set_persistent_storage(cookies, file, WEBKIT_COOKIE_PERSISTENT_STORAGE_SQLITE)
  }
  var value = GValue()
  g_value_init(&value, webkit_network_session_get_type())
  g_value_set_object(&value, UnsafeMutableRawPointer(session))
  var names: [UnsafePointer<CChar>?] = [UnsafePointer(strdup("network-session"))]
  defer { names.forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
  let object = names.withUnsafeMutableBufferPointer { namesBuffer in
    withUnsafePointer(to: &value) { valuePointer in
      g_object_new_with_properties(webkit_web_view_get_type(), 1, namesBuffer.baseAddress, valuePointer)
    }
  }
  g_value_unset(&value)
  if let session { g_object_unref(UnsafeMutableRawPointer(session)) }
  guard let object else { return nil }
  let view = UnsafeMutableRawPointer(object)
  let release: GClosureNotify = { data, _ in Unmanaged<WebViewHooks>.fromOpaque(data!).release() }
  // Each connection holds the hooks once more; the last disconnection (the view's finalisation) frees them.
  for (signal, handler) in [
    ("decide-policy", unsafeBitCast(decidePolicy, to: UnsafeRawPointer.self)),
    ("load-failed", unsafeBitCast(loadFailed, to: UnsafeRawPointer.self)),
    ("load-failed-with-tls-errors", unsafeBitCast(loadFailedWithTLSErrors, to: UnsafeRawPointer.self)),
    ("load-changed", unsafeBitCast(loadChanged, to: UnsafeRawPointer.self)),
    ("notify::estimated-load-progress", unsafeBitCast(progressChanged, to: UnsafeRawPointer.self)),
    ("notify::title", unsafeBitCast(titleChanged, to: UnsafeRawPointer.self)),
    ("notify::is-loading", unsafeBitCast(loadingChanged, to: UnsafeRawPointer.self)),
  ] {
    _ = box.retain()
    g_signal_connect_data(
      view, signal, unsafeBitCast(handler, to: GCallback.self), box.toOpaque(), release, GConnectFlags(0))
  }
  return view
}

/// Loads `uri` in a view made by `b2c_web_view_new`.
@_cdecl("b2c_web_view_load")
public func b2cWebViewLoad(_ view: UnsafeMutableRawPointer?, _ uri: UnsafePointer<CChar>?) {
  guard let view, let uri else { return }
  webkit_web_view_load_uri(view.assumingMemoryBound(to: WebKitWebView.self), uri)
}

/// Stops loading.
@_cdecl("b2c_web_view_stop")
public func b2cWebViewStop(_ view: UnsafeMutableRawPointer?) {
  guard let view else { return }
  webkit_web_view_stop_loading(view.assumingMemoryBound(to: WebKitWebView.self))
}

/// Removes every cookie and stored item of the view's network session (sign-out), asynchronously.
@_cdecl("b2c_web_view_clear_data")
public func b2cWebViewClearData(_ view: UnsafeMutableRawPointer?) {
  guard let view, let session = webkit_web_view_get_network_session(view.assumingMemoryBound(to: WebKitWebView.self)),
    let manager = webkit_network_session_get_website_data_manager(session)
  else { return }
  webkit_website_data_manager_clear(manager, WEBKIT_WEBSITE_DATA_ALL, 0, nil, nil, nil)
}

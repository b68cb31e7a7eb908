// Browser: the user's default web browser, for a sign-in (its one-time start address) and a sign-out at the provider.
// Main actor.

import CGtk
import FoundationEssentials
import GtkSupport

/// Opens addresses in the desktop's default browser.
@MainActor
enum Browser {
  /// Opens `url` in the user's default browser, on the display of `parent` (if any); answers why not, or nil. The
  /// URL must hold no token or one-time address (it becomes part of the browser's command line and history).
  static func open(_ url: URL, parent: UnsafeMutablePointer<GtkWindow>?) -> String? {
    launch(url, with: nil, parent: parent)
  }

  /// Opens the local page `page` (a `HandOverPage`) in the app that opens `http` addresses, the web browser (the
  /// desktop's app for HTML files may be an editor); answers why not, or nil.
  static func open(page: URL, parent: UnsafeMutablePointer<GtkWindow>?) -> String? {
    let browser = g_app_info_get_default_for_uri_scheme("http")
    defer { if let browser { g_object_unref(browser.gpointer) } }
    return launch(page, with: browser, parent: parent)
  }

  /// Launches `app` (nil: the default for `url`) with `url` on `parent`'s display.
  private static func launch(_ url: URL, with app: OpaquePointer?, parent: UnsafeMutablePointer<GtkWindow>?)
    -> String?
  {
    var error: UnsafeMutablePointer<GError>?
    let display = parent.map { gtk_widget_get_display($0.widget) } ?? gdk_display_get_default()
    let context = display.flatMap { gdk_display_get_app_launch_context($0) }
    defer { if let context { g_object_unref(context.gpointer) } }
    let launchContext = context.map { UnsafeMutablePointer<GAppLaunchContext>($0) }
    let launched: gboolean
    if let app {
      let uris = g_list_append(nil, strdup(url.absoluteString))
      defer { g_list_free_full(uris, g_free) }
      launched = g_app_info_launch_uris(app, uris, launchContext, &error)
    } else {
      launched = g_app_info_launch_default_for_uri(url.absoluteString, launchContext, &error)
    }
    guard launched == 0 else { return nil }
    let reason = error.map { String(cString: $0.pointee.message) } ?? ""
    if let error { g_error_free(error) }
    return reason
  }
}

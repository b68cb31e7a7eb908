// Browser: the user's default web browser, for a sign-in (its one-time start address) and a sign-out at the provider.
// Main actor.

import CGtk
import FoundationEssentials
import GtkSupport

/// Opens addresses in the desktop's default browser.
@MainActor
enum Browser {
  /// Opens `url` in the user's default browser, on the display of `parent` (if any); answers why not, or nil. The
  /// URL must hold no token (it becomes part of the browser's command line and history).
  static func open(_ url: URL, parent: UnsafeMutablePointer<GtkWindow>?) -> String? {
    var error: UnsafeMutablePointer<GError>?
    let display = parent.map { gtk_widget_get_display($0.widget) } ?? gdk_display_get_default()
    let context = display.flatMap { gdk_display_get_app_launch_context($0) }
    defer { if let context { g_object_unref(context.gpointer) } }
    let launched = g_app_info_launch_default_for_uri(
      url.absoluteString, context.map { UnsafeMutablePointer<GAppLaunchContext>($0) }, &error)
    guard launched == 0 else { return nil }
    let reason = error.map { String(cString: $0.pointee.message) } ?? ""
    if let error { g_error_free(error) }
    return reason
  }
}

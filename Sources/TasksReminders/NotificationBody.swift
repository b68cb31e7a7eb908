// NotificationBody: a notification's body shown as written, whatever the desktop's notification server does with
// markup. Main actor.

import CGio
import FoundationEssentials
import GLibSupport
import Glibc

/// Sets notification bodies so that text written by someone else (a list's name, a task's title) is shown as it
/// was written and never read as markup: no `<a href>` becomes a link, no `<b>` turns bold, no `&` blanks the body.
///
/// The freedesktop notification spec lets a server read the body as markup (the `body-markup` capability; GNOME
/// Shell's own server does), and GLib before 2.85 passes the body through as given. So: with GLib 2.85 or later the
/// body is given as markup, escaped (`g_notification_set_body_with_markup`, which GLib strips for servers without
/// markup); before it, the body is escaped only when GLib will send it to a freedesktop server that says it reads
/// markup — not to GNOME Shell's `org.gtk.Notifications` nor through the portal, which show bodies as text.
@MainActor
enum NotificationBody {
  /// GLib 2.85's setter, when the GLib loaded has it (this program is built against an older one).
  private static let setWithMarkup: (@convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Void)? = {
    guard glib_check_version(2, 85, 0) == nil, let symbol = dlsym(nil, "g_notification_set_body_with_markup") else {
      return nil
    }
    return unsafeBitCast(symbol, to: (@convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Void).self)
  }()

  /// Sets `text` as `notification`'s body, to be sent by `application`.
  static func set(_ text: String, on notification: OpaquePointer, application: UnsafeMutablePointer<GApplication>) {
    if let setWithMarkup {
      return setWithMarkup(notification, escaped(text))
    }
    let connection = g_application_get_dbus_connection(application)
    g_notification_set_body(notification, serverReadsMarkup(connection) ? escaped(text) : text)
  }

  /// `text` with markup's special characters written as entities.
  static func escaped(_ text: String) -> String {
    guard let escaped = g_markup_escape_text(text, -1) else { return "" }
    defer { g_free(escaped) }
    return String(cString: escaped)
  }

  /// The backend GLib (before 2.85) sends this process's notifications through: chosen once, at its first
  /// notification, and kept for the process's life, as GLib does: the one `GNOTIFICATION_BACKEND` names, else the
  /// portal in a sandbox (or with `GIO_USE_PORTALS`/`GTK_USE_PORTAL`), else `org.gtk.Notifications` when it has an
  /// owner then, else the freedesktop server. (Asked again later, a name another program took since would not be
  /// the one GLib uses.)
  private enum Backend { case freedesktop, shows }
  private static var backend: Backend?

  private static func chosenBackend(_ connection: OpaquePointer) -> Backend {
    if let backend { return backend }
    let environment = ProcessInfo.processInfo.environment
    let chosen: Backend
    if let named = environment["GNOTIFICATION_BACKEND"], !named.isEmpty {
      chosen = named == "freedesktop" ? .freedesktop : .shows
    } else if environment["GIO_USE_PORTALS"] == "1" || environment["GTK_USE_PORTAL"] == "1"
      || environment["SNAP"] != nil || access("/.flatpak-info", F_OK) == 0
    {
      chosen = .shows
    } else {
      let gtkServer = call(
        connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
        .tuple([.string("org.gtk.Notifications")]))
      let owned = gtkServer?.children.first.map { $0.typeString == "b" && g_variant_get_boolean($0.value) != 0 }
      chosen = owned == true ? .shows : .freedesktop
    }
    backend = chosen
    return chosen
  }

  /// Whether GLib (before 2.85) sends notifications to a freedesktop server that reads their body as markup (the
  /// portal and `org.gtk.Notifications` show bodies as text). The server's capabilities are asked at each
  /// notification: servers come and go with the session. A server that does not answer in time is taken to read
  /// markup (an escaped body shows entities; an unescaped one could show a link).
  private static func serverReadsMarkup(_ connection: OpaquePointer?) -> Bool {
    guard let connection else { return false }  // no session bus: nothing is shown anywhere
    guard chosenBackend(connection) == .freedesktop else { return false }
    let capabilities = call(
      connection, "org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.Notifications",
      "GetCapabilities", nil)
    guard let names = capabilities?.children.first?.strings else { return true }
    return names.contains("body-markup")
  }

  /// A method call's answer, or nil when it failed or took over two seconds.
  private static func call(
    _ connection: OpaquePointer, _ name: String, _ path: String, _ interface: String, _ method: String,
    _ parameters: Variant?
  ) -> Variant? {
    var error: UnsafeMutablePointer<GError>?
    let answer = g_dbus_connection_call_sync(
      connection, name, path, interface, method, parameters?.value, nil, G_DBUS_CALL_FLAGS_NONE, 2000, nil,
      &error)
    if let error { g_error_free(error) }
    return answer.map { Variant(owning: $0) }
  }
}

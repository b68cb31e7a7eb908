// WindowTitle: the window's header title: the app's name and the signed-in user, or the sign-in page's host with
// GNOME Web's secure or not-secure sign. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// The title and subtitle in the window's header, and the sign next to a sign-in page's host.
@MainActor
final class WindowTitle {
  private let title: OpaquePointer
  private let securityIcon: Widget

  init(title: OpaquePointer, securityIcon: Widget) {
    self.title = title
    self.securityIcon = securityIcon
  }

  /// The line under the title: the user's name on the list, a sign-in page's own title, or nothing.
  func setSubtitle(_ text: String) {
    adw_window_title_set_subtitle(title, text)
  }

  /// Shows the host of the sign-in page on screen, with GNOME Web's secure or insecure sign (a person sees whose
  /// page asks for the password); nil puts the app's own title back.
  func showPageOrigin(host: String?, secure: Bool) {
    guard let host else {
      securityIcon.isVisible = false
      adw_window_title_set_title(title, tr("B2C Tasks"))
      return
    }
    adw_window_title_set_title(title, host)
    gtk_image_set_from_icon_name(
      OpaquePointer(securityIcon.widget), secure ? "channel-secure-symbolic" : "channel-insecure-symbolic")
    let explanation =
      secure
      ? String(template: tr("Secure connection: the identity of %@ is verified and the page is encrypted"), host)
      : String(template: tr("Not secure: the page from %@ is not encrypted"), host)
    securityIcon.tooltip = explanation
    b2c_accessible_set_label(securityIcon.widget, explanation)
    securityIcon.isVisible = true
  }
}

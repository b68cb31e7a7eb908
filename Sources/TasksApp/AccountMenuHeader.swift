// AccountMenuHeader: who is signed in, at the top of the main menu. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// The signed-in user's name and email address at the top of the main menu; hidden while nobody is signed in. Made
/// the first time it is needed.
@MainActor
final class AccountMenuHeader {
  private let menuButton: OpaquePointer
  private var labels:
    (
      box: UnsafeMutablePointer<GtkWidget>, name: UnsafeMutablePointer<GtkWidget>,
      email: UnsafeMutablePointer<GtkWidget>
    )?

  init(menuButton: OpaquePointer) {
    self.menuButton = menuButton
  }

  /// Shows `account` (nil: nobody, and the place is hidden).
  func show(_ account: Account?) {
    guard let (box, name, email) = labels ?? make() else { return }
    gtk_label_set_text(OpaquePointer(name), account?.displayName ?? "")
    gtk_label_set_text(OpaquePointer(email), account?.email ?? "")
    gtk_widget_set_visible(email, (account?.email ?? "").isEmpty ? 0 : 1)
    gtk_widget_set_visible(box, account == nil ? 0 : 1)
  }

  private func make() -> (
    UnsafeMutablePointer<GtkWidget>, UnsafeMutablePointer<GtkWidget>, UnsafeMutablePointer<GtkWidget>
  )? {
    guard let popover = gtk_menu_button_get_popover(menuButton) else { return nil }
    let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
    let name = gtk_label_new("")!
    let email = gtk_label_new("")!
    for label in [name, email] {
      gtk_label_set_xalign(OpaquePointer(label), 0)
      gtk_label_set_ellipsize(OpaquePointer(label), PANGO_ELLIPSIZE_END)
      gtk_box_append(box.cast(to: gtk_box_get_type(), as: GtkBox.self), label)
    }
    gtk_widget_add_css_class(name, "heading")
    gtk_widget_add_css_class(email, "dim-label")
    gtk_widget_set_margin_start(box, 12)
    gtk_widget_set_margin_end(box, 12)
    gtk_widget_set_margin_top(box, 6)
    gtk_widget_set_margin_bottom(box, 6)
    gtk_popover_menu_add_child(OpaquePointer(popover), box, "account")
    labels = (box, name, email)
    return (box, name, email)
  }
}

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
  /// Made the first time an account is shown (owned by the menu's popover from then on).
  private var labels: (box: Box, name: Label, email: Label)?

  init(menuButton: OpaquePointer) {
    self.menuButton = menuButton
  }

  /// Shows `account` (nil: nobody, and the place is hidden).
  func show(_ account: Account?) {
    guard let (box, name, email) = labels ?? make() else { return }
    name.text = account?.displayName ?? ""
    email.text = account?.email ?? ""
    email.isVisible = !(account?.email ?? "").isEmpty
    box.isVisible = account != nil
  }

  private func make() -> (Box, Label, Label)? {
    guard let popover = gtk_menu_button_get_popover(menuButton) else { return nil }
    let box = Box.new(horizontal: false, spacing: 2)
    let name = Label.new()
    let email = Label.new()
    for label in [name, email] {
      label.xalign = 0
      label.ellipsizesEnd = true
      box.append(label)
    }
    name.setCSSClass("heading", true)
    email.setCSSClass("dim-label", true)
    box.setMargins(top: 6, bottom: 6, start: 12, end: 12)
    gtk_popover_menu_add_child(OpaquePointer(popover), box.widget, "account")
    labels = (box, name, email)
    return (box, name, email)
  }
}

// ToastShelf: the window's toasts, those about the list among them. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// Shows toasts at the bottom of the window. A toast `aboutList` goes when the list does (a sign-in page has no use
/// for "1 waiting task was sent"). libadwaita 1.2 leaves a toast's close button without an accessible name; each
/// gets one.
@MainActor
final class ToastShelf {
  private let overlay: OpaquePointer
  /// The toasts about the list on screen.
  private var listToasts: [OpaquePointer] = []

  init(overlay: OpaquePointer) {
    self.overlay = overlay
  }

  /// Shows a short message; with `retry`, a Retry button that runs it.
  @discardableResult
  func show(_ title: String, aboutList: Bool = false, retry: (@MainActor () -> Void)? = nil) -> OpaquePointer {
    let toast = PlainText.toast(title)
    if let retry {
      adw_toast_set_button_label(toast, tr("Retry"))
      Signal.connect(toast, "button-clicked") { retry() }
    }
    if aboutList {
      listToasts.append(toast)
      g_object_ref(toast.gpointer)
      Signal.connect(toast, "dismissed") { [unowned self] in
        self.listToasts.removeAll { $0 == toast }
        g_object_unref(toast.gpointer)
      }
    }
    present(toast)
    return toast
  }

  /// Adds `toast` (built by the caller).
  func present(_ toast: OpaquePointer) {
    adw_toast_overlay_add_toast(overlay, toast)
    nameCloseButtons()
    // A toast waiting behind another is drawn when that one goes.
    Signal.connect(toast, "dismissed") { [unowned self] in Task { self.nameCloseButtons() } }
  }

  /// Dismisses the toasts about the list (another page replaces it).
  func dismissListToasts() {
    for toast in listToasts { adw_toast_dismiss(toast) }
  }

  /// Names the close buttons of the toasts on screen ("Dismiss"), found by their icon as the library's own
  /// template sets it; a screen reader said "GtkImage".
  private func nameCloseButtons() {
    func visit(_ widget: UnsafeMutablePointer<GtkWidget>) {
      if g_type_check_instance_is_a(widget.gpointer.assumingMemoryBound(to: GTypeInstance.self), gtk_button_get_type())
        != 0
      {
        let button = widget.cast(to: gtk_button_get_type(), as: GtkButton.self)
        if let icon = gtk_button_get_icon_name(button), String(cString: icon) == "window-close-symbolic" {
          b2c_accessible_set_label(widget, tr("Dismiss"))
        }
      }
      var child = gtk_widget_get_first_child(widget)
      while let current = child {
        visit(current)
        child = gtk_widget_get_next_sibling(current)
      }
    }
    visit(overlay.widget)
  }
}

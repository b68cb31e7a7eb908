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
  private let overlay: ToastOverlay
  /// The toasts about the list on screen.
  private var listToasts: [Toast] = []

  init(overlay: ToastOverlay) {
    self.overlay = overlay
  }

  /// Shows a short message; with `retry`, a Retry button that runs it.
  @discardableResult
  func show(_ title: String, aboutList: Bool = false, retry: (@MainActor () -> Void)? = nil) -> Toast {
    let toast = Toast.new(title, button: retry == nil ? nil : tr("Retry"))
    if let retry { toast.onButtonClicked(retry) }
    if aboutList {
      listToasts.append(toast)
      toast.retain()
      toast.onDismissed { [unowned self] in
        self.listToasts.removeAll { $0 == toast }
        toast.release()
      }
    }
    present(toast)
    return toast
  }

  /// Adds `toast` (built by the caller).
  func present(_ toast: Toast) {
    overlay.add(toast)
    nameCloseButtons()
    // A toast waiting behind another is drawn when that one goes.
    toast.onDismissed { [unowned self] in Task { self.nameCloseButtons() } }
  }

  /// Keeps the toasts clear of `foot` (the sidebar's New List and list menu) while it is on screen: a toast over
  /// them took the click meant for them for as long as it showed.
  func keepClear(of foot: Widget) {
    Signal.connect(foot, "map") { [unowned self] in self.overlay.setCSSClass("above-sidebar-foot", true) }
    Signal.connect(foot, "unmap") { [unowned self] in self.overlay.setCSSClass("above-sidebar-foot", false) }
  }

  /// Dismisses the toasts about the list (another page replaces it).
  func dismissListToasts() {
    for toast in listToasts { toast.dismiss() }
  }

  /// Names the close buttons of the toasts on screen ("Dismiss"), found by their icon as the library's own
  /// template sets it; a screen reader said "GtkImage".
  private func nameCloseButtons() {
    overlay.forEachWidget { widget in
      if widget.isA(gtk_button_get_type()), Button(widget).iconName == "window-close-symbolic" {
        b2c_accessible_set_label(widget.widget, tr("Dismiss"))
      }
    }
  }
}

// OfflineBanner: the banner above the list saying the task service cannot be reached. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// The banner saying the task service cannot be reached, with its Retry button (`win.refresh`). Hidden, it is also
/// invisible: a revealer's folded child still counts as visible to assistive technologies.
@MainActor
struct OfflineBanner {
  private let revealer: Revealer
  private let label: Label
  private let window: Window
  private let pages: Stack

  init(builder: Builder, window: Window, pages: Stack) {
    revealer = builder.widget("offline_banner", as: Revealer.init)
    label = builder.widget("offline_label", as: Label.init)
    self.window = window
    self.pages = pages
  }

  /// Shows the banner with `message`, or hides it (nil).
  func show(_ message: String?) {
    if let message { label.text = message }
    reveal(message != nil)
  }

  /// Shows or hides the banner.
  func reveal(_ shown: Bool) {
    if !shown, let focus = window.focus, revealer.contains(focus) {
      // Its Retry button has the focus (it was just pressed): hand it to the page rather than drop it, which left
      // it on whatever GTK found next (a toast's close button, whose focus kept the toast from timing out).
      window.focusFirst(in: pages.visibleChild)
    }
    revealer.isVisible = shown
    revealer.revealsChild = shown
  }

  /// What the banner says when the list cannot be fetched: a certificate that cannot be trusted is not "offline";
  /// without a network the computer is offline; with one, the service does not answer. `savedAt`: when the offline
  /// copy shown was saved.
  static func message(for error: NetworkError, savedAt: Date?, networkAvailable: Bool) -> String {
    let when = savedAt.map { LocalTime.text(of: $0) }
    if case .untrusted = error { return error.message }  // tasks still wait
    if !networkAvailable {
      return when.map { String(template: tr("You are offline. These are your tasks as of %@."), $0) }
        ?? tr("You are offline. Your changes are sent when the task service can be reached.")
    }
    return when.map { String(template: tr("The task service cannot be reached. These are your tasks as of %@."), $0) }
      ?? tr("The task service cannot be reached. Your changes are sent when it can be.")
  }
}

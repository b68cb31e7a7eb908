// SignInFailurePage: the page saying a sign-in failed, and the details its Copy Details copies. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// The sign-in failed page: what went wrong in words, and the details (time, message, the provider's codes) that
/// Copy Details (`win.copy-details`) puts on the clipboard for a bug report or the provider's support.
@MainActor
final class SignInFailurePage {
  private let page: StatusPage
  /// "Open in Browser Instead", shown when the window cannot show the sign-in page itself.
  private let browserButton: Widget
  private(set) var details = ""

  init(_ page: StatusPage, browserButton: Widget) {
    self.page = page
    self.browserButton = browserButton
  }

  /// Shows `error` on the page and keeps its details.
  func show(_ error: SessionError) {
    page.setDescription(error.message)
    let viewMissing: Bool
    if case .signInViewUnavailable = error { viewMissing = true } else { viewMissing = false }
    browserButton.isVisible = viewMissing
    var lines = ["B2C Tasks sign-in failed", "Time: \(Date().formatted(.iso8601))", "Message: \(error.message)"]
    if case .authorization(.service(let service)) = error { lines.append(service.details) }
    if case .service(let service) = error { lines.append(service.details) }
    details = lines.joined(separator: "\n")
  }

  /// Puts the details on `widget`'s clipboard.
  func copyDetails(from widget: some WidgetView) {
    gdk_clipboard_set_text(gtk_widget_get_clipboard(widget.widget), details)
  }
}

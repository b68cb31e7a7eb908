// MainWindow: the B2C Tasks window: welcome page, settings-error page, toasts. Main actor.

import CGtk
import Foundation
import GtkSupport
import TasksCore

/// The main window, built from `ui/main-window.ui`.
///
/// Shows the welcome page ("Sign in to see your tasks") or, when the settings could not be loaded, a page that says
/// which file and key are wrong. Its size and maximised state persist in GSettings.
@MainActor
final class MainWindow {
  private let builder = Builder(resource: Installation.resourceBase + "/ui/main-window.ui")
  private let window: UnsafeMutablePointer<AdwApplicationWindow>
  private let toastOverlay: OpaquePointer
  private let contentStack: OpaquePointer
  private let windowState: WindowState?

  /// The window as a `GtkWindow`, for transient children.
  var gtkWindow: UnsafeMutablePointer<GtkWindow> { window.window }

  init(
    application: UnsafeMutablePointer<AdwApplication>, installation: Installation,
    settings: Result<AppSettings, SettingsError>
  ) {
    window = builder.object("window", adw_application_window_get_type())
    toastOverlay = builder.opaqueObject("toast_overlay", adw_toast_overlay_get_type())
    contentStack = builder.opaqueObject("content_stack", gtk_stack_get_type())
    windowState = WindowState(schemaDirectory: installation.schemaDirectory)
    gtk_window_set_application(window.window, application.cast(to: gtk_application_get_type()))
    windowState?.restore(window.window)

    Actions.add("sign-in", to: window) { [unowned self] in
      self.showToast(tr("Signing in is not available yet"))
    }
    Signal.connectReturningBool(window, "close-request") { [unowned self] in
      self.saveState()
      return false  // let the window close
    }

    switch settings {
    case .success: show(.welcome)
    case .failure(let error):
      let page = builder.opaqueObject("settings_error_page", adw_status_page_get_type())
      adw_status_page_set_description(page, error.description)
      show(.settingsError)
    }
  }

  /// The pages of the window's content stack, by their names in the `.ui` file.
  enum Page: String, CaseIterable {
    case welcome
    case settingsError = "settings-error"
  }

  /// Shows `page` and hides the others, so that keyboard focus and assistive technologies see only what is on
  /// screen (a GtkStack keeps its other pages visible, merely unmapped).
  func show(_ page: Page) {
    for other in Page.allCases where other != page {
      gtk_widget_set_visible(gtk_stack_get_child_by_name(contentStack, other.rawValue), 0)
    }
    let child = gtk_stack_get_child_by_name(contentStack, page.rawValue)
    gtk_widget_set_visible(child, 1)
    gtk_stack_set_visible_child(contentStack, child)
  }

  /// Shows the window and brings it to the front.
  func present() {
    gtk_window_present(window.window)
  }

  /// Writes the window's size and maximised state to GSettings.
  func saveState() {
    windowState?.save(window.window)
  }

  /// Shows a short message at the bottom of the window.
  func showToast(_ title: String) {
    adw_toast_overlay_add_toast(toastOverlay, adw_toast_new(title))
  }
}

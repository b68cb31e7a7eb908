// WindowHeader: the main window's header bar: its title (the app, or a sign-in page's host), who is signed in (under
// the title and atop the main menu), the spinner, and the buttons only the list can use. Main actor.

import CGtk
import GtkSupport
import TasksCore

/// The header bar of `main-window.ui`, shown for a page and an account.
@MainActor
final class WindowHeader {
  private let title: WindowTitle
  private let accountMenu: AccountMenuHeader
  private let spinner: HeaderSpinner
  /// The header's buttons that only the list can use.
  private let listButtons: [Widget]
  /// Back to the planner's sidebar, when a narrow window folded it away.
  private let sidebarButton: Widget
  private var sidebarFolded = false
  private var page = WindowPage.loading
  /// The signed-in user's name, as the header shows it under the title on the list.
  private var accountName = ""

  init(builder: Builder) {
    title = WindowTitle(
      title: builder.opaqueObject("window_title", adw_window_title_get_type()),
      securityIcon: builder.widget("page_security_icon"))
    accountMenu = AccountMenuHeader(
      menuButton: builder.opaqueObject("primary_menu_button", gtk_menu_button_get_type()))
    spinner = HeaderSpinner(builder.widget("refresh_spinner", as: Spinner.init))
    listButtons = ["add_task_button", "refresh_button", "search_button"].map(builder.widget)
    sidebarButton = builder.widget("sidebar_button")
  }

  /// Whether the planner's sidebar is folded away (its button shows on the list).
  func setSidebarFolded(_ folded: Bool) {
    sidebarFolded = folded
    sidebarButton.isVisible = page.isList && folded
  }

  /// The header for `page`: the app's own title (whatever a sign-in page left in it), the user's name under it on
  /// the list, and the list's buttons only there (hidden, not greyed, elsewhere: GNOME HIG).
  func show(_ page: WindowPage) {
    if page != .signIn {
      title.showPageOrigin(host: nil, secure: false)
      title.setSubtitle(page.isList ? accountName : "")
    }
    self.page = page
    for button in listButtons { button.isVisible = page.isList }
    sidebarButton.isVisible = page.isList && sidebarFolded
  }

  /// Shows `account` (nil: nobody is signed in) atop the main menu and, unless a sign-in page's title is there
  /// (`onSignInPage`), under the title.
  func showAccount(_ account: Account?, onSignInPage: Bool) {
    accountName = account?.displayName ?? ""
    accountMenu.show(account)
    if !onSignInPage || account == nil { title.setSubtitle(accountName) }
  }

  /// A sign-in page's title under the window's title.
  func showPageTitle(_ text: String) { title.setSubtitle(text) }

  /// A sign-in page's host, secure or not, as the window's title.
  func showPageOrigin(host: String, secure: Bool) { title.showPageOrigin(host: host, secure: secure) }

  /// Runs `body` with the spinner turning.
  func whileRunning<T>(_ body: () async -> T) async -> T { await spinner.whileRunning(body) }
}

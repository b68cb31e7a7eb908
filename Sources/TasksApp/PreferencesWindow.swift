// PreferencesWindow: the apps the user allowed, or denied, to use the sign-in through the broker, each with a switch
// to change their mind, the app passwords of other devices (AppPasswordsPage), and the switch of reminders with the
// window closed. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksAccount
import TasksCore

/// The preferences window (`ui/preferences-window.ui`): "Apps Using Your Sign-In", one row per app and account with
/// a switch (on: allowed). Turning one off withdraws it at once: the app's next request gets `Error.Denied`.
@MainActor
final class PreferencesWindow {
  private let builder = Builder(resource: Installation.resourceBase + "/ui/preferences-window.ui")
  private let window: Window
  private let group: PreferencesGroup
  private let noApps: ActionRow
  private let consents: ConsentStore
  private var rows: [ActionRow] = []
  private var appPasswords: AppPasswordsPage?

  /// Opens the window over `parent`, listing `consents`' answers, with the reminders' switch bound to `reminders`,
  /// and the app passwords of `planner`'s account (nil: signed out).
  init(parent: Window?, consents: ConsentStore, reminders: BackgroundReminders, planner: PlannerOperations?) {
    window = builder.widget("preferences_window", as: Window.init)
    group = builder.widget("apps_group", as: PreferencesGroup.init)
    noApps = builder.widget("no_apps_row", as: ActionRow.init)
    self.consents = consents
    window.setTransient(for: parent)
    let remindersSwitch = builder.widget("reminders_switch", as: Switch.init)
    remindersSwitch.setAccessibleLabel(tr("Remind Me with the Window Closed"))
    remindersSwitch.resetLabelledBy()  // the row's title would be read twice
    reminders.bind(remindersSwitch.widget, property: "active")
    appPasswords = AppPasswordsPage(builder: builder, planner: planner)
    Self.hideSearchEntries(in: window.asWidget)
    presentOnlyWhatShows()
    Task { await reload() }
  }

  /// Presents to assistive technologies only what the window shows. libadwaita 1.2 on GTK 4.8 presented the pages
  /// not on screen too (a screen reader on Sign-In read out the app passwords and the reminders' switch), the view
  /// switcher's bar for narrow windows while hidden (each page's tab twice), and the window's title while the
  /// switcher stands in its place: each follows what is on screen as the user changes pages or the width.
  private func presentOnlyWhatShows() {
    let root = window.asWidget
    let pages = { [window] in
      let visible = adw_preferences_window_get_visible_page(
        UnsafeMutableRawPointer(window.widget).assumingMemoryBound(to: AdwPreferencesWindow.self)
      ).map(UnsafeMutableRawPointer.init)
      root.forEachWidget { widget in
        // The pages of the window's view stack (not the page of search results, which is no page of its own).
        guard widget.isA(adw_preferences_page_get_type()), widget.parent?.isA(adw_view_stack_get_type()) == true
        else { return }
        widget.setAccessibleHidden(UnsafeMutableRawPointer(widget.widget) != visible)
      }
    }
    pages()
    Signal.connect(window, "notify::visible-page") { (_: UnsafeMutableRawPointer?) in pages() }
    root.forEachWidget { widget in
      if widget.isA(adw_view_switcher_bar_get_type()) {
        let bar = OpaquePointer(widget.widget)
        let follow = { widget.setAccessibleHidden(adw_view_switcher_bar_get_reveal(bar) == 0) }
        follow()
        Signal.connect(widget, "notify::reveal") { (_: UnsafeMutableRawPointer?) in follow() }
      }
    }
    root.presentOnlySqueezersShownChild()
  }

  /// Hides the search entry libadwaita 1.2 builds into every preferences window even with search disabled: unnamed,
  /// it stays in the accessibility tree as a control that does nothing.
  private static func hideSearchEntries(in widget: Widget) {
    widget.forEachWidget { if $0.isA(gtk_search_entry_get_type()) { $0.isVisible = false } }
  }

  /// Shows the window.
  func present() { window.present() }

  /// Lists the answers as they are now (after the broker recorded one, say).
  func reload() async {
    for row in rows { group.remove(row) }
    rows = []
    let grants: [Grant]
    do throws(ConsentStoreError) { grants = try await consents.all() } catch {
      grants = []
      b2c_debug("preferences: \(error.message)")
    }
    noApps.isVisible = grants.isEmpty
    // The answers were lost (a damaged file, kept aside): said where the list would be.
    if let problem = await consents.problem { noApps.title = problem.message }
    for grant in grants {
      // The name it gives itself, then who the broker verified it is (its sandbox's app ID, or its program and
      // script) and the account.
      let verified = grant.app.split(separator: ":", maxSplits: 1).last.map(String.init) ?? grant.app
      let row = ActionRow.new(title: grant.appName, subtitle: verified + "\n" + grant.accountName)
      let toggle = Switch.new(isActive: grant.allowed)
      toggle.centreVertically()
      toggle.setAccessibleLabel(String(template: tr("Allow %@"), grant.appName))
      row.addSuffix(toggle, activating: true)
      // The row labels its switch with its title too ("Allow Notes Notes" read aloud): the label above is enough.
      toggle.resetLabelledBy()
      toggle.onToggled { [weak self] allowed in Task { await self?.change(grant, allowed: allowed) } }
      group.add(row)
      rows.append(row)
    }
  }

  private func change(_ grant: Grant, allowed: Bool) async {
    do throws(ConsentStoreError) {
      try await consents.setAllowed(allowed, app: grant.app, account: grant.account)
    } catch {
      b2c_debug("preferences: \(error.message)")
    }
  }
}

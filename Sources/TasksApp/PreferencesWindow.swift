// PreferencesWindow: the apps the user allowed, or denied, to use the sign-in through the broker, each with a switch
// to change their mind. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// The preferences window (`ui/preferences-window.ui`): "Apps Using Your Sign-In", one row per app and account with
/// a switch (on: allowed). Turning one off withdraws it at once: the app's next request gets `Error.Denied`.
@MainActor
final class PreferencesWindow {
  private let builder = Builder(resource: Installation.resourceBase + "/ui/preferences-window.ui")
  private let window: Window
  private let group: UnsafeMutablePointer<AdwPreferencesGroup>
  private let noApps: Widget
  private let consents: ConsentStore
  private var rows: [Widget] = []

  /// Opens the window over `parent`, listing `consents`' answers.
  init(parent: Window?, consents: ConsentStore) {
    window = builder.widget("preferences_window", as: Window.init)
    group = builder.object("apps_group", adw_preferences_group_get_type())
    noApps = builder.widget("no_apps_row")
    self.consents = consents
    window.setTransient(for: parent)
    Self.hideSearchEntries(in: window.asWidget)
    Task { await reload() }
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
    for row in rows { adw_preferences_group_remove(group, row.widget) }
    rows = []
    let grants: [Grant]
    do throws(ConsentStoreError) { grants = try await consents.all() } catch {
      grants = []
      b2c_debug("preferences: \(error.message)")
    }
    noApps.isVisible = grants.isEmpty
    if let problem = await consents.problem {
      // The answers were lost (a damaged file, kept aside): said where the list would be.
      let row = noApps.widget.cast(to: adw_preferences_row_get_type(), as: AdwPreferencesRow.self)
      adw_preferences_row_set_use_markup(row, 0)
      adw_preferences_row_set_title(row, problem.message)
    }
    for grant in grants {
      let row = Widget(adw_action_row_new()!)
      let asRow = row.widget.cast(to: adw_preferences_row_get_type(), as: AdwPreferencesRow.self)
      adw_preferences_row_set_use_markup(asRow, 0)
      adw_preferences_row_set_title(asRow, grant.appName)
      let actionRow = row.widget.cast(to: adw_action_row_get_type(), as: AdwActionRow.self)
      adw_action_row_set_subtitle(actionRow, grant.accountName)
      let toggle = Widget(gtk_switch_new()!)
      toggle.centreVertically()
      gtk_switch_set_active(OpaquePointer(toggle.widget), grant.allowed.gboolean)
      b2c_accessible_set_label(toggle.widget, String(template: tr("Allow %@"), grant.appName))
      adw_action_row_add_suffix(actionRow, toggle.widget)
      adw_action_row_set_activatable_widget(actionRow, toggle.widget)
      // The row labels its switch with its title too ("Allow Notes Notes" read aloud): the label above is enough.
      gtk_accessible_reset_relation(OpaquePointer(toggle.widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY)
      Signal.connect(toggle, "notify::active") { [weak self] _ in
        let allowed = gtk_switch_get_active(OpaquePointer(toggle.widget)) != 0
        Task { await self?.change(grant, allowed: allowed) }
      }
      adw_preferences_group_add(group, row.widget)
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

// Preferences: typed views of libadwaita's preference rows and GTK's switch. Main actor.

import CGtk

/// An `AdwPreferencesGroup`: a titled list of rows.
public struct PreferencesGroup: WidgetView {
  public let widget: UnsafeMutablePointer<GtkWidget>
  private var group: UnsafeMutablePointer<AdwPreferencesGroup> {
    widget.cast(to: adw_preferences_group_get_type())
  }
  public init(_ instance: some GPointer) { widget = instance.cast(to: adw_preferences_group_get_type()) }

  /// Adds `row` at the end.
  @MainActor
  public func add(_ row: some WidgetView) { adw_preferences_group_add(group, row.widget) }

  /// Removes `row`.
  @MainActor
  public func remove(_ row: some WidgetView) { adw_preferences_group_remove(group, row.widget) }
}

/// An `AdwActionRow` (or any `AdwPreferencesRow`, for its title): a title, a subtitle and widgets at its end.
public struct ActionRow: WidgetView {
  public let widget: UnsafeMutablePointer<GtkWidget>
  private var row: UnsafeMutablePointer<AdwPreferencesRow> { widget.cast(to: adw_preferences_row_get_type()) }
  public init(_ instance: some GPointer) { widget = instance.cast(to: adw_preferences_row_get_type()) }

  /// A new action row titled `title` over `subtitle`, both shown as written (no markup).
  @MainActor
  public static func new(title: String, subtitle: String) -> ActionRow {
    let row = ActionRow(adw_action_row_new())
    row.title = title
    adw_action_row_set_subtitle(row.actionRow, subtitle)
    return row
  }

  private var actionRow: UnsafeMutablePointer<AdwActionRow> { widget.cast(to: adw_action_row_get_type()) }

  /// The title, shown as written (markup is turned off).
  @MainActor
  public var title: String {
    get { String(cString: adw_preferences_row_get_title(row)) }
    nonmutating set {
      adw_preferences_row_set_use_markup(row, 0)
      adw_preferences_row_set_title(row, newValue)
    }
  }

  /// The subtitle (an action row's), shown as written (markup is off while the title's is).
  @MainActor
  public var subtitle: String {
    get { adw_action_row_get_subtitle(actionRow).map { String(cString: $0) } ?? "" }
    nonmutating set { adw_action_row_set_subtitle(actionRow, newValue) }
  }

  /// Adds `suffix` at the row's end; with `activating`, activating the row activates it (a click on the row flips a
  /// switch).
  @MainActor
  public func addSuffix(_ suffix: some WidgetView, activating: Bool = false) {
    adw_action_row_add_suffix(actionRow, suffix.widget)
    if activating { adw_action_row_set_activatable_widget(actionRow, suffix.widget) }
  }
}

/// A `GtkSwitch`.
public struct Switch: WidgetView {
  public let widget: UnsafeMutablePointer<GtkWidget>
  private var toggle: OpaquePointer { OpaquePointer(widget) }
  public init(_ instance: some GPointer) { widget = instance.cast(to: gtk_switch_get_type()) }

  /// A new switch, on (`isActive`) or off.
  @MainActor
  public static func new(isActive: Bool) -> Switch {
    let toggle = Switch(gtk_switch_new())
    toggle.isActive = isActive
    return toggle
  }

  /// Whether it is on.
  @MainActor
  public var isActive: Bool {
    get { gtk_switch_get_active(toggle) != 0 }
    nonmutating set { gtk_switch_set_active(toggle, newValue.gboolean) }
  }

  /// Runs `handler` with the new state whenever the switch is turned (by the user or by code).
  @MainActor
  public func onToggled(_ handler: @escaping @MainActor (Bool) -> Void) {
    Signal.connect(toggle, "notify::active") { [toggle] (_: UnsafeMutableRawPointer?) in
      handler(gtk_switch_get_active(toggle) != 0)
    }
  }
}

// Rows: the rows a form is made of (a task's details) — an entry row, a choice row, a date button with a calendar,
// an icon button, a menu of choices — as small typed views over libadwaita 1.2 and GTK 4.8. Main actor.

import CGtk
import TasksCalendar

/// An `AdwEntryRow`: a titled one-line entry; `onApply` runs on Enter or its apply button (named `applyName`:
/// libadwaita 1.2 leaves it without a name). Without an apply button, Enter alone applies.
public struct EntryRow: WidgetView {
  public let widget: UnsafeMutablePointer<GtkWidget>
  private let applyButton: Bool

  @MainActor
  public init(title: String, applyName: String?) {
    widget = adw_entry_row_new()
    applyButton = applyName != nil
    ActionRow(widget).title = title
    adw_entry_row_set_show_apply_button(widget.cast(to: adw_entry_row_get_type()), applyButton.gboolean)
    guard let applyName else { return }
    Widget(widget).forEachWidget { child in
      if child.isA(gtk_button_get_type()) { child.setAccessibleLabel(applyName) }
    }
  }

  /// Its text.
  public var editable: Editable { Editable(widget) }

  @MainActor
  public func onApply(_ handler: @escaping @MainActor () -> Void) {
    Signal.connect(widget, applyButton ? "apply" : "entry-activated", handler)
  }
}

/// An `AdwComboRow` over a fixed list of choices; `onChosen` runs with the index the user picks (not when code sets
/// it).
@MainActor
public final class ChoiceRow {
  public let row: Widget
  private var combo: UnsafeMutablePointer<AdwComboRow> { row.widget.cast(to: adw_combo_row_get_type()) }
  private var setting = false
  public var onChosen: (Int) -> Void = { _ in }

  public init(title: String, choices: [String]) {
    self.choices = choices
    row = Widget(adw_combo_row_new())
    ActionRow(row).title = title
    show(choices)
    Signal.connect(row, "notify::selected") { [unowned self] (_: UnsafeMutableRawPointer?) in
      if !self.setting { self.onChosen(self.selected) }
    }
  }

  /// Replaces the choices (the lists a task can move to).
  public func setChoices(_ choices: [String], selected: Int) {
    if choices != self.choices {
      self.choices = choices
      setting = true
      defer { setting = false }
      show(choices)
    }
    self.selected = selected
  }

  private func show(_ choices: [String]) {
    let model = withCStringArray(choices) { gtk_string_list_new($0) }
    adw_combo_row_set_model(combo, model)
    g_object_unref(model?.gpointer)
  }

  /// The choices shown (a new model only when they change: the popover stays as it is).
  private var choices: [String]

  /// The index chosen (set here: `onChosen` is not told).
  public var selected: Int {
    get { Int(adw_combo_row_get_selected(combo)) }
    set {
      guard newValue != selected else { return }
      setting = true
      adw_combo_row_set_selected(combo, UInt32(max(0, newValue)))
      setting = false
    }
  }
}

/// A button showing a date that opens a calendar (and "No Date" when the date may be cleared); `onPicked` runs with
/// the user's choice: a click on a day, or the arrow keys (Page Up and Down: a month) then Enter or Space (Escape
/// leaves the date as it was). `arrowNames` name GTK 4.8's calendar arrows, which it leaves without names: previous
/// and next month, then previous and next year.
@MainActor
public final class DateButton {
  public let button: Widget
  private let calendar: Widget
  private let popover: Widget
  private var shown: CalendarDate?
  private var cancelled = false
  private var pressedOn: CalendarDate?
  public var onPicked: (CalendarDate?) -> Void = { _ in }

  public init(accessibleLabel: String, clearLabel: String?, arrowNames: [String]) {
    button = Widget(gtk_menu_button_new())
    button.setAccessibleLabel(accessibleLabel)
    button.centreVertically()
    popover = Widget(gtk_popover_new())
    calendar = Widget(gtk_calendar_new())
    calendar.setAccessibleLabel(accessibleLabel)
    let box = Box.new(horizontal: false, spacing: 6)
    box.append(calendar)
    if let clearLabel {
      let clear = Button(gtk_button_new_with_mnemonic(clearLabel))
      Signal.connect(clear, "clicked") { [unowned self] in
        self.cancelled = true
        self.popdown()
        self.onPicked(nil)
      }
      box.append(clear)
    }
    gtk_popover_set_child(popover.widget.cast(to: gtk_popover_get_type()), box.widget)
    gtk_menu_button_set_popover(OpaquePointer(button.widget), popover.widget)
    Signal.connect(popover, "show") { [unowned self] in self.cancelled = false }
    Signal.connect(popover, "closed") { [unowned self] in
      guard !self.cancelled, let date = self.calendarDate, date != self.shown else { return }
      self.onPicked(date)
    }
    calendar.onKeyPressed(first: true) { [unowned self] keyval, _ in
      switch Int32(keyval) {
      case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter, GDK_KEY_space:
        self.popdown()
        return true
      // The arrows move the selected day (GTK 4.8's move only a focus ring, which Enter does not take).
      case GDK_KEY_Left: return self.moveSelection { $0.adding(days: -1) }
      case GDK_KEY_Right: return self.moveSelection { $0.adding(days: 1) }
      case GDK_KEY_Up: return self.moveSelection { $0.adding(days: -7) }
      case GDK_KEY_Down: return self.moveSelection { $0.adding(days: 7) }
      case GDK_KEY_Page_Up: return self.moveSelection { $0.adding(months: -1) }
      case GDK_KEY_Page_Down: return self.moveSelection { $0.adding(months: 1) }
      case GDK_KEY_Escape:
        self.cancelled = true
        self.popdown()
        return true
      default: return false
      }
    }
    // A click on a day picks it (a click on the month's arrows does not): the calendar selects on the release,
    // after this gesture of the capture phase has seen it.
    let click = gtk_gesture_click_new()!
    gtk_event_controller_set_propagation_phase(click, GTK_PHASE_CAPTURE)
    Signal.connectClick(click, "pressed") { [unowned self] _, _ in self.pressedOn = self.calendarDate }
    Signal.connectClick(click, "released") { [unowned self] _, _ in
      Task { @MainActor in
        if self.calendarDate != self.pressedOn { self.popdown() }
      }
    }
    calendar.add(click)
    var arrows: [Widget] = []
    calendar.forEachWidget { widget in if widget.isA(gtk_button_get_type()) { arrows.append(widget) } }
    for (arrow, name) in zip(arrows, arrowNames) { arrow.setAccessibleLabel(name) }
  }

  /// Shows `date` as `label` and selects it in the calendar (`today` when there is none).
  public func show(_ date: CalendarDate?, label: String, today: CalendarDate) {
    shown = date
    gtk_menu_button_set_label(OpaquePointer(button.widget), label)
    if !popover.isVisible { select(date ?? today) }
  }

  /// What the button says.
  public var label: String { String(cString: gtk_menu_button_get_label(OpaquePointer(button.widget))) }

  /// Opens the calendar, the focus in it (Ctrl+D).
  public func popup() {
    gtk_menu_button_popup(OpaquePointer(button.widget))
    _ = calendar.grabFocus()
  }

  private func moveSelection(_ move: (CalendarDate) -> CalendarDate) -> Bool {
    guard let date = calendarDate else { return false }
    select(move(date))
    return true
  }

  private func select(_ date: CalendarDate) {
    guard let moment = g_date_time_new_local(Int32(date.year), Int32(date.month), Int32(date.day), 12, 0, 0) else {
      return
    }
    gtk_calendar_select_day(OpaquePointer(calendar.widget), moment)
    g_date_time_unref(moment)
  }

  private func popdown() { gtk_popover_popdown(popover.widget.cast(to: gtk_popover_get_type())) }

  private var calendarDate: CalendarDate? {
    guard let moment = gtk_calendar_get_date(OpaquePointer(calendar.widget)) else { return nil }
    defer { g_date_time_unref(moment) }
    return CalendarDate(
      year: Int(g_date_time_get_year(moment)), month: Int(g_date_time_get_month(moment)),
      day: Int(g_date_time_get_day_of_month(moment)))
  }
}

/// A flat icon button with a tooltip that names it (its accessible name too).
@MainActor
public func iconButton(_ icon: String, _ name: String, _ clicked: @escaping @MainActor () -> Void) -> Button {
  let button = Button.new(iconName: icon)
  button.setCSSClass("flat", true)
  button.centreVertically()
  button.setAccessibleLabel(name)
  Tooltip.set(button, name, describing: false)
  Signal.connect(button, "clicked", clicked)
  return button
}

/// Makes `menu` (a GtkMenuButton) a flat button with `icon`, named `name`, whose popover lists `choices`: each a flat
/// button that closes the popover and runs its action.
@MainActor
public func choiceMenu(
  _ menu: Widget, icon: String, name: String, _ choices: [(text: String, chosen: @MainActor () -> Void)]
) {
  gtk_menu_button_set_icon_name(OpaquePointer(menu.widget), icon)
  menu.setCSSClass("flat", true)
  menu.centreVertically()
  Tooltip.set(menu, name, describing: false)
  menu.setAccessibleLabel(name)
  let box = Box.new(horizontal: false, spacing: 0)
  let button = OpaquePointer(menu.widget)  // it owns the popover and so the choices
  for choice in choices {
    let item = Button(gtk_button_new_with_label(choice.text))
    item.setCSSClass("flat", true)
    Signal.connect(item, "clicked") {
      gtk_menu_button_popdown(button)
      choice.chosen()
    }
    box.append(item)
  }
  let popover = gtk_popover_new()!
  gtk_popover_set_child(popover.cast(to: gtk_popover_get_type()), box.widget)
  gtk_menu_button_set_popover(OpaquePointer(menu.widget), popover)
}

extension PreferencesGroup {
  /// A new group titled `title` (empty: no title).
  @MainActor
  public static func new(title: String = "") -> PreferencesGroup {
    let group = PreferencesGroup(adw_preferences_group_new())
    if !title.isEmpty {
      adw_preferences_group_set_title(group.widget.cast(to: adw_preferences_group_get_type()), title)
    }
    return group
  }
}

extension ActionRow {
  /// A titled row that holds `child` across its width, centred (seven day buttons, say, which beside a title
  /// would squeeze a narrow window); not activatable.
  @MainActor
  public static func holding(_ child: some WidgetView, title: String) -> ActionRow {
    let row = ActionRow(adw_preferences_row_new())
    row.title = title
    gtk_list_box_row_set_activatable(row.widget.cast(to: gtk_list_box_row_get_type()), 0)
    gtk_widget_set_halign(child.widget, GTK_ALIGN_CENTER)
    gtk_list_box_row_set_child(row.widget.cast(to: gtk_list_box_row_get_type()), child.widget)
    return row
  }
}

/// A `GtkSpinButton` over whole numbers; `onChanged` runs with each new value (the user's or the code's).
public struct SpinButton: WidgetView {
  public let widget: UnsafeMutablePointer<GtkWidget>
  private var spin: OpaquePointer { OpaquePointer(widget) }

  /// A spin button from `minimum` to `maximum`, by one.
  @MainActor
  public init(from minimum: Int, to maximum: Int) {
    widget = gtk_spin_button_new_with_range(Double(minimum), Double(maximum), 1)
  }

  @MainActor
  public var value: Int {
    get { Int(gtk_spin_button_get_value_as_int(spin)) }
    nonmutating set { gtk_spin_button_set_value(spin, Double(newValue)) }
  }

  @MainActor
  public func onChanged(_ handler: @escaping @MainActor (Int) -> Void) {
    Signal.connect(widget, "value-changed") { handler(self.value) }
  }
}

/// A `GtkToggleButton` with a label; `onToggled` runs with each new state (the user's or the code's).
public struct ToggleButton: WidgetView {
  public let widget: UnsafeMutablePointer<GtkWidget>
  private var toggle: UnsafeMutablePointer<GtkToggleButton> { widget.cast(to: gtk_toggle_button_get_type()) }

  @MainActor
  public init(label: String) { widget = gtk_toggle_button_new_with_label(label) }

  @MainActor
  public var isActive: Bool {
    get { gtk_toggle_button_get_active(toggle) != 0 }
    nonmutating set { gtk_toggle_button_set_active(toggle, newValue.gboolean) }
  }

  @MainActor
  public func onToggled(_ handler: @escaping @MainActor (Bool) -> Void) {
    Signal.connect(widget, "toggled") { handler(self.isActive) }
  }
}

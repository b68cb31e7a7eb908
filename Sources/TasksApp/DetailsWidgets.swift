// DetailsWidgets: the rows a task's details are made of — an entry row, a choice row, a date button with a
// calendar — as small typed views over libadwaita 1.2 and GTK 4.8. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// An `AdwEntryRow`: a titled one-line entry; `onApply` runs on Enter or its apply button.
struct EntryRow: WidgetView {
  let widget: UnsafeMutablePointer<GtkWidget>
  private let applyButton: Bool

  @MainActor
  init(title: String, applyButton: Bool = true) {
    widget = adw_entry_row_new()
    self.applyButton = applyButton
    ActionRow(widget).title = title
    adw_entry_row_set_show_apply_button(widget.cast(to: adw_entry_row_get_type()), applyButton.gboolean)
    // libadwaita 1.2 leaves its apply button without a name.
    Widget(widget).forEachWidget { child in
      let instance = child.gpointer.assumingMemoryBound(to: GTypeInstance.self)
      if g_type_check_instance_is_a(instance, gtk_button_get_type()) != 0 { child.setAccessibleLabel(tr("Apply")) }
    }
  }

  var editable: Editable { Editable(widget) }

  @MainActor
  func onApply(_ handler: @escaping @MainActor () -> Void) {
    Signal.connect(widget, applyButton ? "apply" : "entry-activated", handler)
  }
}

/// An `AdwComboRow` over a fixed list of choices; `onChosen` runs with the index the user picks (not when code sets
/// it).
@MainActor
final class ChoiceRow {
  let row: Widget
  private var combo: UnsafeMutablePointer<AdwComboRow> { row.widget.cast(to: adw_combo_row_get_type()) }
  private var setting = false
  var onChosen: (Int) -> Void = { _ in }

  init(title: String, choices: [String]) {
    self.choices = choices
    row = Widget(adw_combo_row_new())
    ActionRow(row).title = title
    show(choices)
    Signal.connect(row, "notify::selected") { [unowned self] (_: UnsafeMutableRawPointer?) in
      if !self.setting { self.onChosen(self.selected) }
    }
  }

  /// Replaces the choices (the lists a task can move to).
  func setChoices(_ choices: [String], selected: Int) {
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

  var selected: Int {
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
/// leaves the date as it was).
@MainActor
final class DateButton {
  let button: Widget
  private let calendar: Widget
  private let popover: Widget
  private var shown: CalendarDate?
  private var cancelled = false
  private var pressedOn: CalendarDate?
  var onPicked: (CalendarDate?) -> Void = { _ in }

  init(accessibleLabel: String, clearLabel: String?) {
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
    Self.nameArrows(of: calendar)
  }

  /// GTK 4.8's calendar leaves its arrows without names: previous and next month, then previous and next year.
  private static func nameArrows(of calendar: Widget) {
    var buttons: [Widget] = []
    calendar.forEachWidget { widget in
      let instance = widget.gpointer.assumingMemoryBound(to: GTypeInstance.self)
      if g_type_check_instance_is_a(instance, gtk_button_get_type()) != 0 { buttons.append(widget) }
    }
    let names = [tr("Previous Month"), tr("Next Month"), tr("Previous Year"), tr("Next Year")]
    for (button, name) in zip(buttons, names) { button.setAccessibleLabel(name) }
  }

  /// Shows `date` (or `none` when there is none) and selects it in the calendar.
  func show(_ date: CalendarDate?, today: CalendarDate, none: String) {
    shown = date
    gtk_menu_button_set_label(OpaquePointer(button.widget), date.map { DueLabel.day($0, today: today) } ?? none)
    if gtk_widget_get_visible(popover.widget) == 0 { select(date ?? today) }
  }

  /// Opens the calendar, the focus in it (Ctrl+D).
  func popup() {
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
func iconButton(_ icon: String, _ name: String, _ clicked: @escaping @MainActor () -> Void) -> Button {
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
func choiceMenu(_ menu: Widget, icon: String, name: String, _ choices: [(text: String, chosen: @MainActor () -> Void)])
{
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

// DetailsRepeatEditor: the details' repeat — none, daily, every weekday, weekly on chosen days, monthly, yearly;
// every N; ending never, on a date or after a number of times; counted from the due date or from completion. The
// form is TasksCore's `RepeatForm`. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// The repeat group of a task's details; each change is one edit of the task (a repeat without a due date starts
/// today).
@MainActor
final class DetailsRepeatEditor {
  let group: Widget
  private let kind = ChoiceRow(title: tr("Repeat"), choices: RepeatForm.Kind.allCases.map(\.label))
  private let everyRow = ActionRow.new(title: tr("Every"), subtitle: "")
  private let interval = Widget(gtk_spin_button_new_with_range(1, 1000, 1))
  private let unit = Label.new()
  private let daysRow = ActionRow(adw_preferences_row_new())
  private var dayToggles: [(Weekday, Widget)] = []
  private let ends = ChoiceRow(
    title: tr("Ends"), choices: [tr("Never"), tr("On a date"), tr("After a number of times")])
  private let untilRow = ActionRow.new(title: tr("Last date"), subtitle: "")
  private let until = DateButton(accessibleLabel: tr("Last date"), clearLabel: nil)
  private let countRow = ActionRow.new(title: tr("Times"), subtitle: "")
  private let count = Widget(gtk_spin_button_new_with_range(1, 999, 1))
  private let from = ChoiceRow(title: tr("Next date counted from"), choices: [tr("The due date"), tr("Completion")])
  private var form = RepeatForm(nil)
  private var today = CalendarDate(dayNumber: 0)
  private var setting = false
  /// Records a change of the task.
  var edit: (@escaping (inout PlannerItem) -> Void) -> Void = { _ in }

  init() {
    let preferences = PreferencesGroup(adw_preferences_group_new())
    group = preferences.asWidget
    adw_preferences_group_set_title(preferences.widget.cast(to: adw_preferences_group_get_type()), tr("Repeat"))
    kind.onChosen = { [unowned self] index in
      self.change { $0.kind = RepeatForm.Kind(rawValue: index) ?? .none }
    }
    preferences.add(kind.row)
    interval.centreVertically()
    interval.setAccessibleLabel(tr("Every"))
    Signal.connect(interval, "value-changed") { [unowned self] in
      let value = Int(gtk_spin_button_get_value_as_int(OpaquePointer(self.interval.widget)))
      self.change { $0.interval = value }
    }
    everyRow.addSuffix(interval)
    unit.centreVertically()
    everyRow.addSuffix(unit)
    preferences.add(everyRow)
    let days = Box.new(horizontal: true, spacing: 0)
    days.setCSSClass("linked", true)
    days.centreVertically()
    for (day, short, name) in RepeatForm.weekdayNames {
      let toggle = Widget(gtk_toggle_button_new_with_label(short))
      toggle.setAccessibleLabel(name)
      Signal.connect(toggle, "toggled") { [unowned self] in
        let on = gtk_toggle_button_get_active(toggle.widget.cast(to: gtk_toggle_button_get_type())) != 0
        self.change { form in
          form.days.removeAll { $0 == day }
          if on { form.days.append(day) }
        }
      }
      dayToggles.append((day, toggle))
      days.append(toggle)
    }
    // A row of its own, the days across it: beside a title, seven buttons squeeze it on a narrow window.
    daysRow.title = tr("On these days")
    gtk_list_box_row_set_activatable(daysRow.widget.cast(to: gtk_list_box_row_get_type()), 0)
    days.setMargins(top: 8, bottom: 8, start: 12, end: 12)
    gtk_widget_set_halign(days.widget, GTK_ALIGN_CENTER)
    gtk_list_box_row_set_child(daysRow.widget.cast(to: gtk_list_box_row_get_type()), days.widget)
    preferences.add(daysRow)
    ends.onChosen = { [unowned self] index in
      self.change { form in
        switch index {
        case 1: form.end = .until(self.today.adding(months: 1))
        case 2: form.end = .count(10)
        default: form.end = .never
        }
      }
    }
    preferences.add(ends.row)
    until.onPicked = { [unowned self] date in
      guard let date else { return }
      self.change { $0.end = .until(date) }
    }
    untilRow.addSuffix(until.button)
    preferences.add(untilRow)
    count.centreVertically()
    count.setAccessibleLabel(tr("Times"))
    Signal.connect(count, "value-changed") { [unowned self] in
      let value = Int(gtk_spin_button_get_value_as_int(OpaquePointer(self.count.widget)))
      self.change { $0.end = .count(value) }
    }
    countRow.addSuffix(count)
    preferences.add(countRow)
    from.onChosen = { [unowned self] index in self.change { $0.from = index == 1 ? .completion : .due } }
    preferences.add(from.row)
  }

  /// Shows the task's repeat; only the rows its kind uses are visible.
  func show(_ item: PlannerItem, today: CalendarDate) {
    self.today = today
    form = RepeatForm(item.recurrence)
    setting = true
    defer { setting = false }
    kind.selected = form.kind.rawValue
    gtk_spin_button_set_value(OpaquePointer(interval.widget), Double(form.interval))
    unit.text = form.unit
    for (day, toggle) in dayToggles {
      gtk_toggle_button_set_active(
        toggle.widget.cast(to: gtk_toggle_button_get_type()), form.days.contains(day).gboolean)
    }
    switch form.end {
    case .never: ends.selected = 0
    case .until(let date):
      ends.selected = 1
      until.show(date, today: today, none: "")
    case .count(let times):
      ends.selected = 2
      gtk_spin_button_set_value(OpaquePointer(count.widget), Double(times))
    }
    from.selected = form.from == .completion ? 1 : 0
    let repeats = form.kind != .none
    everyRow.isVisible = form.hasInterval
    daysRow.isVisible = form.kind == .weekly
    for row in [ends.row, from.row] { row.isVisible = repeats }
    untilRow.isVisible = repeats && ends.selected == 1
    countRow.isVisible = repeats && ends.selected == 2
  }

  /// Changes the form and records the repeat it says.
  private func change(_ body: (inout RepeatForm) -> Void) {
    guard !setting else { return }
    body(&form)
    let recurrence = form.recurrence
    let today = today
    edit { item in
      item.recurrence = recurrence
      if recurrence != nil, item.due == nil { item.due = TaskDue(date: today) }
    }
  }
}

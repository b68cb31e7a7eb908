// DetailsRepeatEditor: the details' repeat — none, daily, every weekday, weekly on chosen days, monthly, yearly;
// every N; ending never, on a date or after a number of times; counted from the due date or from completion. The
// form is TasksCore's `RepeatForm`. Main actor.

import FoundationEssentials
import GtkSupport
import TasksCore

/// The repeat group of a task's details; each change is one edit of the task (a repeat without a due date starts
/// today).
@MainActor
final class DetailsRepeatEditor {
  let group: Widget
  private let rows = RepeatRows()
  private var form = RepeatForm(nil)
  private var today = CalendarDate(dayNumber: 0)
  private var setting = false
  /// Records a change of the task.
  var edit: (@escaping (inout PlannerItem) -> Void) -> Void = { _ in }

  init() {
    let preferences = PreferencesGroup.new(title: tr("Repeat"))
    group = preferences.asWidget
    let (kind, everyRow, interval, ends) = (rows.kind, rows.everyRow, rows.interval, rows.ends)
    let (untilRow, until, countRow, count, from) = (rows.untilRow, rows.until, rows.countRow, rows.count, rows.from)
    kind.onChosen = { [unowned self] index in
      self.change { $0.kind = RepeatForm.Kind(rawValue: index) ?? .none }
    }
    preferences.add(kind.row)
    interval.onChanged { [unowned self] value in self.change { $0.interval = value } }
    preferences.add(everyRow)
    for (day, toggle) in rows.dayToggles {
      toggle.onToggled { [unowned self] on in
        self.change { form in
          form.days.removeAll { $0 == day }
          if on { form.days.append(day) }
        }
      }
    }
    preferences.add(rows.daysRow)
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
    preferences.add(untilRow)
    count.onChanged { [unowned self] value in self.change { $0.end = .count(value) } }
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
    let (kind, ends, until, from) = (rows.kind, rows.ends, rows.until, rows.from)
    kind.selected = form.kind.rawValue
    rows.interval.value = form.interval
    rows.unit.text = form.unit
    for (day, toggle) in rows.dayToggles { toggle.isActive = form.days.contains(day) }
    switch form.end {
    case .never: ends.selected = 0
    case .until(let date):
      ends.selected = 1
      until.show(date, label: DueLabel.day(date, today: today), today: today)
    case .count(let times):
      ends.selected = 2
      rows.count.value = times
    }
    from.selected = form.from == .completion ? 1 : 0
    let repeats = form.kind != .none
    rows.everyRow.isVisible = form.hasInterval
    rows.daysRow.isVisible = form.kind == .weekly
    for row in [ends.row, from.row] { row.isVisible = repeats }
    rows.untilRow.isVisible = repeats && ends.selected == 1
    rows.countRow.isVisible = repeats && ends.selected == 2
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

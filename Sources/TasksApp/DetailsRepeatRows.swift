// DetailsRepeatRows: the rows of the details' repeat, made of GtkSupport's typed views. Main actor.

import FoundationEssentials
import GtkSupport
import TasksCore

/// The repeat group's rows: its kind, every N (unit), the weekdays, how it ends (a date, a number of times) and what
/// the next date counts from. `DetailsRepeatEditor` shows a task's repeat in them and records their changes.
@MainActor
struct RepeatRows {
  let kind = ChoiceRow(title: tr("Repeat"), choices: RepeatForm.Kind.allCases.map(\.label))
  let everyRow = ActionRow.new(title: tr("Every"), subtitle: "")
  let interval = SpinButton(from: 1, to: 1000)
  let unit = Label.new()
  /// A row of its own, the days across it: beside a title, seven buttons squeeze it on a narrow window.
  let daysRow: ActionRow
  let dayToggles: [(Weekday, ToggleButton)]
  let ends = ChoiceRow(title: tr("Ends"), choices: [tr("Never"), tr("On a date"), tr("After a number of times")])
  let untilRow = ActionRow.new(title: tr("Last date"), subtitle: "")
  let until = DateButton(accessibleLabel: tr("Last date"), clearLabel: nil, arrowNames: calendarArrowNames)
  let countRow = ActionRow.new(title: tr("Times"), subtitle: "")
  let count = SpinButton(from: 1, to: 999)
  let from = ChoiceRow(title: tr("Next date counted from"), choices: [tr("The due date"), tr("Completion")])

  init() {
    let days = Box.new(horizontal: true, spacing: 0)
    days.setCSSClass("linked", true)
    days.setMargins(top: 8, bottom: 8, start: 12, end: 12)
    dayToggles = RepeatForm.weekdayNames.map { day, short, name in
      let toggle = ToggleButton(label: short)
      toggle.setAccessibleLabel(name)
      days.append(toggle)
      return (day, toggle)
    }
    daysRow = ActionRow.holding(days, title: tr("On these days"))
    for spin in [interval, count] { spin.centreVertically() }
    interval.setAccessibleLabel(tr("Every"))
    count.setAccessibleLabel(tr("Times"))
    unit.centreVertically()
    everyRow.addSuffix(interval)
    everyRow.addSuffix(unit)
    untilRow.addSuffix(until.button)
    countRow.addSuffix(count)
  }
}

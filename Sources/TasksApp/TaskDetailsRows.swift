// TaskDetailsRows: the rows of a task's details made in code (typed views of GtkSupport), and the names of the
// calendar's arrows. Main actor.

import FoundationEssentials
import GtkSupport
import TasksCore

/// The rows of a task's details that the window makes (its `.ui` file has the rest): the title, priority and list,
/// the due date and time.
@MainActor
struct TaskDetailsRows {
  let title = EntryRow(title: tr("Title"), applyName: tr("Apply"))
  let priority = ChoiceRow(title: tr("Priority"), choices: [tr("None"), tr("High"), tr("Medium"), tr("Low")])
  let list = ChoiceRow(title: tr("List"), choices: [])
  let due = ActionRow.new(title: tr("Due date"), subtitle: "")
  let dueDate = DateButton(
    accessibleLabel: tr("Due date"), clearLabel: tr("_No Due Date"), arrowNames: calendarArrowNames)
  let time = EntryRow(title: tr("Time (e.g. 09:00; empty for none)"), applyName: tr("Apply"))
}

/// GTK 4.8's calendar arrows, which it leaves without names.
@MainActor
let calendarArrowNames = [tr("Previous Month"), tr("Next Month"), tr("Previous Year"), tr("Next Year")]

// PlannerFieldNames: a task's fields in words, for the conflict toast ("its title and due date were changed
// elsewhere too") and the details. Translated. Any thread.

import FoundationEssentials

extension PlannerItem.Field {
  /// The field in words ("title", "due date").
  public var name: String {
    switch self {
    case .title: tr("title")
    case .notes: tr("notes")
    case .status: tr("done state")
    case .priority: tr("priority")
    case .due: tr("due date")
    case .recurrence: tr("repeat")
    case .reminders: tr("reminders")
    case .categories: tr("categories")
    case .parentID: tr("parent task")
    case .sortKey: tr("place in the list")
    case .listID: tr("list")
    }
  }
}

extension PlannerConflict {
  /// The toast's message: the task and the fields whose edit here lost to one made elsewhere.
  public var message: String {
    String(
      template: tr("“%@” was changed elsewhere too: its %@ there was kept"), current.title,
      fields.map(\.name).joined(separator: ", "))
  }
}

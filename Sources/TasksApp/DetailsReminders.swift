// DetailsReminders: the details' reminders — each in words with Remove, the usual ones from a menu (at the due
// time, 10 minutes, 1 hour, 1 day before) and any other typed ("in 20 minutes", "at 17:00", "tomorrow 9am"), as
// many as wanted. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// The reminders group of a task's details; each change is one edit of the task.
@MainActor
final class DetailsReminders {
  let group: Widget
  private var preferences: PreferencesGroup { PreferencesGroup(group) }
  private let add = EntryRow(title: tr("Add a reminder (e.g. 1 hour before)"))
  private let presets = Widget(gtk_menu_button_new())
  private var rows: [Widget] = []
  private var shown: [TaskReminder]?
  private var item: PlannerItem?
  private var today = CalendarDate(dayNumber: 0)
  /// Records a change of the task.
  var edit: (@escaping (inout PlannerItem) -> Void) -> Void = { _ in }
  /// Says what was wrong with a reminder typed.
  var onProblem: (String) -> Void = { _ in }

  init() {
    group = PreferencesGroup(adw_preferences_group_new()).asWidget
    adw_preferences_group_set_title(group.widget.cast(to: adw_preferences_group_get_type()), tr("Reminders"))
    add.onApply { [unowned self] in self.addTyped() }
    gtk_menu_button_set_icon_name(OpaquePointer(presets.widget), "alarm-symbolic")
    presets.setCSSClass("flat", true)
    presets.centreVertically()
    Tooltip.set(presets, tr("Usual Reminders"), describing: false)
    presets.setAccessibleLabel(tr("Usual Reminders"))
    let box = Box.new(horizontal: false, spacing: 0)
    for minutes in ReminderText.presets {
      let label = ReminderText.text(TaskReminder(.before(minutes: minutes)), today: today)
      let button = Button(gtk_button_new_with_label(label))
      button.setCSSClass("flat", true)
      Signal.connect(button, "clicked") { [unowned self] in
        gtk_menu_button_popdown(OpaquePointer(self.presets.widget))
        self.append(.before(minutes: minutes))
      }
      box.append(button)
    }
    let popover = gtk_popover_new()!
    gtk_popover_set_child(popover.cast(to: gtk_popover_get_type()), box.widget)
    gtk_menu_button_set_popover(OpaquePointer(presets.widget), popover)
    adw_entry_row_add_suffix(add.widget.cast(to: adw_entry_row_get_type()), presets.widget)
    preferences.add(add)
    g_object_ref(add.gpointer)  // kept while the rows above it are made again (removing it would drop it)
  }

  isolated deinit { g_object_unref(add.gpointer) }

  /// Shows the task's reminders (rows made again only when they changed).
  func show(_ item: PlannerItem, today: CalendarDate) {
    self.item = item
    self.today = today
    presets.isSensitive = item.due != nil
    guard shown != item.reminders else { return }
    shown = item.reminders
    for row in rows { preferences.remove(row) }
    rows = item.reminders.map { reminder in
      let text = ReminderText.text(reminder, today: today)
      let row = ActionRow.new(title: text, subtitle: "")
      let remove = iconButton("user-trash-symbolic", String(template: tr("Remove Reminder “%@”"), text)) {
        [unowned self] in
        self.edit { item in
          if let found = item.reminders.firstIndex(of: reminder) { item.reminders.remove(at: found) }
        }
      }
      row.addSuffix(remove)
      return row.asWidget
    }
    // The rows go above the entry that adds one.
    let typing = add.hasFocusWithin  // removing the entry takes the focus from it: it goes back
    preferences.remove(add)
    for row in rows { preferences.add(row) }
    preferences.add(add)
    if typing { _ = add.grabFocus() }
  }

  private func append(_ when: TaskReminder.When) {
    edit { item in
      if !item.reminders.contains(where: { $0.when == when }) { item.reminders.append(TaskReminder(when)) }
    }
  }

  private func addTyped() {
    let text = add.editable.text
    let parser = DatePhraseParser(language: DatePhraseParser.userLanguage(), today: today)
    guard let phrase = ReminderPhrase.read(text, language: parser.language, parser: parser) else {
      add.setCSSClass("error", true)
      return onProblem(String(template: tr("“%@” is not a reminder (try “1 hour before” or “at 17:00”)"), text))
    }
    do throws(ReminderText.Problem) {
      let when = try ReminderText.reminder(phrase, due: item?.due, today: today)
      add.setCSSClass("error", false)
      add.editable.text = ""
      append(when)
    } catch {
      add.setCSSClass("error", true)
      onProblem(
        error == .needsDueDate
          ? tr("A reminder before the due time needs a due date") : String(template: tr("“%@” is not a reminder"), text)
      )
    }
  }
}

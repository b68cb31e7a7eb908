// TaskDetailsWindow: a task's details, opened by activating its row — title, notes, the due date (a calendar) and
// its time, the repeat, reminders, priority, subtasks and the list it is in. Every change is an outbox edit made on
// the task as shown, so it works offline and is never lost. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// The details window over the main window (libadwaita 1.2 has no AdwDialog). It follows the task as the planner
/// shows it: a change here or elsewhere (the CLI, another device) shows at once, never over what the user is typing.
/// Escape closes it, saving the title and notes; Ctrl+D opens the due date's calendar.
@MainActor
final class TaskDetailsWindow {
  let id: UUID
  private let window: Window
  private let controller: PlannerController
  private let titleRow = EntryRow(title: tr("Title"))
  private let notes = TextView(gtk_text_view_new())
  private let dueRow = ActionRow.new(title: tr("Due date"), subtitle: "")
  private let due = DateButton(accessibleLabel: tr("Due date"), clearLabel: tr("_No Due Date"))
  private let timeRow = EntryRow(title: tr("Time (e.g. 09:00; empty for none)"))
  private let priority = ChoiceRow(
    title: tr("Priority"), choices: [tr("None"), tr("High"), tr("Medium"), tr("Low")])
  private let listRow = ChoiceRow(title: tr("List"), choices: [])
  private var lists: [PlannerListItem] = []
  private let repeatEditor: DetailsRepeatEditor
  private let reminders: DetailsReminders
  private let subtasks: DetailsSubtasks
  private var closed = false
  /// Runs once the window has closed.
  var onClosed: () -> Void = {}

  init(task id: UUID, controller: PlannerController, parent: Window) {
    self.id = id
    self.controller = controller
    window = Window(adw_window_new())
    window.title = tr("Task Details")
    window.setTransient(for: parent)
    gtk_window_set_modal(window.window, 1)
    gtk_window_set_default_size(window.window, min(480, max(parent.width, 360)), 640)
    repeatEditor = DetailsRepeatEditor()
    reminders = DetailsReminders()
    subtasks = DetailsSubtasks()
    let content = Box.new(horizontal: false, spacing: 0)
    content.append(Widget(adw_header_bar_new()))
    let page = Box.new(horizontal: false, spacing: 18)
    page.setMargins(top: 18, bottom: 24, start: 12, end: 12)
    page.append(mainGroup())
    page.append(notesGroup())
    page.append(dueGroup())
    page.append(repeatEditor.group)
    page.append(reminders.group)
    page.append(subtasks.group)
    page.append(deleteButton())
    let clamp = Widget(adw_clamp_new())
    adw_clamp_set_maximum_size(OpaquePointer(clamp.widget), 600)
    adw_clamp_set_child(OpaquePointer(clamp.widget), page.widget)
    let scroller = Widget(gtk_scrolled_window_new())
    gtk_scrolled_window_set_child(OpaquePointer(scroller.widget), clamp.widget)
    gtk_scrolled_window_set_policy(OpaquePointer(scroller.widget), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
    gtk_widget_set_vexpand(scroller.widget, 1)
    content.append(scroller)
    adw_window_set_content(window.widget.cast(to: adw_window_get_type()), content.widget)
    let edit: (@escaping (inout PlannerItem) -> Void) -> Void = { [unowned self] change in self.edit(change) }
    repeatEditor.edit = edit
    reminders.edit = edit
    reminders.onProblem = { [unowned self] message in self.controller.showMessage(message) }
    subtasks.planner = controller.planner
    window.onKeyPressed { [unowned self] keyval, modifiers in
      if keyval == UInt32(GDK_KEY_Escape) {
        self.window.close()
        return true
      }
      if keyval == UInt32(GDK_KEY_d), modifiers.rawValue & GDK_CONTROL_MASK.rawValue != 0 {
        self.due.popup()
        return true
      }
      return false
    }
    Signal.connectReturningBool(window, "close-request") { [unowned self] in
      self.finish()
      return false
    }
    // The window keeps this object until GTK frees it: its widgets still send signals (a focus leaving, a popover
    // closing) while they are taken down.
    Signal.connect(window, "destroy") { [self] in _ = self.id }
  }

  /// Shows the window, the title focused (or the due date's calendar open, for Ctrl+D).
  func present(openingCalendar: Bool = false) {
    guard let item = controller.state.item(id) else { return }
    show(item)
    window.present()
    if openingCalendar { due.popup() } else { _ = titleRow.grabFocus() }
  }

  /// Follows the task as the planner shows it now; closes when it is gone (deleted, here or elsewhere).
  func update() {
    guard !closed else { return }
    guard let item = controller.state.item(id) else { return window.close() }
    show(item)
  }

  /// Opens the due date's calendar.
  func openCalendar() {
    window.present()
    due.popup()
  }

  // MARK: Sections

  private func mainGroup() -> Widget {
    let group = PreferencesGroup(adw_preferences_group_new())
    titleRow.onApply { [unowned self] in self.saveTitle() }
    group.add(titleRow)
    priority.onChosen = { [unowned self] index in
      let value = [PlannerPriority.none, .high, .medium, .low][min(max(index, 0), 3)].rawValue
      self.edit { $0.priority = value }
    }
    group.add(priority.row)
    listRow.onChosen = { [unowned self] index in
      guard self.lists.indices.contains(index) else { return }
      let target = self.lists[index].id
      self.edit { $0.listID = target }
    }
    group.add(listRow.row)
    return group.asWidget
  }

  private func notesGroup() -> Widget {
    let group = PreferencesGroup(adw_preferences_group_new())
    adw_preferences_group_set_title(group.widget.cast(to: adw_preferences_group_get_type()), tr("Notes"))
    gtk_text_view_set_wrap_mode(notes.widget.cast(to: gtk_text_view_get_type()), GTK_WRAP_WORD_CHAR)
    gtk_text_view_set_accepts_tab(notes.widget.cast(to: gtk_text_view_get_type()), 0)
    notes.setMargins(top: 8, bottom: 8, start: 8, end: 8)
    notes.setAccessibleLabel(tr("Notes"))
    gtk_widget_set_size_request(notes.widget, -1, 96)
    notes.onFocus(entering: false) { [unowned self] in self.saveNotes() }
    let frame = Widget(gtk_frame_new(nil))
    frame.setCSSClass("view", true)
    gtk_frame_set_child(frame.widget.cast(to: gtk_frame_get_type()), notes.widget)
    group.add(frame)
    return group.asWidget
  }

  private func dueGroup() -> Widget {
    let group = PreferencesGroup(adw_preferences_group_new())
    adw_preferences_group_set_title(group.widget.cast(to: adw_preferences_group_get_type()), tr("Due"))
    dueRow.addSuffix(due.button)
    due.onPicked = { [unowned self] date in
      self.edit { item in
        guard let date else {
          item.due = nil
          item.recurrence = nil  // a repeat counts from a due date
          return
        }
        item.due = TaskDue(date: date, time: item.due?.time, timeZone: item.due?.timeZone)
      }
    }
    group.add(dueRow)
    timeRow.onApply { [unowned self] in self.saveTime() }
    group.add(timeRow)
    return group.asWidget
  }

  private func deleteButton() -> Widget {
    let button = Button(gtk_button_new_with_label(tr("Delete Task")))
    button.setCSSClass("destructive-action", true)
    gtk_widget_set_halign(button.widget, GTK_ALIGN_CENTER)
    Signal.connect(button, "clicked") { [unowned self] in
      self.closed = true
      self.window.close()
      self.controller.deleteTask(self.id)
    }
    return button.asWidget
  }

  // MARK: Showing and editing

  private func show(_ item: PlannerItem) {
    let state = controller.state
    window.title = item.title
    if !titleRow.hasFocusWithin { titleRow.editable.text = item.title }
    if !notes.hasFocus { notes.text = item.notes }
    due.show(item.due?.date, today: state.today, none: tr("None"))
    timeRow.isSensitive = item.due != nil
    if !timeRow.hasFocusWithin { timeRow.editable.text = item.due?.time?.description ?? "" }
    priority.selected =
      [PlannerPriority.none, .high, .medium, .low].firstIndex(of: PlannerPriority(item.priority)) ?? 0
    lists = state.orderedLists
    listRow.setChoices(
      lists.map { PlannerViewState.name(of: $0) }, selected: lists.firstIndex { $0.id == item.listID } ?? 0)
    listRow.row.isVisible = item.parentID == nil  // a subtask moves with its parent
    repeatEditor.show(item, today: state.today)
    reminders.show(item, today: state.today)
    subtasks.show(item, children: state.subtasks(of: item.id))
  }

  /// Makes `change` on the task as shown and records it (nothing when it changes nothing).
  private func edit(_ change: (inout PlannerItem) -> Void) {
    guard let base = controller.state.item(id) else { return }
    var mine = base
    change(&mine)
    guard mine != base else { return }
    Task { await controller.planner.record(.changeTask(base: base, mine: mine)) }
  }

  private func saveTitle() {
    let text = titleRow.editable.text.trimmed()
    guard !text.isEmpty else {
      titleRow.errorBell()
      return controller.showMessage(tr("A task needs a title"))
    }
    edit { $0.title = text }
  }

  private func saveNotes() {
    let text = notes.text
    edit { $0.notes = text }
  }

  private func saveTime() {
    do throws(ReminderText.Problem) {
      let parser = DatePhraseParser(language: DatePhraseParser.userLanguage(), today: controller.state.today)
      let time = try TimeField.read(timeRow.editable.text, parser: parser)
      timeRow.setCSSClass("error", false)
      edit { item in
        guard let date = item.due?.date else { return }
        item.due = TaskDue(date: date, time: time, timeZone: time == nil ? nil : item.due?.timeZone)
      }
    } catch {
      timeRow.setCSSClass("error", true)
      controller.showMessage(String(template: tr("“%@” is not a time (try 09:00)"), timeRow.editable.text))
    }
  }

  private func finish() {
    if !closed {
      let title = titleRow.editable.text.trimmed()
      if !title.isEmpty, title != controller.state.item(id)?.title { saveTitle() }
      saveNotes()
    }
    closed = true
    onClosed()
  }
}

extension WidgetView {
  /// Whether the focus is in this widget or one inside it.
  @MainActor
  var hasFocusWithin: Bool {
    guard let focus = focusInWindow else { return false }
    return focus.widget == widget || contains(focus)
  }
}

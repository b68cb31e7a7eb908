// TaskDetailsWindow: a task's details, opened by activating its row — title, notes, the due date (a calendar) and
// its time, the repeat, reminders, priority, subtasks and the list it is in. Every change is an outbox edit made on
// the task as shown, so it works offline and is never lost. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksAccount
import TasksCore

/// The details window over the main window (libadwaita 1.2 has no AdwDialog). It follows the task as the planner
/// shows it: a change here or elsewhere (the CLI, another device) shows at once, never over what the user is typing.
/// Escape closes it, saving the title and notes; Ctrl+D opens the due date's calendar.
@MainActor
final class TaskDetailsWindow {
  let id: UUID
  private let builder = Builder(resource: Installation.resourceBase + "/ui/task-details-window.ui")
  private let window: Window
  private let controller: PlannerController
  /// The rows: the title, priority and list, and the due date and time.
  private let rows = TaskDetailsRows()
  private var lists: [PlannerListItem] = []
  /// The repeat, the reminders and the subtasks.
  private let repeatEditor = DetailsRepeatEditor()
  private let reminders = DetailsReminders()
  private let subtasks = DetailsSubtasks()
  private var closed = false
  /// The account whose lists showed the task when the window opened (its edits are that account's), and the task as
  /// the window last showed it (what a title or notes typed are made over once another account's lists show).
  private let openedOver: PlannerOperations.ShownAccount
  private var lastShown: PlannerItem?
  /// Runs once the window has closed.
  var onClosed: () -> Void = {}

  private var titleRow: EntryRow { rows.title }
  private var notes: TextView { builder.widget("notes", as: TextView.init) }
  private var due: DateButton { rows.dueDate }
  private var timeRow: EntryRow { rows.time }
  private var priority: ChoiceRow { rows.priority }
  private var listRow: ChoiceRow { rows.list }

  init(task id: UUID, controller: PlannerController, parent: Window) {
    self.id = id
    self.controller = controller
    openedOver = controller.planner.shownAccount
    window = builder.widget("task_details_window", as: Window.init)
    window.setTransient(for: parent)
    window.defaultSize = (min(480, max(Int(parent.width), 360)), 640)
    setUpMainGroup(builder.widget("main_group", as: PreferencesGroup.init))
    notes.onFocus(entering: false) { [unowned self] in self.saveNotes() }
    setUpDueGroup(builder.widget("due_group", as: PreferencesGroup.init))
    let more = builder.widget("more_groups", as: Box.init)
    for group in [repeatEditor.group, reminders.group, subtasks.group] { more.append(group) }
    Signal.connect(builder.widget("delete_button"), "clicked") { [unowned self] in
      self.closed = true
      self.window.close()
      self.controller.deleteTask(self.id)
    }
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

  private func setUpMainGroup(_ group: PreferencesGroup) {
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
  }

  private func setUpDueGroup(_ group: PreferencesGroup) {
    rows.due.addSuffix(due.button)
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
    group.add(rows.due)
    timeRow.onApply { [unowned self] in self.saveTime() }
    group.add(timeRow)
  }

  // MARK: Showing and editing

  private func show(_ item: PlannerItem) {
    lastShown = item
    let state = controller.state
    window.title = item.title
    if !titleRow.hasFocusWithin { titleRow.editable.text = item.title }
    if !notes.hasFocus { notes.text = item.notes }
    due.show(
      item.due?.date, label: item.due.map { DueLabel.day($0.date, today: state.today) } ?? tr("None"),
      today: state.today)
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
  /// Once another app of the group signed in as someone else (the window closes then), what was typed is made over
  /// the task as last shown, for the account it was opened over: kept for its next sign-in, never dropped.
  private func edit(_ change: (inout PlannerItem) -> Void) {
    let switched = controller.planner.shownAccount.objectID != openedOver.objectID
    guard let base = switched ? lastShown : controller.state.item(id) else { return }
    var mine = base
    change(&mine)
    guard mine != base else { return }
    controller.planner.soon(over: openedOver) { await $0.recordUndoable(.changeTask(base: base, mine: mine)) }
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

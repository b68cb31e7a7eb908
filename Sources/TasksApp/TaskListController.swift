// TaskListController: the task list: a virtualised GtkListView of the user's tasks. Main actor.

import CGtk
import Foundation
import GtkSupport
import TasksCore

/// Shows tasks in a `GtkListView`. The model is a `GtkStringList` of task ids (so GTK keeps only ids and rows for
/// what is on screen, however long the list); the rows read the tasks from a dictionary when they are bound.
@MainActor
final class TaskListController {
  private let model: OpaquePointer
  private let factory: OpaquePointer
  private var tasks: [Int64: TaskItem] = [:]
  private var pending: [String: PendingTask] = [:]
  private var rowTask: [UnsafeMutableRawPointer: Int64] = [:]
  private var binding = false
  /// Called when the user ticks or unticks a task.
  var onToggle: (TaskItem, Bool) -> Void = { _, _ in }

  /// The number of tasks shown, confirmed or waiting.
  var count: Int { tasks.count + pending.count }

  init(listView: OpaquePointer) {
    model = gtk_string_list_new(nil)
    factory = gtk_signal_list_item_factory_new()
    g_object_ref(model.gpointer)  // the selection model takes a reference of its own
    let selection = gtk_no_selection_new(model)
    gtk_list_view_set_model(listView, selection)
    gtk_list_view_set_factory(listView, factory)
    Signal.connect(factory, "setup") { [unowned self] item in self.setUp(OpaquePointer(item)) }
    Signal.connect(factory, "bind") { [unowned self] item in self.bind(OpaquePointer(item)) }
  }

  /// Replaces the list: the server's tasks, then those still waiting in the outbox.
  func show(_ items: [TaskItem], waiting: [PendingTask] = []) {
    tasks = Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
    pending = Dictionary(waiting.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
    let ids = items.map { String($0.id) } + waiting.map { "p:" + $0.id }
    withCStringArray(ids) { array in
      gtk_string_list_splice(model, 0, UInt32(g_list_model_get_n_items(model)), array)
    }
  }

  /// Changes one task in place.
  func update(_ task: TaskItem) {
    tasks[task.id] = task
    let count = g_list_model_get_n_items(model)
    for index in 0..<count where String(cString: gtk_string_list_get_string(model, index)) == String(task.id) {
      withCStringArray([String(task.id)]) { gtk_string_list_splice(model, index, 1, $0) }
      return
    }
  }

  private func setUp(_ item: OpaquePointer?) {
    guard let item, let check = gtk_check_button_new() else { return }
    gtk_widget_set_margin_top(check, 6)
    gtk_widget_set_margin_bottom(check, 6)
    gtk_widget_set_margin_start(check, 12)
    gtk_widget_set_margin_end(check, 12)
    gtk_list_item_set_child(item, check)
    let row = UnsafeMutableRawPointer(check)
    Signal.connect(check, "toggled") { [unowned self] in
      guard !self.binding, let id = self.rowTask[row], let task = self.tasks[id] else { return }
      self.onToggle(task, gtk_check_button_get_active(row.assumingMemoryBound(to: GtkCheckButton.self)) != 0)
    }
  }

  private func bind(_ item: OpaquePointer?) {
    guard let item, let child = gtk_list_item_get_child(item), let object = gtk_list_item_get_item(item) else { return }
    let idText = String(cString: gtk_string_object_get_string(OpaquePointer(object)))
    let check = UnsafeMutableRawPointer(child).assumingMemoryBound(to: GtkCheckButton.self)
    if idText.hasPrefix("p:"), let waiting = pending[String(idText.dropFirst(2))] {
      // Shown at once, confirmed by the server later; it cannot be ticked until then.
      rowTask[UnsafeMutableRawPointer(child)] = nil
      binding = true
      let note = waiting.refusal.map { String(format: tr("refused: %@"), $0) } ?? tr("waiting to be sent")
      gtk_check_button_set_label(check, "\(waiting.text) — \(note)")
      gtk_check_button_set_active(check, 0)
      gtk_widget_set_sensitive(UnsafeMutableRawPointer(child).widget, 0)
      binding = false
      return
    }
    gtk_widget_set_sensitive(UnsafeMutableRawPointer(child).widget, 1)
    guard let id = Int64(idText), let task = tasks[id] else { return }
    rowTask[UnsafeMutableRawPointer(child)] = id
    binding = true
    gtk_check_button_set_label(check, task.text)
    gtk_check_button_set_active(check, task.completed ? 1 : 0)
    binding = false
  }
}

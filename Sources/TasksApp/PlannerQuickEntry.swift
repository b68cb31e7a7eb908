// PlannerQuickEntry: the planner's "New task" entry: what it understood in what is typed, as chips under it (each
// can be dismissed, which keeps its words in the title), and Enter to add. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// The entry `planner_entry` and the chips under it (`chips_box`), read by the core's `QuickEntry` at every change
/// in the user's language and English.
@MainActor
final class PlannerQuickEntry {
  // Template widgets (the builder keeps them).
  private let entry: Editable
  private let chipsBox: Box
  // Owned (by the chips box).
  private var chips: [Widget] = []
  private var dismissed: Set<String> = []
  private let language = DatePhraseParser.userLanguage()
  /// What was understood in the text now.
  private(set) var reading: QuickEntry?
  /// Enter with a title: answers whether the task was taken (the entry then empties).
  var onAdd: (QuickEntry) -> Bool = { _ in false }

  init(builder: Builder) {
    entry = builder.widget("planner_entry", as: Editable.init)
    chipsBox = builder.widget("chips_box", as: Box.init)
    Signal.connect(entry, "changed") { [unowned self] in self.read() }
    Signal.connect(entry, "activate") { [unowned self] in self.add() }
  }

  /// Ctrl+N on the planner: the focus to the entry.
  func focus() { _ = entry.grabFocus() }

  private func read() {
    let text = entry.text
    if text.isEmpty { dismissed = [] }
    let reading = QuickEntry(
      text, parser: DatePhraseParser(language: language, today: DueLabel.now().today), dismissed: dismissed)
    self.reading = reading
    for chip in chips { chipsBox.remove(chip) }
    chips = reading.chips.map(makeChip)
    chipsBox.isVisible = !chips.isEmpty
  }

  private func makeChip(_ chip: QuickEntry.Chip) -> Widget {
    let button = Button(gtk_button_new())
    let content = Box.new(horizontal: true, spacing: 4)
    // A narrow window shortens the chips' words ("Tomor…"), it does not widen the window.
    let label = Label.new(chip.label)
    label.ellipsizesEnd = true
    content.append(label)
    content.append(Widget(gtk_image_new_from_icon_name("window-close-symbolic")))
    gtk_button_set_child(button.widget.cast(to: gtk_button_get_type()), content.widget)
    button.setCSSClass("chip", true)
    // Translators: a quick-entry chip's accessible name: what was understood ("Tomorrow"), and that pressing it keeps
    // the words ("tomorrow") in the task's title instead.
    button.setAccessibleLabel(String(template: tr("%@: press to keep “%@” in the title"), chip.label, chip.words))
    Tooltip.set(button, tr("Keep these words in the title"), describing: false)
    Signal.connect(button, "clicked") { [unowned self] in
      self.dismissed.insert(chip.key)
      self.read()
      // Back to the entry, its text not selected (the next key must not replace it).
      gtk_entry_grab_focus_without_selecting(self.entry.widget.cast(to: gtk_entry_get_type()))
    }
    chipsBox.append(button)
    return button.asWidget
  }

  private func add() {
    guard let reading, !reading.title.isEmpty else {
      entry.errorBell()
      return
    }
    if onAdd(reading) {
      entry.text = ""
      dismissed = []
      read()
    }
  }
}

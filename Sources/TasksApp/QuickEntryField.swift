// QuickEntryField: a "New task" entry that reads dates, times, repeats and priorities (the planner page's and the
// add-task window's): what it understood in what is typed, as chips under it (each can be dismissed, which keeps
// its words in the title), and Enter to add. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// An entry and the chips under it, read by the core's `QuickEntry` at every change in the user's language and
/// English.
@MainActor
final class QuickEntryField {
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
  /// Called with each new reading (the add-task window's Add is sensitive while there is a title).
  var onRead: (QuickEntry) -> Void = { _ in }

  /// Reads `entry` (a GtkEntry), its chips in `chipsBox`; `activating`: Enter adds (else the window's default does).
  init(entry: Editable, chipsBox: Box, activating: Bool = true) {
    self.entry = entry
    self.chipsBox = chipsBox
    Signal.connect(entry, "changed") { [unowned self] in self.read() }
    if activating { Signal.connect(entry, "activate") { [unowned self] in self.add() } }
  }

  /// Ctrl+N: the focus to the entry.
  func focus() { _ = entry.grabFocus() }

  /// The entry itself (Tab from it, its keys).
  var widget: Widget { entry.asWidget }

  private func read() {
    let text = entry.text
    if text.isEmpty { dismissed = [] }
    let reading = QuickEntry(
      text, parser: DatePhraseParser(language: language, today: DueLabel.now().today), dismissed: dismissed)
    self.reading = reading
    for chip in chips { chipsBox.remove(chip) }
    chips = reading.chips.map(makeChip)
    chipsBox.isVisible = !chips.isEmpty
    onRead(reading)
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

  /// Adds what is typed (Enter, or the window's Add): an empty title rings the bell.
  func add() {
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

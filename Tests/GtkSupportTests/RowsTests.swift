// Tests of GtkSupport's form rows on a real display (Xvfb in the README's test command): an entry row applies on
// Enter, a choice row tells the user's picks and not the code's, a date button shows and picks dates from its
// calendar, a choice menu runs the choice picked. (GTK 4.8 cannot read an accessible name back: the names these
// rows give are checked through AT-SPI by the UI tests, which require a name on every control.)

import CGtk
import Foundation
import GtkSupport
import TasksCalendar
import TasksTestSupport
import Testing

@Suite("Form rows", .enabled(if: TestDesktop.hasDisplay, "GTK needs a display"))
@MainActor
struct RowsTests {
  init() throws {
    try #require(gtk_init_check() != 0, "GTK could not open the display")
    adw_init()
  }

  @Test("an entry row: its text reads back, and Enter (or its apply button) applies")
  func entryRow() {
    let row = EntryRow(title: "Title", applyName: "Apply")
    var applied: [String] = []
    row.onApply { applied.append(row.editable.text) }
    row.editable.text = "Pay rent"
    #expect(row.editable.text == "Pay rent")
    b2c_signal_emit(row.gpointer, "apply")
    #expect(applied == ["Pay rent"])

    let plain = EntryRow(title: "Add a subtask", applyName: nil)
    var entered = 0
    plain.onApply { entered += 1 }
    b2c_signal_emit(plain.gpointer, "entry-activated")
    #expect(entered == 1, "without an apply button, Enter applies")
  }

  @Test("a choice row: the code's choice is not told, the user's is; new choices keep the one selected")
  func choiceRow() {
    let row = ChoiceRow(title: "Priority", choices: ["None", "Low", "Medium", "High"])
    var chosen: [Int] = []
    row.onChosen = { chosen.append($0) }
    row.selected = 2
    #expect(row.selected == 2 && chosen.isEmpty, "set by code: not told")
    // The user picks (what the row's popover does): the combo row's own selection changes.
    adw_combo_row_set_selected(row.row.widget.cast(to: adw_combo_row_get_type()), 3)
    #expect(chosen == [3])
    row.setChoices(["Tasks", "Work"], selected: 1)
    #expect(row.selected == 1 && chosen == [3])
  }

  @Test("a date button: shows its label; closing the calendar on another day picks it, on the same day nothing")
  func dateButton() throws {
    let today = try #require(CalendarDate(year: 2026, month: 11, day: 25))
    let names = ["Previous Month", "Next Month", "Previous Year", "Next Year"]
    let button = DateButton(accessibleLabel: "Due date", clearLabel: "_No Due Date", arrowNames: names)
    var picked: [CalendarDate?] = []
    button.onPicked = { picked.append($0) }
    button.show(today, label: "Today", today: today)
    #expect(button.label == "Today")
    // Closing the calendar on the day shown picks nothing; on another day, that day.
    let window = Window(gtk_window_new())
    gtk_window_set_child(window.window, button.button.widget)
    window.present()
    button.popup()
    gtk_menu_button_popdown(OpaquePointer(button.button.widget))
    #expect(picked.isEmpty)
    button.popup()
    var calendar: OpaquePointer?
    button.button.forEachWidget { child in
      if child.isA(gtk_calendar_get_type()) { calendar = OpaquePointer(child.widget) }
    }
    let moment = try #require(g_date_time_new_local(2026, 12, 24, 12, 0, 0))
    gtk_calendar_select_day(try #require(calendar), moment)
    g_date_time_unref(moment)
    gtk_menu_button_popdown(OpaquePointer(button.button.widget))
    #expect(picked == [CalendarDate(year: 2026, month: 12, day: 24)])
    window.destroy()
  }

  @Test("a choice menu: a flat button named for its choices, each running its own action")
  func choiceMenuRuns() {
    let menu = Widget(gtk_menu_button_new())
    var ran: [String] = []
    choiceMenu(
      menu, icon: "alarm-symbolic", name: "Usual Reminders",
      [("At the due time", { ran.append("due") }), ("1 hour before", { ran.append("hour") })])
    var items: [Widget] = []
    menu.forEachWidget { child in if child.isA(gtk_button_get_type()) { items.append(child) } }
    let labelled = items.filter { button in
      let label = gtk_button_get_label(button.widget.cast(to: gtk_button_get_type()))
      return label.map { String(cString: $0) } == "1 hour before"
    }
    #expect(labelled.count == 1)
    if let item = labelled.first { b2c_signal_emit(item.gpointer, "clicked") }  // as a click on it does
    #expect(ran == ["hour"])
  }
}

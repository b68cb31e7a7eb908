// Tests of the planner list's model (`RowSlots`) on a real display (Xvfb in the README's test command): a long fill
// puts its first items in at once and the rest when the main loop is idle, in order; an edit or a jump meanwhile
// puts the rest in first, so that every position means what the caller meant.

import CGtk
import GtkSupport
import TasksTestSupport
import Testing

@Suite("Row slots", .enabled(if: TestDesktop.hasDisplay, "GTK needs a display"))
@MainActor
struct RowSlotsTests {
  init() throws {
    try #require(gtk_init_check() != 0, "GTK could not open the display")
  }

  /// The strings of the model's items, in order.
  private func items(_ slots: RowSlots) -> [String] {
    (0..<g_list_model_get_n_items(slots.model)).map { index in
      let item = g_list_model_get_item(slots.model, index)!
      defer { g_object_unref(item) }
      return slots.string(of: item) ?? "?"
    }
  }

  @Test(
    "a fill of 180 items shows the first 50 at once (or as many as its owner says), then the rest in order when idle")
  func fillsWhenIdle() {
    let slots = RowSlots()
    let all = (0..<180).map { "row \($0)" }
    slots.splice(at: 0, remove: 0, insert: all)
    #expect(items(slots) == Array(all.prefix(50)))
    var turns = 0
    while items(slots).count < all.count && turns < 10_000 {
      g_main_context_iteration(nil, 0)
      turns += 1
    }
    #expect(items(slots) == all)

    let told = RowSlots()
    told.screenful = { 20 }
    told.splice(at: 0, remove: 0, insert: all)
    #expect(items(told) == Array(all.prefix(20)))
  }

  @Test("an edit, a replacement or a flush while items wait puts them in first: the positions are the caller's")
  func editsMeanwhile() {
    let slots = RowSlots()
    let all = (0..<300).map { "row \($0)" }
    slots.splice(at: 0, remove: 0, insert: all)
    slots.splice(at: 299, remove: 1, insert: ["last"])
    #expect(items(slots) == Array(all.dropLast()) + ["last"])

    let other = RowSlots()
    other.splice(at: 0, remove: 0, insert: all)
    other.replaceAll(["only"])
    #expect(items(other) == ["only"])
    // A short list grown long (another entry's rows shown in the row widgets there are): the first keep their
    // items, the rest wait; a flush puts them in.
    other.replaceAll(all)
    #expect(items(other) == Array(all.prefix(50)))
    other.flush()
    #expect(items(other) == all)
  }
}

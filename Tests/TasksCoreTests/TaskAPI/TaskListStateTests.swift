// Tests of the task list without any UI: the edits each change makes to the rows shown, hidden rows, the filter,
// the empty state, the highlight of a task just added, what rows show, and long lists.

import Foundation
import Testing

@testable import TasksCore

@Suite("Task list state")
struct TaskListStateTests {
  private static let base = Date(timeIntervalSince1970: 1_800_000_000)

  /// Task `id`, modified `id` minutes after `base` (so newer ids sort first by default).
  private func item(_ id: Int64, _ text: String? = nil, done: Bool = false) -> TaskItem {
    TaskItem(
      id: id, owner: "ann", text: text ?? "task \(id)", completed: done,
      dateModified: Self.base.addingTimeInterval(Double(id) * 60))
  }

  private func waiting(_ id: String, _ text: String, minute: Double = 1000) -> PendingTask {
    PendingTask(id: id, text: text, createdAt: Self.base.addingTimeInterval(minute * 60), refusal: nil)
  }

  /// `keys` after making `edits` to `old`, as a list model would.
  private func applying(_ edits: [ListEdit], to old: [RowKey]) -> [RowKey] {
    var rows = old
    for edit in edits { rows.replaceSubrange(edit.at..<(edit.at + edit.remove), with: edit.insert) }
    return rows
  }

  /// A state showing tasks 1...n.
  private func state(_ n: Int64) -> TaskListState {
    var state = TaskListState()
    _ = state.show((1...n).map { item($0) })
    return state
  }

  @Test("the first list is one insertion of every row, newest first")
  func firstShow() {
    var state = TaskListState()
    let edits = state.show([item(1), item(2), item(3)])
    #expect(edits == [ListEdit(at: 0, remove: 0, insert: [.task(3), .task(2), .task(1)])])
    #expect(state.keys == [.task(3), .task(2), .task(1)])
  }

  @Test("a refresh that changes nothing makes no edit, however long the list")
  func unchangedRefresh() {
    var state = state(1000)
    let r1 = state.show((1...1000).map { item($0) })
    #expect(r1.isEmpty)
    let r2 = state.show((1...1000).reversed().map { item($0) })
    #expect(r2.isEmpty, "the server's order does not matter")
  }

  @Test("ticking one task moves its row alone: one removal and one insertion")
  func tickMovesOneRow() {
    var state = state(5)
    let old = state.keys
    var ticked = item(4)
    ticked.completed = true
    let edits = state.update(ticked)
    #expect(edits.count == 2)
    #expect(edits.first?.remove == 1 && edits.first?.insert.isEmpty == true)
    #expect(edits.last?.remove == 0 && edits.last?.insert == [.task(4)])
    #expect(applying(edits, to: old) == state.keys)
    #expect(state.keys.last == .task(4), "done tasks come after the open ones")
    // And back: unticked, it returns to its place, again as one move.
    let ticked4 = state.keys
    let back = state.update(item(4))
    #expect(back.count == 2 && applying(back, to: ticked4) == state.keys)
    #expect(state.keys == [.task(5), .task(4), .task(3), .task(2), .task(1)])
  }

  @Test("an edit of a text that keeps its place makes no edit without a filter, and one in-place replacement with one")
  func inPlaceUpdate() {
    var state = state(3)
    let r3 = state.update(item(2, "renamed"))
    #expect(r3.isEmpty)
    let r4 = state.content(.task(2))
    #expect(r4?.text == "renamed", "its row shows the new text")
    _ = state.setSearch(TaskSearch("renamed"))
    let r5 = state.update(item(2, "renamed again"))
    #expect(r5 == [ListEdit(at: 1, remove: 1, insert: [.task(2)])])
  }

  @Test("rows taken out while their Undo shows come back in their places; a refresh keeps them out meanwhile")
  func hiddenRowsComeBack() {
    var state = state(6)
    let old = state.keys
    let removed = state.remove([.task(5), .task(2)])
    #expect(applying(removed, to: old) == [.task(6), .task(4), .task(3), .task(1)])
    let r6 = state.show((1...6).map { item($0) })
    #expect(r6.isEmpty, "still hidden after a refresh")
    let restored = state.restore([.task(5), .task(2)])
    #expect(applying(restored, to: [.task(6), .task(4), .task(3), .task(1)]) == old)
    #expect(state.keys == old)
  }

  @Test("a hidden row the server no longer has is forgotten; forget drops a row for good")
  func forget() {
    var state = state(3)
    _ = state.remove([.task(2)])
    _ = state.show([item(1), item(3)])
    let r7 = state.restore([.task(2)])
    #expect(r7.isEmpty, "nothing to bring back")
    let r8 = state.forget(.task(3))
    #expect(r8 == [ListEdit(at: 0, remove: 1, insert: [])])
    #expect(state.keys == [.task(1)] && state.task(.task(3)) == nil)
  }

  @Test("a task typed now shows at once, highlighted, before the server's tasks")
  func appendHighlights() {
    var state = state(2)
    let task = waiting("u-1", "milk")
    let r9 = state.append(task)
    #expect(r9 == [ListEdit(at: 0, remove: 0, insert: [.pending("u-1")])])
    #expect(state.highlighted == .pending("u-1"))
    #expect(
      state.content(.pending("u-1"))
        == RowContent(
          text: "milk", completed: false, caption: "waiting to be sent", confirmed: false))
    let r10 = state.clearHighlight()
    #expect(r10 == .pending("u-1") && state.highlighted == nil)
  }

  @Test("the highlight follows a sent task by the id the server gave it, not by its text: two tasks with equal text")
  func highlightFollowsByID() {
    var state = TaskListState()
    // The server already has a task "milk" (id 7); the user types "milk" again.
    _ = state.show([item(7, "milk")])
    _ = state.append(waiting("u-2", "milk"))
    // Sent: the server made it task 8. The highlight goes to 8, not to the older 7 with the same text.
    _ = state.show([item(7, "milk"), item(8, "milk")], sent: ["u-2": 8])
    #expect(state.highlighted == .task(8))
    // Sent without an id named (the original API sends no Location): no row is guessed.
    _ = state.append(waiting("u-3", "milk"))
    _ = state.show([item(7, "milk"), item(8, "milk"), item(9, "milk")])
    #expect(state.highlighted == nil)
  }

  @Test("a waiting task the server refused says why; a task with a change waiting says so")
  func captions() {
    var state = TaskListState()
    var refused = waiting("u-1", "x")
    refused.refusal = "too long"
    _ = state.show([item(1)], waiting: [refused], changed: [1])
    let r11 = state.content(.pending("u-1"))
    #expect(r11?.caption == "refused: too long")
    let changed = state.content(.task(1))
    #expect(changed?.changeWaiting == true && changed?.caption == Phrases.changeWaiting)
    let r12 = state.markWaiting([])
    #expect(r12 == [.task(1)])
    let r13 = state.content(.task(1))
    #expect(r13?.changeWaiting == false)
    let r14 = state.markWaiting([])
    #expect(r14.isEmpty, "nothing moved")
  }

  @Test("a row's age is kept until forgetAges, then said again from the clock")
  func ages() {
    var state = TaskListState()
    _ = state.show([item(0)])
    let r15 = state.content(.task(0), now: Self.base.addingTimeInterval(120))
    #expect(r15?.caption == "2 min ago")
    let r16 = state.content(.task(0), now: Self.base.addingTimeInterval(7200))
    #expect(r16?.caption == "2 min ago", "kept")
    state.forgetAges()
    let r17 = state.content(.task(0), now: Self.base.addingTimeInterval(7200))
    #expect(r17?.caption == "2 h ago")
  }

  @Test("search: typing more is stricter, erasing looser, another word different; the filter reads folded text")
  func searchStrictness() {
    var state = TaskListState()
    _ = state.show([item(1, "Crème brûlée"), item(2, "bread")])
    let r18 = state.setSearch(TaskSearch("cr"))
    #expect(r18 == .moreStrict)
    let r19 = state.setSearch(TaskSearch("creme"))
    #expect(r19 == .moreStrict)
    let r20 = state.setSearch(TaskSearch("creme"))
    #expect(r20 == nil, "unchanged")
    let r21 = state.isShown(.task(1))
    let r22 = state.isShown(.task(2))
    #expect(r21 && !r22)
    let r23 = state.setSearch(TaskSearch("cr"))
    #expect(r23 == .lessStrict)
    let r24 = state.setSearch(TaskSearch("bread"))
    #expect(r24 == .different)
    let r25 = state.isShown(.task(1))
    let r26 = state.isShown(.task(2))
    #expect(!r25 && r26)
    #expect(state.needsFilter)
    let r27 = state.setSearch(TaskSearch(""))
    #expect(r27 == .lessStrict)
    #expect(!state.needsFilter)
  }

  @Test("a changed text is searched as it is now, not as it was folded before")
  func searchSeesNewText() {
    var state = TaskListState()
    _ = state.show([item(1, "apples")])
    _ = state.setSearch(TaskSearch("pears"))
    let r28 = state.isShown(.task(1))
    #expect(!r28)
    _ = state.update(item(1, "pears"))
    let r29 = state.isShown(.task(1))
    #expect(r29)
  }

  @Test("hiding done tasks is stricter, showing them looser; the empty state says why nothing shows")
  func emptyReasons() {
    var state = TaskListState()
    #expect(state.emptyReason == .noTasks)
    _ = state.show([item(1, done: true)])
    let r30 = state.setShowCompleted(false)
    #expect(r30 == .moreStrict)
    let r31 = state.setShowCompleted(false)
    #expect(r31 == nil)
    let r32 = state.isShown(.task(1))
    #expect(!r32 && state.emptyReason == .allDone)
    _ = state.setSearch(TaskSearch("nothing like it"))
    #expect(state.emptyReason == .noMatches)
    let r33 = state.setShowCompleted(true)
    #expect(r33 == .lessStrict)
  }

  @Test("sorting again edits the rows into the new order; sorting the same way makes no edit")
  func sortOrder() {
    var state = TaskListState()
    _ = state.show([item(1, "b"), item(2, "c"), item(3, "a"), item(4, "d")])
    let r34 = state.setSortOrder(.newest)
    #expect(r34.isEmpty)
    for (order, expected) in [
      (TaskSortOrder.alphabetical, [3, 1, 2, 4]), (.oldest, [1, 2, 3, 4]), (.newest, [4, 3, 2, 1]),
    ] {
      let old = state.keys
      let edits = state.setSortOrder(order)
      #expect(state.keys == expected.map { RowKey.task(Int64($0)) })
      #expect(applying(edits, to: old) == state.keys, "\(order)")
    }
  }

  @Test("the offline copy and the done rows are read in the order shown, hidden rows aside")
  func readers() {
    var state = TaskListState()
    _ = state.show([item(1, done: true), item(2), item(3, done: true)], waiting: [waiting("u", "w")])
    _ = state.remove([.task(3)])
    #expect(state.confirmedTasks.map(\.id) == [2, 1])
    #expect(state.completedKeys == [.task(1)])
    #expect(state.count == 3 && state.text(.pending("u")) == "w")
  }

  @Test(
    "the diff: an unchanged start and end stay, one moved row moves alone, anything else is one splice",
    arguments: [
      ("abc", "abc", 0), ("abc", "abxc", 1), ("abcd", "acdb", 2), ("abcd", "dabc", 2), ("abcd", "badc", 1),
      ("", "ab", 1), ("ab", "", 1),
    ])
  func diff(old: String, new: String, count: Int) {
    let keys = { (text: String) in text.map { RowKey.pending(String($0)) } }
    let edits = TaskListState.edits(from: keys(old), to: keys(new))
    #expect(edits.count == count)
    #expect(applying(edits, to: keys(old)) == keys(new))
  }

  @Test("100 000 tasks: one tick is still two small edits, and a refresh with one new task one insertion")
  func largeList() {
    var state = state(100_000)
    var ticked = item(50_000)
    ticked.completed = true
    let edits = state.update(ticked)
    #expect(edits.count == 2 && edits.allSatisfy { $0.remove + $0.insert.count == 1 })
    let more = (1...100_001).map { $0 == 50_000 ? ticked : item($0) }
    let r35 = state.show(more)
    #expect(r35 == [ListEdit(at: 0, remove: 0, insert: [.task(100_001)])])
  }

  @Test(
    "the id of a task the server made is read from its Location, and from nothing else",
    arguments: [
      ("/api/tasks/42", 42), ("https://tasks.example.com/api/tasks/7?x=1", 7), ("/api/tasks/0", nil),
      ("/api/tasks/-3", nil), ("/api/tasks/", nil), ("/api/other/5", nil), ("/api/tasks/5/x", nil),
      ("/api/tasks/٣", nil), ("", nil),
    ] as [(String, Int64?)])
  func createdID(location: String, id: Int64?) {
    #expect(TaskAPIClient.createdID(location) == id)
  }
}

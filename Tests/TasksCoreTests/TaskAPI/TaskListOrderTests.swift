// Tests of the list's order and search: open before completed, each sort order, waiting tasks, and searches that
// ignore case and accents.

import Foundation
import TasksCore
import Testing

@Suite("Sorting and searching the task list")
struct TaskListOrderTests {
  private func entry(
    _ key: String, _ text: String, done: Bool = false, at seconds: Double?, waiting: Bool = false
  ) -> TaskListEntry<String> {
    TaskListEntry(
      key: key, text: text, completed: done, date: seconds.map { Date(timeIntervalSince1970: $0) }, waiting: waiting)
  }

  private var sample: [TaskListEntry<String>] {
    [
      entry("a", "buy milk", at: 100),
      entry("b", "Zebra crossing", done: true, at: 500),
      entry("c", "éclair recipe", at: 300),
      entry("d", "apple pie", done: true, at: 50),
      entry("e", "no date", at: nil),
      entry("w1", "typed first", at: 1000, waiting: true),
      entry("w2", "typed second", at: 1001, waiting: true),
    ]
  }

  @Test("newest first: waiting tasks (latest typed first), then by date; completed after all open ones")
  func newest() {
    #expect(sortedForList(sample, by: .newest) == ["w2", "w1", "c", "a", "e", "b", "d"])
  }

  @Test("oldest first: undated first, waiting tasks last in the order typed; completed after all open ones")
  func oldest() {
    #expect(sortedForList(sample, by: .oldest) == ["e", "a", "c", "w1", "w2", "d", "b"])
  }

  @Test("alphabetically, ignoring case and accents; completed after all open ones")
  func alphabetical() {
    #expect(sortedForList(sample, by: .alphabetical) == ["a", "c", "e", "w1", "w2", "d", "b"])
  }

  @Test("equal keys keep the server's order, so the same data always gives the same list")
  func stable() {
    let same = (0..<50).map { entry("k\($0)", "same", at: 7) }
    for order in TaskSortOrder.allCases {
      #expect(sortedForList(same, by: order) == same.map(\.key))
    }
  }

  @Test("a search ignores case, accents and width; every word must appear")
  func search() {
    #expect(TaskSearch("cafe").matches("Café au lait"))
    #expect(TaskSearch("MILK").matches("buy milk"))
    #expect(TaskSearch("ÉCLAIR").matches("eclair recipe"))
    #expect(TaskSearch("milk buy").matches("buy oat milk"))
    #expect(!TaskSearch("milk tea").matches("buy oat milk"))
    #expect(!TaskSearch("dog").matches("buy milk"))
    #expect(TaskSearch("ｍｉｌｋ").matches("milk"))
    #expect(TaskSearch("  ").isEmpty)
    #expect(TaskSearch("").matches("anything"))
  }

  @Test("typing more letters narrows a search; deleting widens it")
  func narrowing() {
    #expect(TaskSearch("milk").isStricter(than: TaskSearch("mil")))
    #expect(TaskSearch("mil").isLooser(than: TaskSearch("milk")))
    #expect(!TaskSearch("mild").isStricter(than: TaskSearch("milk")))
    #expect(TaskSearch("milk oat").isStricter(than: TaskSearch("milk")))
  }
}

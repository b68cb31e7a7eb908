// Tests of the search bar's matching: searches that ignore case, accents and width, every word required.

import Foundation
import TasksCore
import Testing

@Suite("Searching tasks")
struct TaskSearchTests {
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
}

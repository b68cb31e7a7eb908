// Tests of the quick entry's reading: chips for each part understood, the title left, dismissed chips keeping
// their words, priorities, the task Enter adds in each view, in English and German, and text with nothing in it.

import Foundation
import Testing

@testable import TasksCore

@Suite("Quick entry")
struct QuickEntryTests {
  /// Wednesday 25 November 2026.
  static let today = CalendarDate(year: 2026, month: 11, day: 25)!
  private let list = UUID()

  private func read(_ text: String, _ language: String = "en", dismissed: Set<String> = []) -> QuickEntry {
    QuickEntry(text, parser: DatePhraseParser(language: language, today: Self.today), dismissed: dismissed)
  }

  @Test("the issue's example: a chip for each part, and Enter adds “Pay rent” due tomorrow 09:00, monthly, high")
  func example() throws {
    let entry = read("Pay rent tomorrow 9am every month !high")
    #expect(entry.chips.map(\.kind) == [.date, .time, .recurrence, .priority])
    #expect(entry.chips.map(\.words) == ["tomorrow", "9am", "every month", "!high"])
    #expect(entry.chips.map(\.label) == ["Tomorrow", "09:00", "Monthly", "High priority"])
    #expect(entry.title == "Pay rent")
    let task = try #require(entry.task(list: list, shownIn: .list(list), today: Self.today))
    #expect(task.title == "Pay rent" && task.listID == list)
    #expect(task.due == TaskDue(date: CalendarDate(year: 2026, month: 11, day: 26)!, time: TimeOfDay(hour: 9)))
    #expect(task.recurrence?.rule.rrule == "FREQ=MONTHLY" && task.recurrence?.from == .due)
    #expect(PlannerPriority(task.priority) == .high)
  }

  @Test("German: the same task typed in German, with English words understood too")
  func german() throws {
    let entry = read("Miete zahlen morgen 9 Uhr jeden Monat !1", "de_DE.UTF-8")
    #expect(entry.chips.map(\.kind) == [.date, .time, .recurrence, .priority])
    #expect(entry.title == "Miete zahlen")
    let task = try #require(entry.task(list: list, shownIn: .today, today: Self.today))
    #expect(task.due?.date.description == "2026-11-26" && task.due?.time?.description == "09:00")
    #expect(task.recurrence?.rule.rrule == "FREQ=MONTHLY")
    #expect(read("Bericht schreiben tomorrow", "de").title == "Bericht schreiben")
  }

  @Test("a dismissed chip keeps its words in the title and its meaning out of the task")
  func dismissed() throws {
    let first = read("Call Mum tomorrow at 5pm")
    let date = try #require(first.chips.first { $0.kind == .date })
    let entry = read("Call Mum tomorrow at 5pm", dismissed: [date.key])
    #expect(entry.chips.map(\.kind) == [.time])
    #expect(entry.title == "Call Mum tomorrow")
    let task = try #require(entry.task(list: list, shownIn: .list(list), today: Self.today))
    #expect(task.due == TaskDue(date: Self.today, time: TimeOfDay(hour: 17)), "a time alone is today's")
    // Typing on keeps it dismissed; other words for the same part bring a chip back.
    #expect(read("Call Mum tomorrow at 5pm sharp", dismissed: [date.key]).chips.map(\.kind) == [.time])
    #expect(read("Call Mum Friday at 5pm", dismissed: [date.key]).chips.map(\.kind) == [.date, .time])
  }

  @Test("priorities: !high !medium !low, !1 !2 !3 and !!! !!, one per task; a lone ! or a word with ! is text")
  func priorities() {
    #expect(read("a !high").priority == .high)
    #expect(read("a !Medium").priority == .medium)
    #expect(read("a !low").priority == .low)
    #expect(read("a !2").priority == .medium)
    #expect(read("a !!!").priority == .high)
    #expect(read("a !!").priority == .medium)
    let twice = read("a !low !high")
    #expect(twice.priority == .low && twice.title == "a !high")
    for text in ["Wow!", "a ! b", "a !urgent", "hello!high"] {
      let entry = read(text)
      #expect(entry.priority == .none && entry.chips.isEmpty && entry.title == text, "\(text)")
    }
  }

  @Test("a task said without a day is due today in Today, tomorrow in Upcoming, and undated in a list")
  func defaultDay() throws {
    let entry = read("Water plants")
    #expect(entry.chips.isEmpty)
    #expect(try #require(entry.task(list: list, shownIn: .today, today: Self.today)).due?.date == Self.today)
    #expect(
      try #require(entry.task(list: list, shownIn: .upcoming, today: Self.today)).due?.date
        == Self.today.adding(days: 1))
    #expect(try #require(entry.task(list: list, shownIn: .list(list), today: Self.today)).due == nil)
  }

  @Test("a repeat without a day starts on its first occurrence; “every Monday” on the next Monday")
  func repeatWithoutDay() throws {
    let entry = read("Standup every Monday")
    #expect(entry.title == "Standup")
    let task = try #require(entry.task(list: list, shownIn: .list(list), today: Self.today))
    #expect(task.due?.date.description == "2026-11-30")
    #expect(task.recurrence?.rule.rrule == "FREQ=WEEKLY;BYDAY=MO")
  }

  @Test("text that is only a date, or only spaces, adds nothing; words that look like dates stay text")
  func nothingToAdd() {
    #expect(read("tomorrow").task(list: list, shownIn: .today, today: Self.today) == nil)
    #expect(read("   ").task(list: list, shownIn: .today, today: Self.today) == nil)
    let entry = read("Morgenmantel kaufen", "de")
    #expect(entry.chips.isEmpty && entry.title == "Morgenmantel kaufen")
  }
}

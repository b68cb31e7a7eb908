// Tests of the app's side of the task API v2: a task read from the service's JSON (garbage refused naming the
// field), and an edit the service refused with 412 merged field by field against the version it was made on.

import Foundation
import TasksCore
import Testing

@Suite("Task API v2 in the app: reading tasks, merging a refused edit")
struct PlannerMergeTests {
  static let json = """
    {"id": "0b1e2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", "listId": "6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f10",
     "parentId": null, "title": "Pay rent", "notes": "IBAN", "status": "needsAction", "completedAt": null,
     "priority": 1, "due": {"date": "2026-12-01", "time": "09:00", "timeZone": "Europe/Helsinki"},
     "recurrence": {"rrule": "FREQ=MONTHLY", "from": "due"},
     "reminders": [{"before": 60}, {"at": "2026-11-30T18:00:00Z", "acknowledgedAt": "2026-11-30T18:01:00.25Z"}],
     "categories": ["home"], "sortKey": "a0", "createdAt": "2026-11-20T08:00:00Z", "updatedAt": "2026-11-21T08:00:00Z",
     "version": 3, "somethingNewer": {"ignored": true}}
    """

  static func task() throws -> PlannerItem { try PlannerItem(json: Data(json.utf8)) }

  @Test("a task is read with every field; fields it does not know are ignored")
  func read() throws {
    let task = try Self.task()
    #expect(task.title == "Pay rent" && task.priority == 1 && task.version == 3 && task.parentID == nil)
    #expect(task.due == .init(date: CalendarDate("2026-12-01")!, time: TimeOfDay("09:00"), timeZone: "Europe/Helsinki"))
    #expect(task.recurrence == .init(rule: try RecurrenceRule(rrule: "FREQ=MONTHLY"), from: .due))
    #expect(task.reminders.first == .init(.before(minutes: 60)))
    #expect(task.reminders.last?.acknowledgedAt != nil && task.categories == ["home"])
  }

  @Test(
    "garbage from the service is a typed error naming the field",
    arguments: [
      (#""id": "0b1e2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d""#, #""id": 7"#, "id"),
      (#""status": "needsAction""#, #""status": "done""#, "status"),
      (#""priority": 1"#, #""priority": 12"#, "priority"),
      (#""date": "2026-12-01""#, #""date": "2026-02-30""#, "due.date"),
      (#""rrule": "FREQ=MONTHLY""#, #""rrule": "FREQ=SECONDLY""#, "recurrence.rrule"),
      (#"{"before": 60}"#, #"{"before": -1}"#, "reminders[0].before"),
      (#""version": 3"#, #""version": "3""#, "version"),
      (#""createdAt": "2026-11-20T08:00:00Z""#, #""createdAt": "yesterday""#, "createdAt"),
      (#""categories": ["home"]"#, #""categories": [1]"#, "categories[0]"),
    ])
  func garbage(good: String, bad: String, field: String) throws {
    let text = Self.json.replacingOccurrences(of: good, with: bad)
    try #require(text != Self.json)
    #expect(throws: PlannerJSONError.self) { try PlannerItem(json: Data(text.utf8)) }
    do {
      _ = try PlannerItem(json: Data(text.utf8))
    } catch {
      #expect(error.field == field, "\(error)")
    }
    #expect(throws: PlannerJSONError(field: "body", expected: "a JSON object")) {
      try PlannerItem(json: Data("[1]".utf8))
    }
  }

  @Test("fields changed on one side only are kept from both sides; to the same value, no conflict")
  func oneSideEach() throws {
    let base = try Self.task()
    var mine = base
    mine.title = "Pay the rent"
    mine.categories = ["home", "bills"]
    var theirs = base
    theirs.notes = "IBAN FI00 1234"
    theirs.priority = 5
    theirs.categories = ["home", "bills"]
    theirs.version = 4
    let merge = PlannerMerge(base: base, mine: mine, theirs: theirs)
    #expect(merge.merged.title == "Pay the rent" && merge.merged.notes == "IBAN FI00 1234")
    #expect(merge.merged.priority == 5 && merge.merged.categories == ["home", "bills"])
    #expect(merge.merged.version == 4, "sent again against the service's version")
    #expect(merge.toSend == [.title] && merge.lost.isEmpty)
  }

  @Test("the same field changed on both sides: the service's value stays, and the merge says which edit lost")
  func bothSides() throws {
    let base = try Self.task()
    var mine = base
    mine.title = "Pay rent today"
    mine.due = .init(date: CalendarDate("2026-12-02")!)
    var theirs = base
    theirs.title = "Pay rent (Ann)"
    theirs.status = .completed
    theirs.completedAt = Date(timeIntervalSince1970: 1_795_000_000)
    let merge = PlannerMerge(base: base, mine: mine, theirs: theirs)
    #expect(merge.merged.title == "Pay rent (Ann)" && merge.lost == [.title])
    #expect(merge.merged.due == mine.due && merge.toSend == [.due])
    #expect(merge.merged.status == .completed && merge.merged.completedAt == theirs.completedAt)
  }

  @Test("an edit the service already has (a replay) sends nothing and loses nothing")
  func replay() throws {
    let base = try Self.task()
    var mine = base
    mine.priority = 9
    var theirs = mine
    theirs.version = 4
    let merge = PlannerMerge(base: base, mine: mine, theirs: theirs)
    #expect(merge.toSend.isEmpty && merge.lost.isEmpty && merge.merged == theirs)
  }

  @Test(
    "reminders and categories changed on both sides merge element by element; one element changed on both sides loses")
  func listsByElement() throws {
    let base = try Self.task()
    let (now, later) = (Date(timeIntervalSince1970: 1_795_000_000), Date(timeIntervalSince1970: 1_795_000_600))
    // Here: the hour-before reminder snoozed (as a notification's Snooze does), a category added.
    var mine = base
    mine.reminders[0] = TaskReminder(.before(minutes: 60), acknowledgedAt: now, snoozedUntil: later)
    mine.categories = ["home", "bills"]
    // Elsewhere: the reminder at a time removed and another added; "home" taken away, "urgent" given.
    var theirs = base
    theirs.reminders = [base.reminders[0], TaskReminder(.before(minutes: 10))]
    theirs.categories = ["urgent"]
    theirs.version = 4
    let merge = PlannerMerge(base: base, mine: mine, theirs: theirs)
    #expect(merge.merged.reminders == [mine.reminders[0], TaskReminder(.before(minutes: 10))])
    #expect(merge.merged.categories == ["urgent", "bills"])
    #expect(merge.toSend == [.reminders, .categories] && merge.lost.isEmpty && merge.merged.version == 4)

    // The snoozed reminder also acknowledged elsewhere, or removed there: the service's stays, the snooze lost.
    var acknowledged = theirs
    acknowledged.reminders[0].acknowledgedAt = later
    var removed = theirs
    removed.reminders.removeFirst()
    for other in [acknowledged, removed] {
      let lost = PlannerMerge(base: base, mine: mine, theirs: other)
      #expect(lost.lost == [.reminders] && lost.merged.reminders == other.reminders)
      #expect(lost.toSend == [.categories])
    }
    // A category added on both sides is one; a side holding a name twice is not guessed at: the service's stays.
    var both = base
    both.categories = ["home", "bills"]
    #expect(PlannerMerge(base: base, mine: mine, theirs: both).merged.categories == ["home", "bills"])
    var twice = theirs
    twice.categories = ["urgent", "urgent"]
    #expect(PlannerMerge(base: base, mine: mine, theirs: twice).lost == [.categories])
  }

  @Test("finishing is one field: status and its time go together")
  func finishing() throws {
    let base = try Self.task()
    var mine = base
    mine.status = .completed
    mine.completedAt = Date(timeIntervalSince1970: 1_795_000_100)
    var theirs = base
    theirs.notes = "changed elsewhere"
    let merge = PlannerMerge(base: base, mine: mine, theirs: theirs)
    #expect(merge.merged.status == .completed && merge.merged.completedAt == mine.completedAt)
    #expect(merge.merged.notes == "changed elsewhere" && merge.toSend == [.status])
  }
}

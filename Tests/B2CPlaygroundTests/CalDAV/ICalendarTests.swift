// Tests of the iCalendar codec the CalDAV face uses: the reader and writer (unfolding, parameters, escapes, limits,
// each kind of garbage refused with its line), and the VTODO mapping on texts as Tasks.org, Apple Reminders,
// Thunderbird, Evolution and Exchange write them: fields read, the text given back byte for byte while the model
// agrees, each change of the model changing only its line, what the model cannot hold kept as it came.

import Foundation
import TasksCalendar
import TasksTestSupport
import Testing

@testable import TaskService

@Suite("CalDAV: iCalendar text and VTODO resources")
struct ICalendarTests {
  static let now = Date(timeIntervalSince1970: 1_795_000_000)
  static let created = Date(timeIntervalSince1970: 1_794_000_000)
  static let stamp = "20261118T110640Z"

  /// The sample texts are written with LF; clients send CRLF.
  static func crlf(_ text: String) -> String { text.replacingOccurrences(of: "\n", with: "\r\n") }

  /// A task as the routes would make it from `text` (a new task), and its resource.
  static func model(_ text: String) throws -> (TodoResource, PlannerTask) {
    let resource = try TodoResource(parsing: text)
    return (resource, try PlannerTask(title: "Untitled").applying(resource.fields.changes(over: nil), now: now))
  }

  static func render(_ text: String?, _ resource: TodoResource, _ task: PlannerTask, parent: String? = nil) -> String {
    TodoResource.render(
      stored: text, task: task, uid: resource.uid, parentUID: parent ?? resource.fields.parentUID,
      createdAt: created, updatedAt: now)
  }

  /// The content lines (unfolded) `after` lost and gained against `before`, DTSTAMP and LAST-MODIFIED left out.
  static func difference(_ before: String, _ after: String) -> (removed: [String], added: [String]) {
    func lines(_ text: String) -> [String] {
      text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
        .filter { !$0.hasPrefix("DTSTAMP:") && !$0.hasPrefix("LAST-MODIFIED:") }
    }
    var removed: [String] = []
    var added: [String] = []
    for change in lines(after).difference(from: lines(before)) {
      switch change {
      case .remove(_, let line, _): removed.append(line)
      case .insert(_, let line, _): added.append(line)
      }
    }
    return (removed, added)
  }

  static func date(_ text: String) -> CalendarDate { CalendarDate(text) ?? .first }

  // MARK: Samples

  static let tasksOrg = crlf(
    """
    BEGIN:VCALENDAR
    VERSION:2.0
    PRODID:+//IDN tasks.org//android-140300//EN
    BEGIN:VTODO
    DTSTAMP:20261120T101500Z
    UID:5793411813658475826
    CREATED:20261120T101200Z
    LAST-MODIFIED:20261120T101500Z
    SUMMARY:Buy milk
    PRIORITY:9
    STATUS:NEEDS-ACTION
    X-APPLE-SORT-ORDER:3000
    RELATED-TO;RELTYPE=PARENT:2316498105739461521
    DUE;VALUE=DATE:20261203
    CATEGORIES:Home,Errands
    BEGIN:VALARM
    TRIGGER;RELATED=END:PT0S
    ACTION:DISPLAY
    DESCRIPTION:Default Tasks.org description
    END:VALARM
    END:VTODO
    END:VCALENDAR

    """)

  static let apple = crlf(
    """
    BEGIN:VCALENDAR
    VERSION:2.0
    PRODID:-//Apple Inc.//iOS 17.2//EN
    CALSCALE:GREGORIAN
    BEGIN:VTODO
    COMPLETED:20261201T084512Z
    CREATED:20261125T090000Z
    DTSTAMP:20261201T084513Z
    LAST-MODIFIED:20261201T084512Z
    PERCENT-COMPLETE:100
    STATUS:COMPLETED
    SEQUENCE:1
    SUMMARY:Call the dentist
    UID:A354E4C3-5C6E-4E6B-9D4B-2B8F6A1C0D11
    X-APPLE-SORT-ORDER:682545766
    DTSTART;TZID=Europe/Helsinki:20261201T090000
    DUE;TZID=Europe/Helsinki:20261201T090000
    BEGIN:VALARM
    X-WR-ALARMUID:9C2A1F0E-3B4D-4C5E-8F6A-7B8C9D0E1F2A
    UID:9C2A1F0E-3B4D-4C5E-8F6A-7B8C9D0E1F2A
    TRIGGER:-PT15M
    ACTION:DISPLAY
    DESCRIPTION:Reminder
    ACKNOWLEDGED:20261201T074600Z
    END:VALARM
    BEGIN:VALARM
    X-WR-ALARMUID:1D2E3F40-5A6B-4C7D-8E9F-0A1B2C3D4E5F
    UID:1D2E3F40-5A6B-4C7D-8E9F-0A1B2C3D4E5F
    TRIGGER;VALUE=DATE-TIME:19760401T005545Z
    ACTION:NONE
    X-APPLE-DEFAULT-ALARM:TRUE
    END:VALARM
    END:VTODO
    BEGIN:VTIMEZONE
    TZID:Europe/Helsinki
    BEGIN:STANDARD
    DTSTART:19961027T040000
    RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
    TZNAME:EET
    TZOFFSETFROM:+0300
    TZOFFSETTO:+0200
    END:STANDARD
    END:VTIMEZONE
    END:VCALENDAR

    """)

  static let thunderbird = crlf(
    """
    BEGIN:VCALENDAR
    PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN
    VERSION:2.0
    BEGIN:VTIMEZONE
    TZID:Europe/Berlin
    X-LIC-LOCATION:Europe/Berlin
    BEGIN:DAYLIGHT
    TZOFFSETFROM:+0100
    TZOFFSETTO:+0200
    TZNAME:CEST
    DTSTART:19700329T020000
    RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3
    END:DAYLIGHT
    END:VTIMEZONE
    BEGIN:VTODO
    CREATED:20261120T120000Z
    LAST-MODIFIED:20261121T080000Z
    DTSTAMP:20261121T080000Z
    UID:0b7e4f0e-8d5a-4b9a-9a1e-2c3d4e5f6a7b
    SUMMARY:Write the report
    DTSTART;TZID=Europe/Berlin:20261202T090000
    DUE;TZID=Europe/Berlin:20261203T170000
    X-MOZ-GENERATION:3
    X-MOZ-SNOOZE-TIME:20261203T153000Z
    DESCRIPTION:Sections 1–3\\, then the summary.\\nSend to Anna.
    BEGIN:VALARM
    ACTION:DISPLAY
    TRIGGER;VALUE=DURATION:-PT15M
    DESCRIPTION:Default Mozilla Description
    END:VALARM
    BEGIN:VALARM
    ACTION:DISPLAY
    TRIGGER;VALUE=DURATION;RELATED=END:-PT1H
    DESCRIPTION:Default Mozilla Description
    END:VALARM
    END:VTODO
    END:VCALENDAR

    """)

  static let evolution = crlf(
    """
    BEGIN:VCALENDAR
    CALSCALE:GREGORIAN
    PRODID:-//Ximian//NONSGML Evolution Calendar//EN
    VERSION:2.0
    BEGIN:VTIMEZONE
    TZID:/freeassociation.sourceforge.net/Europe/Helsinki
    X-LIC-LOCATION:Europe/Helsinki
    BEGIN:STANDARD
    TZNAME:EET
    DTSTART:19701025T040000
    TZOFFSETFROM:+0300
    TZOFFSETTO:+0200
    RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
    END:STANDARD
    END:VTIMEZONE
    BEGIN:VTODO
    UID:20261120T100000Z-4242-1000-1-7@laptop.example.org
    DTSTAMP:20261120T100000Z
    SUMMARY:Renew passport
    DUE;TZID=/freeassociation.sourceforge.net/Europe/Helsinki:20261210T100000
    CLASS:PUBLIC
    SEQUENCE:1
    CREATED:20261120T100000Z
    LAST-MODIFIED:20261120T100000Z
    PERCENT-COMPLETE:0
    STATUS:NEEDS-ACTION
    END:VTODO
    END:VCALENDAR

    """)

  static let exchange = crlf(
    """
    BEGIN:VCALENDAR
    METHOD:PUBLISH
    PRODID:Microsoft Exchange Server 2010
    VERSION:2.0
    BEGIN:VTIMEZONE
    TZID:W. Europe Standard Time
    BEGIN:STANDARD
    DTSTART:16010101T030000
    TZOFFSETFROM:+0200
    TZOFFSETTO:+0100
    RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=10
    END:STANDARD
    END:VTIMEZONE
    BEGIN:VTODO
    UID:040000008200E00074C5B7101A82E00800000000D0F5A1C3E25ADB01000000000000000
     010000000B5D1F4E6A0C2B94F8B3E2F5C9D1A7E63
    SUMMARY;LANGUAGE=en-US:Quarterly review
    DUE;TZID="W. Europe Standard Time":20261215T140000
    DTSTAMP:20261120T090000Z
    PRIORITY:1
    STATUS:IN-PROCESS
    PERCENT-COMPLETE:50
    X-MICROSOFT-CDO-IMPORTANCE:2
    END:VTODO
    END:VCALENDAR

    """)

  static let samples = [tasksOrg, apple, thunderbird, evolution, exchange]

  /// A VTODO with `lines` between its UID and its end.
  static func todo(_ lines: String) -> String {
    crlf("BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:test\nBEGIN:VTODO\nUID:t1\n\(lines)\nEND:VTODO\nEND:VCALENDAR\n")
  }

  // MARK: Reading

  @Test("Tasks.org: numeric UID, parent, sort order, date due, categories, a reminder at the due time")
  func tasksOrgFields() throws {
    let resource = try TodoResource(parsing: Self.tasksOrg)
    let fields = resource.fields
    #expect(resource.uid == "5793411813658475826")
    #expect(fields.title == "Buy milk" && fields.priority == 9 && fields.status == .needsAction)
    #expect(fields.due == TaskDue(date: Self.date("2026-12-03")))
    #expect(fields.parentUID == "2316498105739461521" && fields.sortKey == "00003000")
    #expect(fields.categories == ["Home", "Errands"])
    #expect(fields.reminders == [TaskReminder(.before(minutes: 0))])
  }

  @Test("Apple Reminders: done with COMPLETED, a due time in a zone, an acknowledged alarm; ACTION:NONE unmodelled")
  func appleFields() throws {
    let fields = try TodoResource(parsing: Self.apple).fields
    #expect(fields.status == .completed && fields.completedAt == Date(timeIntervalSince1970: 1_796_114_712))
    #expect(fields.due == TaskDue(date: Self.date("2026-12-01"), time: TimeOfDay("09:00"), timeZone: "Europe/Helsinki"))
    #expect(
      fields.reminders == [
        TaskReminder(.before(minutes: 15), acknowledgedAt: Date(timeIntervalSince1970: 1_796_111_160))
      ],
      "DTSTART equals DUE, so a trigger relative to the start is one before the due time")
    #expect(fields.sortKey == nil, "682545766 is no eight-digit order: the task's own is kept")
  }

  @Test("Thunderbird: TZID with VTIMEZONE; an alarm relative to a DTSTART other than DUE is not modelled")
  func thunderbirdFields() throws {
    let fields = try TodoResource(parsing: Self.thunderbird).fields
    #expect(fields.due == TaskDue(date: Self.date("2026-12-03"), time: TimeOfDay("17:00"), timeZone: "Europe/Berlin"))
    #expect(fields.notes == "Sections 1–3, then the summary.\nSend to Anna.")
    #expect(fields.reminders == [TaskReminder(.before(minutes: 60))])
    var (resource, task) = try Self.model(Self.thunderbird)
    task.reminders = []
    let difference = Self.difference(Self.thunderbird, Self.render(Self.thunderbird, resource, task))
    #expect(difference.added.isEmpty && difference.removed.contains("TRIGGER;VALUE=DURATION;RELATED=END:-PT1H"))
    #expect(difference.removed.count == 5, "the alarm relative to DTSTART stays as it was")
  }

  @Test("Evolution's libical TZID prefix and Exchange's Windows zone names read as IANA zones")
  func zoneSpellings() throws {
    let evolution = try TodoResource(parsing: Self.evolution)
    #expect(evolution.fields.due?.timeZone == "Europe/Helsinki" && evolution.fields.due?.time == TimeOfDay("10:00"))
    let exchange = try TodoResource(parsing: Self.exchange)
    #expect(exchange.uid.count == 112 && exchange.uid.hasSuffix("A7E63"))
    #expect(exchange.fields.due?.timeZone == "Europe/Berlin" && exchange.fields.priority == 1)
    #expect(exchange.fields.status == .needsAction, "IN-PROCESS is open")
    for name in ["Pacific Standard Time", "GMT Standard Time", "W. Europe Standard Time"] {
      let text = Self.todo("DUE;TZID=\(name):20261215T140000")
      #expect(try TodoResource(parsing: text).fields.due?.timeZone != nil, "\(name)")
    }
    #expect(windowsZones["Pacific Standard Time"] == "America/Los_Angeles")
    #expect(windowsZones["GMT Standard Time"] == "Europe/London")
    #expect(windowsZones.count > 130 && windowsZones.values.allSatisfy(ZoneNames.isIANA))
    let custom = Self.todo("DUE;TZID=/mozilla.org/20050126_1/America/New_York:20261215T140000")
    #expect(try TodoResource(parsing: custom).fields.due?.timeZone == "America/New_York")
  }

  @Test("each spelling of done reads as done; STATUS decides over the others")
  func doneSpellings() throws {
    let done = ["STATUS:COMPLETED", "COMPLETED:20261201T084512Z", "PERCENT-COMPLETE:100"]
    for line in done { #expect(try TodoResource(parsing: Self.todo(line)).fields.status == .completed, "\(line)") }
    let open = [
      "STATUS:NEEDS-ACTION\nPERCENT-COMPLETE:100", "STATUS:IN-PROCESS", "PERCENT-COMPLETE:50", "STATUS:CANCELLED",
    ]
    for lines in open { #expect(try TodoResource(parsing: Self.todo(lines)).fields.status == .needsAction, "\(lines)") }
    let local = try TodoResource(parsing: Self.todo("COMPLETED;TZID=Europe/Berlin:20261201T084512")).fields
    #expect(local.status == .completed && local.completedAt == nil, "COMPLETED must be UTC; the routes take now")
  }

  @Test(
    "DUE forms: date, UTC, floating; unreadable or before 1970 reads as none",
    arguments: [
      ("DUE;VALUE=DATE:20261203", TaskDue(date: CalendarDate("2026-12-03") ?? .first)),
      (
        "DUE:20261203T090000Z",
        TaskDue(date: CalendarDate("2026-12-03") ?? .first, time: TimeOfDay("09:00"), timeZone: "UTC")
      ),
      ("DUE:20261203T090000", TaskDue(date: CalendarDate("2026-12-03") ?? .first, time: TimeOfDay("09:00"))),
      (
        "DUE;TZID=UTC:20261203T090000",
        TaskDue(date: CalendarDate("2026-12-03") ?? .first, time: TimeOfDay("09:00"), timeZone: "UTC")
      ),
      ("DUE:19691231", nil), ("DUE:20260230", nil), ("DUE;TZID=Mars/Olympus:20261203T090000", nil),
      ("DUE;VALUE=DATE:20261203T090000Z", nil), ("DUE:tomorrow", nil),
    ] as [(String, TaskDue?)])
  func dueForms(line: String, due: TaskDue?) throws {
    let text = Self.todo("SUMMARY:s\n" + line)
    let (resource, task) = try Self.model(text)
    #expect(resource.fields.due == due)
    #expect(Self.render(text, resource, task) == text, "an unreadable DUE stays as written")
  }

  @Test("alarms the model cannot hold are not modelled: after due, too long before, another start, email, no due")
  func unmodelledAlarms() throws {
    func reminders(_ lines: String) throws -> [TaskReminder] {
      try TodoResource(parsing: Self.todo(lines)).fields.reminders
    }
    func alarm(_ trigger: String, _ action: String = "DISPLAY") -> String {
      "BEGIN:VALARM\nACTION:\(action)\n\(trigger)\nEND:VALARM"
    }
    let due = "DUE:20261203T090000Z\n"
    #expect(try reminders(due + alarm("TRIGGER:-PT15M")) == [TaskReminder(.before(minutes: 15))])
    #expect(
      try reminders(due + alarm("TRIGGER;VALUE=DATE-TIME:20261203T080000Z")) == [
        TaskReminder(.at(Date(timeIntervalSince1970: 1_796_284_800)))
      ])
    #expect(try reminders(due + alarm("TRIGGER;RELATED=END:PT15M")).isEmpty)
    #expect(try reminders(due + alarm("TRIGGER;RELATED=END:-P400D")).isEmpty)
    #expect(try reminders(due + alarm("TRIGGER;RELATED=END:-PT90S")).isEmpty)
    #expect(try reminders(due + "DTSTART:20261201T090000Z\n" + alarm("TRIGGER:-PT15M")).isEmpty)
    #expect(try reminders(due + alarm("TRIGGER:-PT15M", "EMAIL")).isEmpty)
    #expect(try reminders(alarm("TRIGGER;RELATED=END:-PT15M")).isEmpty)
    let many = (1...25).map { alarm("TRIGGER;RELATED=END:-PT\($0)M") }.joined(separator: "\n")
    #expect(try reminders(due + many).count == PlannerTask.maxReminders)
  }

  @Test("PRIORITY out of range, CATEGORIES lists and escapes, parent without RELTYPE, sort orders")
  func otherFields() throws {
    let fields = try TodoResource(
      parsing: Self.todo(
        "PRIORITY:12\nCATEGORIES:a\\,b,c\nCATEGORIES: c , d\nRELATED-TO:p@host\nRELATED-TO;RELTYPE=SIBLING:s\nX-APPLE-SORT-ORDER:7"
      )
    ).fields
    #expect(fields.priority == 0 && fields.categories == ["a,b", "c", "d"])
    #expect(fields.parentUID == "p@host" && fields.sortKey == "00000007")
    #expect(try TodoResource(parsing: Self.todo("X-APPLE-SORT-ORDER:-4")).fields.sortKey == nil)
    let text = Self.todo("SUMMARY:s\nPRIORITY:12")
    let (resource, task) = try Self.model(text)
    #expect(task.priority == 0 && Self.render(text, resource, task) == text, "PRIORITY:12 stays as written")
    #expect(try TodoResource(parsing: Self.todo("RELATED-TO;RELTYPE=CHILD:c")).fields.parentUID == nil)
  }

  @Test("a PUT keeps what VTODO cannot say: repeat from completion, acknowledgements, snoozing, the sort key")
  func changesKeep() throws {
    var current = PlannerTask(title: "x")
    current.due = TaskDue(date: Self.date("2026-12-03"))
    current.recurrence = TaskRecurrence(rule: RecurrenceRule(.weekly), from: .completion)
    current.reminders = [TaskReminder(.before(minutes: 0), acknowledgedAt: Self.created, snoozedUntil: Self.now)]
    current.sortKey = "a0"
    let text = Self.todo(
      "SUMMARY:y\nDUE;VALUE=DATE:20261203\nRRULE:FREQ=WEEKLY\nBEGIN:VALARM\nACTION:DISPLAY\nTRIGGER;RELATED=END:PT0S\nEND:VALARM"
    )
    let task = try current.applying(try TodoResource(parsing: text).fields.changes(over: current), now: Self.now)
    #expect(task.title == "y" && task.recurrence?.from == .completion && task.sortKey == "a0")
    #expect(task.reminders == current.reminders)
    current.reminders = [TaskReminder(.at(Self.now.addingTimeInterval(0.25)), acknowledgedAt: Self.created)]
    let at = Self.todo("BEGIN:VALARM\nACTION:DISPLAY\nTRIGGER;VALUE=DATE-TIME:\(Self.stamp)\nEND:VALARM")
    let changes = try TodoResource(parsing: at).fields.changes(over: current)
    #expect(changes.reminders == .set([TaskReminder(.at(Self.now), acknowledgedAt: Self.created)]), "to the second")
  }

  // MARK: Writing back

  @Test(
    "each client's text comes back byte for byte while the model says what it says", arguments: ICalendarTests.samples)
  func roundTrip(text: String) throws {
    let (resource, task) = try Self.model(text)
    #expect(Self.render(text, resource, task) == text)
    #expect(try ICalendar.parse(text).text == text)
  }

  @Test("LF line ends and any folding are normalised to CRLF and 75 octets; the content is kept")
  func normalised() throws {
    let text = "BEGIN:VCALENDAR\nX-A;P=\"a:b\",c:v\nBEGIN:X-THING\nX-B:1\n 2\nEND:X-THING\nEND:VCALENDAR\n"
    let calendar = try ICalendar.parse(text)
    #expect(
      calendar.text
        == Self.crlf("BEGIN:VCALENDAR\nX-A;P=\"a:b\",c:v\nBEGIN:X-THING\nX-B:12\nEND:X-THING\nEND:VCALENDAR\n"))
    #expect(calendar.properties[0].parameters[0].values == ["a:b", "c"])
    let long = ICalComponent(
      "VCALENDAR", [.property(ICalProperty("SUMMARY", text: String(repeating: "äö€😀", count: 40)))])
    let lines = long.text.components(separatedBy: "\r\n").dropLast()
    #expect(lines.allSatisfy { $0.utf8.count <= 75 } && lines.count > 3)
    #expect(try ICalendar.parse(long.text) == long)
  }

  @Test("TEXT escapes: \\n \\N \\, \\; \\\\ read, and written back")
  func escapes() {
    #expect(ICalendar.unescape(#"a\nb\Nc\,d\;e\\f\:g"#) == "a\nb\nc,d;e\\f\\:g")
    #expect(ICalendar.escape("a\r\nb\nc,d;e\\f") == #"a\nb\nc\,d\;e\\f"#)
    #expect(ICalendar.splitList(#"a\,b,c,"#) == [#"a\,b"#, "c", ""])
  }

  @Test("changing one field of the model changes only its line (and DTSTAMP, LAST-MODIFIED)")
  func oneLineEach() throws {
    let (resource, task) = try Self.model(Self.tasksOrg)
    func check(
      _ change: (inout PlannerTask) -> Void, parent: String? = nil, removed: [String], added: [String],
      sourceLocation: SourceLocation = #_sourceLocation
    ) {
      var changed = task
      change(&changed)
      let text = Self.render(Self.tasksOrg, resource, changed, parent: parent)
      let difference = Self.difference(Self.tasksOrg, text)
      #expect(difference.removed.sorted() == removed.sorted(), sourceLocation: sourceLocation)
      #expect(difference.added.sorted() == added.sorted(), sourceLocation: sourceLocation)
      #expect(text.contains("\r\nDTSTAMP:\(Self.stamp)\r\n"), sourceLocation: sourceLocation)
      #expect(text.contains("\r\nLAST-MODIFIED:\(Self.stamp)\r\n"), sourceLocation: sourceLocation)
    }
    check({ $0.title = "Buy oat milk; 2 l" }, removed: ["SUMMARY:Buy milk"], added: [#"SUMMARY:Buy oat milk\; 2 l"#])
    check({ $0.notes = "Lidl" }, removed: [], added: ["DESCRIPTION:Lidl"])
    check({ $0.priority = 1 }, removed: ["PRIORITY:9"], added: ["PRIORITY:1"])
    check({ $0.priority = 0 }, removed: ["PRIORITY:9"], added: [])
    check(
      { $0.due?.date = Self.date("2026-12-04") }, removed: ["DUE;VALUE=DATE:20261203"],
      added: ["DUE;VALUE=DATE:20261204"])
    check(
      { $0.due = TaskDue(date: Self.date("2026-12-04"), time: TimeOfDay("08:30"), timeZone: "Europe/Helsinki") },
      removed: ["DUE;VALUE=DATE:20261203"], added: ["DUE;TZID=Europe/Helsinki:20261204T083000"])
    check({ $0.categories = ["Home"] }, removed: ["CATEGORIES:Home,Errands"], added: ["CATEGORIES:Home"])
    check({ $0.sortKey = "00004000" }, removed: ["X-APPLE-SORT-ORDER:3000"], added: ["X-APPLE-SORT-ORDER:4000"])
    check({ $0.sortKey = "" }, removed: ["X-APPLE-SORT-ORDER:3000"], added: [])
    check(
      { _ in }, parent: "99", removed: ["RELATED-TO;RELTYPE=PARENT:2316498105739461521"],
      added: ["RELATED-TO;RELTYPE=PARENT:99"])
    check(
      { $0.recurrence = TaskRecurrence(rule: RecurrenceRule(.weekly, byDay: [.monday])) }, removed: [],
      added: ["RRULE:FREQ=WEEKLY;BYDAY=MO"])
    check(
      { $0.reminders.append(TaskReminder(.before(minutes: 60))) }, removed: [],
      added: ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Buy milk", "TRIGGER;RELATED=END:-PT1H", "END:VALARM"])
    check(
      { $0.reminders[0].acknowledgedAt = Self.now }, removed: [], added: ["ACKNOWLEDGED:\(Self.stamp)"])
    check(
      { $0.reminders = [] },
      removed: [
        "BEGIN:VALARM", "TRIGGER;RELATED=END:PT0S", "ACTION:DISPLAY",
        "DESCRIPTION:Default Tasks.org description", "END:VALARM",
      ], added: [])
    check(
      {
        $0.status = .completed; $0.completedAt = Self.now
      }, removed: ["STATUS:NEEDS-ACTION"],
      added: ["STATUS:COMPLETED", "COMPLETED:\(Self.stamp)", "PERCENT-COMPLETE:100"])
  }

  @Test("reopening clears every spelling of done; IN-PROCESS and PERCENT-COMPLETE:50 stay while open")
  func reopen() throws {
    let (resource, task) = try Self.model(Self.apple)
    var open = task
    open.status = .needsAction
    open.completedAt = nil
    let text = Self.render(Self.apple, resource, open)
    #expect(
      Self.difference(Self.apple, text).removed.sorted() == [
        "COMPLETED:20261201T084512Z", "PERCENT-COMPLETE:100", "STATUS:COMPLETED",
      ])
    #expect(Self.difference(Self.apple, text).added == ["STATUS:NEEDS-ACTION"])
    #expect(try TodoResource(parsing: text).fields.status == .needsAction)
    for done in ["PERCENT-COMPLETE:100", "STATUS:COMPLETED", "COMPLETED:20261201T084512Z\nPERCENT-COMPLETE:100"] {
      let original = Self.todo("SUMMARY:s\n" + done)
      let (resource, _) = try Self.model(original)
      let reopened = Self.render(original, resource, PlannerTask(title: "s"))
      #expect(try TodoResource(parsing: reopened).fields.status == .needsAction, "\(done)")
      #expect(!reopened.contains("PERCENT-COMPLETE:100") && !reopened.contains("COMPLETED:2"))
    }
    let (exchange, exchangeTask) = try Self.model(Self.exchange)
    var renamed = exchangeTask
    renamed.title = "Quarterly review 2"
    let kept = Self.render(Self.exchange, exchange, renamed)
    #expect(kept.contains("\r\nSTATUS:IN-PROCESS\r\nPERCENT-COMPLETE:50\r\n"))
    #expect(
      Self.difference(Self.exchange, kept).added == ["SUMMARY:Quarterly review 2"], "LANGUAGE goes with the old line")
  }

  @Test("a moved due date keeps the zone's spelling (libical prefix, Windows name) and moves a DTSTART equal to it")
  func dueKeepsSpelling() throws {
    let (evolution, task) = try Self.model(Self.evolution)
    var moved = task
    moved.due?.date = Self.date("2026-12-11")
    #expect(
      Self.difference(Self.evolution, Self.render(Self.evolution, evolution, moved)).added == [
        "DUE;TZID=/freeassociation.sourceforge.net/Europe/Helsinki:20261211T100000"
      ])
    let (exchange, exchangeTask) = try Self.model(Self.exchange)
    moved = exchangeTask
    moved.due?.date = Self.date("2026-12-16")
    #expect(
      Self.difference(Self.exchange, Self.render(Self.exchange, exchange, moved)).added == [
        "DUE;TZID=W. Europe Standard Time:20261216T140000"
      ])
    let (apple, appleTask) = try Self.model(Self.apple)
    moved = appleTask
    moved.due?.date = Self.date("2026-12-08")
    let difference = Self.difference(Self.apple, Self.render(Self.apple, apple, moved))
    #expect(
      difference.added == ["DTSTART;TZID=Europe/Helsinki:20261208T090000", "DUE;TZID=Europe/Helsinki:20261208T090000"])
    #expect(difference.removed.count == 2)
  }

  @Test(
    "an RRULE outside the subset comes back as written and reads as no recurrence",
    arguments: [
      "RRULE:FREQ=YEARLY;BYEASTER=0", "RRULE:FREQ=MINUTELY;INTERVAL=30", "RRULE:FREQ=MONTHLY;BYDAY=1MO",
    ])
  func uncomputableRule(rule: String) throws {
    let text = Self.todo("SUMMARY:s\nDUE;VALUE=DATE:20260405\n" + rule)
    var (resource, task) = try Self.model(text)
    #expect(resource.fields.rule == nil && task.recurrence == nil)
    #expect(Self.render(text, resource, task) == text)
    task.title = "t"
    #expect(Self.render(text, resource, task).contains("\r\n\(rule)\r\n"))
    let computable = Self.todo("SUMMARY:s\nDUE;VALUE=DATE:20260405\nRRULE:FREQ=WEEKLY;UNTIL=20261231T000000Z")
    (resource, task) = try Self.model(computable)
    #expect(task.recurrence?.rule == RecurrenceRule(.weekly, until: Self.date("2026-12-31")))
    #expect(Self.render(computable, resource, task) == computable, "UNTIL as a time stays as written")
  }

  @Test(
    "a PUT finishes the run of occurrences its completed overrides name, from the open one: at most 16, only the first when the task repeats from completion; the one last finished again only when the task is due on it"
  )
  func finishedRun() throws {
    let overrides = (1...20).map { day in
      "BEGIN:VTODO\nUID:r\nRECURRENCE-ID;VALUE=DATE:202612\(day < 10 ? "0" : "")\(day)\nSTATUS:COMPLETED\nEND:VTODO\n"
    }
    let text =
      "BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:r\nSUMMARY:s\nDUE;VALUE=DATE:20261201\nRRULE:FREQ=DAILY\nEND:VTODO\n"
      + overrides.joined() + "END:VCALENDAR\n"
    // Today is 5 December: a task repeating from completion would move to the 6th, which an override names.
    let now = Date(timeIntervalSince1970: TimeInterval(Self.date("2026-12-05").dayNumber) * 86_400 + 43_200)
    let plan = DAVTodo.plan(try DAVTodo.read(Data(text.utf8)), current: nil, parentID: nil, now: now)
    let made = try PlannerTask(title: "s").applying(plan.changes, now: now)
    var task = made
    var count = 0
    while let occurrence = plan.nextFinished(on: task, after: count) {
      task = try task.completing(occurrence: occurrence, today: plan.today, now: now)
      count += 1
    }
    #expect(count == DAVTodo.Plan.maxFinished && task.due?.date == Self.date("2026-12-17"), "\(count) \(task)")
    var fromCompletion = made
    fromCompletion.recurrence?.from = .completion
    let first = try #require(plan.nextFinished(on: fromCompletion, after: 0))
    let moved = try fromCompletion.completing(occurrence: first, today: plan.today, now: now)
    #expect(moved.due?.date == Self.date("2026-12-06") && plan.nextFinished(on: moved, after: 1) == nil)
    // A stale text whose open date is the one last finished (or a task an Undo put back on it): finished again, to
    // where it was, counted once.
    var stale = task
    stale.due?.date = Self.date("2026-12-16")
    #expect(stale.lastOccurrenceDone == Self.date("2026-12-16"))
    let again = try #require(plan.nextFinished(on: stale, after: 0))
    #expect(try stale.completing(occurrence: again, today: plan.today, now: now) == task)
  }

  @Test("a completed RECURRENCE-ID override is read as a finished occurrence and dropped once the task took it in")
  func completedOverride() throws {
    let text = Self.crlf(
      """
      BEGIN:VCALENDAR
      VERSION:2.0
      PRODID:-//python-caldav//EN
      BEGIN:VTODO
      UID:series@host
      SUMMARY:Water plants
      DUE;VALUE=DATE:20261201
      RRULE:FREQ=DAILY
      END:VTODO
      BEGIN:VTODO
      UID:series@host
      RECURRENCE-ID;VALUE=DATE:20261201
      SUMMARY:Water plants
      STATUS:COMPLETED
      COMPLETED:20261201T090000Z
      END:VTODO
      END:VCALENDAR

      """)
    let (resource, task) = try Self.model(text)
    #expect(resource.fields.completedOccurrences == [Self.date("2026-12-01")] && resource.fields.status == .needsAction)
    let next = try task.completing(occurrence: Self.date("2026-12-01"), today: Self.date("2026-12-01"), now: Self.now)
    let rendered = Self.render(text, resource, next)
    #expect(!rendered.contains("RECURRENCE-ID") && rendered.contains("\r\nDUE;VALUE=DATE:20261202\r\n"))
    #expect(Self.render(text, resource, task).contains("RECURRENCE-ID"), "not taken in yet: kept")
  }

  @Test("a task no client wrote gets a VCALENDAR of its own, with its set fields only, the same bytes each time")
  func fromScratch() throws {
    var task = PlannerTask(title: "Pay rent")
    task.due = TaskDue(date: Self.date("2026-12-01"), time: TimeOfDay("09:00"), timeZone: "Europe/Helsinki")
    task.recurrence = TaskRecurrence(rule: RecurrenceRule(.monthly))
    task.reminders = [TaskReminder(.before(minutes: 30)), TaskReminder(.at(Self.now))]
    task.sortKey = "00003000"
    func render() -> String {
      TodoResource.render(
        stored: nil, task: task, uid: "id-1", parentUID: nil, createdAt: Self.created, updatedAt: Self.now)
    }
    let text = render()
    #expect(text == render())
    #expect(
      text.hasPrefix(
        Self.crlf(
          "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//B2C Tasks//Task service//EN\nBEGIN:VTODO\nUID:id-1\nDTSTAMP:\(Self.stamp)\n"
            + "CREATED:20261106T212000Z\nLAST-MODIFIED:\(Self.stamp)\nSUMMARY:Pay rent\n"
            + "DUE;TZID=Europe/Helsinki:20261201T090000\nRRULE:FREQ=MONTHLY\nX-APPLE-SORT-ORDER:3000\nBEGIN:VALARM\n")))
    #expect(!text.contains("VTIMEZONE") && !text.contains("STATUS") && !text.contains("PRIORITY"))
    let (resource, read) = try Self.model(text)
    #expect(
      resource.uid == "id-1" && read.title == task.title && read.due == task.due && read.reminders == task.reminders)
    #expect(Self.render(text, resource, read) == text)
  }

  // MARK: Refusals

  @Test(
    "garbage is refused with the fault and its line",
    arguments: [
      ("", ICalendarError.Code.noCalendar, nil),
      ("BEGIN:VTODO\nEND:VTODO\n", .noCalendar, 1),
      ("BEGIN:VCALENDAR\nBEGIN:VTODO\nEND:VEVENT\nEND:VCALENDAR\n", .unbalanced, 3),
      ("BEGIN:VCALENDAR\nBEGIN:VTODO\nEND:VCALENDAR\n", .unbalanced, 3),
      ("BEGIN:VCALENDAR\nBEGIN:VTODO\n", .unbalanced, nil),
      ("BEGIN:VCALENDAR\nSUMMARY no colon\nEND:VCALENDAR\n", .noColon, 2),
      ("BEGIN:VCALENDAR\nSUM MARY:x\nEND:VCALENDAR\n", .badName, 2),
      ("BEGIN:VCALENDAR\nSUMMARY;X:x\nEND:VCALENDAR\n", .badParameter, 2),
      ("BEGIN:VCALENDAR\nSUMMARY;X=\"a:x\nEND:VCALENDAR\n", .badParameter, 2),
      ("BEGIN:VCALENDAR\nSUMMARY;X=\"a\"b:x\nEND:VCALENDAR\n", .badParameter, 2),
      ("BEGIN:VCALENDAR\nSUMMARY:a\rb\nEND:VCALENDAR\n", .bareCR, 2),
      ("BEGIN:VCALENDAR\nSUMMARY:a\u{0}b\nEND:VCALENDAR\n", .nulByte, 2),
      ("BEGIN:VCALENDAR\nEND:VCALENDAR\nBEGIN:VCALENDAR\n", .afterEnd, 3),
      ("BEGIN:VCALENDAR\nBEGIN:V TODO\nEND:VCALENDAR\n", .badName, 2),
      (String(repeating: "BEGIN:VCALENDAR\n", count: 9), .tooDeep, 9),
      ("BEGIN:VCALENDAR\n" + String(repeating: "X-A:1\n", count: 10_000), .tooLong, 10_001),
    ] as [(String, ICalendarError.Code, Int?)])
  func garbage(text: String, code: ICalendarError.Code, line: Int?) {
    let error = #expect(throws: ICalendarError.self) { try ICalendar.parse(text) }
    #expect(error?.code == code && error?.line == line && error?.description.isEmpty == false)
    #expect(throws: TodoResourceError.self) { try TodoResource(parsing: text) }
  }

  @Test("bytes that are not UTF-8 are refused")
  func notUTF8() {
    let bytes = Array("BEGIN:VCALENDAR\r\nSUMMARY:".utf8) + [0xC3, 0x28] + Array("\r\nEND:VCALENDAR\r\n".utf8)
    #expect(throws: ICalendarError.self) { try ICalendar.parse(bytes) }
  }

  @Test("an event is refused as an unsupported component; several UIDs, none or no master as no task")
  func notATask() {
    let event = Self.crlf("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:e\nEND:VEVENT\nEND:VCALENDAR\n")
    #expect(throws: TodoResourceError.unsupportedComponent("VEVENT")) { try TodoResource(parsing: event) }
    let two = Self.crlf(
      "BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:a\nEND:VTODO\nBEGIN:VTODO\nUID:b\nEND:VTODO\nEND:VCALENDAR\n")
    #expect(throws: TodoResourceError.severalUIDs) { try TodoResource(parsing: two) }
    for body in [
      "BEGIN:VCALENDAR\nEND:VCALENDAR\n", "BEGIN:VCALENDAR\nBEGIN:VTODO\nSUMMARY:x\nEND:VTODO\nEND:VCALENDAR\n",
      "BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:a\nRECURRENCE-ID:20261201\nEND:VTODO\nEND:VCALENDAR\n",
      "BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:\(String(repeating: "u", count: 256))\nEND:VTODO\nEND:VCALENDAR\n",
    ] {
      let error = #expect(throws: TodoResourceError.self) { try TodoResource(parsing: Self.crlf(body)) }
      #expect({ if case .invalidTask = error { true } else { false } }(), "\(body)")
    }
  }

  // MARK: Random text

  @Test("random and mutated texts never crash; what reads writes back; a changed model reads back as it says")
  func randomText() {
    var random = SeededGenerator(seed: 20_261_203)
    let safe = Array(":;,=\"\\\n \t".utf8) + [0xC3, 0xA4] + Array("BEGIN:VTODO\nEND:VALARM\nDUE:2026".utf8)
    let pieces = safe + [0, 0xFF, 0x0D]
    for round in 0..<3000 {
      let alphabet = round % 3 == 0 ? pieces : safe
      var bytes = Array(Self.samples[round % Self.samples.count].utf8)
      for _ in 0...Int.random(in: 0...6, using: &random) {
        let index = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: bytes[index] = alphabet.randomElement(using: &random) ?? 0
        case 1: bytes.insert(alphabet.randomElement(using: &random) ?? 0, at: index)
        default: bytes.removeSubrange(index..<min(bytes.count, index + Int.random(in: 1...40, using: &random)))
        }
        if bytes.isEmpty { bytes = [0x41] }
      }
      if round % 10 == 0 {
        bytes = (0..<Int.random(in: 0...300, using: &random)).map { _ in pieces.randomElement(using: &random) ?? 0 }
      }
      guard let calendar = try? ICalendar.parse(bytes) else { continue }
      #expect((try? ICalendar.parse(calendar.text)) == calendar)
      guard let resource = try? TodoResource(parsing: bytes),
        var task = try? PlannerTask(title: "t").applying(resource.fields.changes(over: nil), now: Self.now)
      else { continue }
      switch round % 4 {
      case 0: task.title = "Renamed \(round)"
      case 1: task.due = TaskDue(date: Self.date("2026-01-01").adding(days: round), time: TimeOfDay(hour: round % 24))
      case 2: (task.status, task.completedAt) = task.status == .completed ? (.needsAction, nil) : (.completed, Self.now)
      default: task.reminders = []
      }
      let text = TodoResource.render(
        stored: String(decoding: bytes, as: UTF8.self), task: task, uid: resource.uid, parentUID: nil,
        createdAt: Self.created, updatedAt: Self.now)
      let back = try? TodoResource(parsing: text)
      #expect(back?.fields.title == task.title && back?.fields.due == task.due && back?.fields.status == task.status)
      #expect(back?.fields.reminders.isEmpty == true || round % 4 != 3)
    }
  }

}

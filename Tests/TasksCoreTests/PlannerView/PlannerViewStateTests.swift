// Tests of the planner's views without any UI: the sidebar's entries and counts, a list's rows, Today and Upcoming
// across lists, the edits of each change, rows changed in place, what rows say, keyboard moves between entries, and
// switching views with 10 000 tasks.

import Foundation
import TasksTestSupport
import Testing

@testable import TasksCore

@Suite("Planner view state")
struct PlannerViewStateTests {
  /// Wednesday 25 November 2026, 12:00.
  static let today = CalendarDate(year: 2026, month: 11, day: 25)!
  static let noon = TimeOfDay(hour: 12)!
  private static let base = Date(timeIntervalSince1970: 1_800_000_000)

  private let home = PlannerListItem.make("Tasks", isDefault: true)
  private let work = PlannerListItem.make("Work")

  private func task(
    _ title: String, in list: PlannerListItem, due: Int? = nil, at time: TimeOfDay? = nil, done: Bool = false,
    parent: PlannerItem? = nil, order: Int = 0
  ) -> PlannerItem {
    var item = PlannerItem(
      id: UUID(), listID: list.id, title: title, createdAt: Self.base.addingTimeInterval(Double(order)))
    item.due = due.map { TaskDue(date: Self.today.adding(days: $0), time: time) }
    item.status = done ? .completed : .needsAction
    item.parentID = parent?.id
    return item
  }

  private func applying<Key>(_ edits: [KeyedEdit<Key>], to old: [Key]) -> [Key] {
    var rows = old
    for edit in edits { rows.replaceSubrange(edit.at..<(edit.at + edit.remove), with: edit.insert) }
    return rows
  }

  @Test("the sidebar: Today, Upcoming, the default list, then the others by name, each with its open tasks")
  func sidebar() {
    var state = PlannerViewState(today: Self.today, now: Self.noon)
    let zed = PlannerListItem.make("Zed")
    _ = state.show(
      lists: [zed, work, home],
      tasks: [
        task("overdue", in: work, due: -2), task("today", in: home, due: 0), task("tomorrow", in: zed, due: 1),
        task("in 7 days", in: work, due: 7), task("in 8 days", in: work, due: 8),
        task("done", in: home, due: 0, done: true),
        task("undated", in: home),
      ], waiting: [])
    #expect(state.entries.map(\.name) == ["Today", "Upcoming", "Tasks", "Work", "Zed"])
    #expect(state.entries.map(\.count) == [2, 2, 2, 3, 1])
    #expect(state.entries.map(\.owned) == [false, false, true, true, true])
    #expect(state.entry(.list(work.id))?.spokenName == "Work, 3 open tasks")
  }

  @Test(
    "Today: open tasks due today or before, across lists, overdue first, timed before untimed, with the list's name")
  func todayView() throws {
    var state = PlannerViewState(today: Self.today, now: Self.noon)
    let late = task("late", in: work, due: -1)
    let nine = task("nine", in: home, due: 0, at: TimeOfDay(hour: 9))
    let evening = task("evening", in: work, due: 0, at: TimeOfDay(hour: 18))
    let anytime = task("anytime", in: home, due: 0)
    _ = state.show(
      lists: [home, work], tasks: [anytime, evening, task("later", in: home, due: 1), nine, late], waiting: [])
    #expect(state.selection == .today)
    #expect(state.rows == [.task(late.id), .task(nine.id), .task(evening.id), .task(anytime.id)])
    let row = try #require(state.content(late.id))
    #expect(row.listName == "Work" && row.due?.text == "Yesterday" && row.due?.overdue == true)
    #expect(state.content(nine.id)?.due?.text == "Today 09:00" && state.content(nine.id)?.due?.overdue == true)
    #expect(state.content(evening.id)?.due?.overdue == false)
    #expect(state.content(anytime.id)?.due?.overdue == false, "a day without a time is not overdue on its day")
  }

  @Test("Upcoming: the next 7 days from tomorrow, each day under its heading")
  func upcoming() {
    var state = PlannerViewState(today: Self.today, now: Self.noon)
    let a = task("a", in: home, due: 1)
    let b = task("b", in: work, due: 1, at: TimeOfDay(hour: 8))
    let c = task("c", in: work, due: 5)
    _ = state.show(
      lists: [home, work], tasks: [a, b, c, task("d", in: home, due: 8), task("e", in: home, due: 0)], waiting: [])
    _ = state.select(.upcoming)
    let tomorrow = Self.today.adding(days: 1)
    let monday = Self.today.adding(days: 5)
    #expect(state.rows == [.day(tomorrow), .task(b.id), .task(a.id), .day(monday), .task(c.id)])
    #expect(state.heading(tomorrow) == "Tomorrow" && state.heading(monday) == "Mon 30 Nov")
  }

  @Test("a list: top-level open tasks in their order, finished ones after, subtasks counted on their parent")
  func listRows() throws {
    var state = PlannerViewState(today: Self.today, now: Self.noon)
    let parent = task("Move house", in: home, order: 1)
    let first = task("first", in: home, order: 0)
    let sub1 = task("boxes", in: home, done: true, parent: parent)
    let sub2 = task("van", in: home, parent: parent)
    let sub3 = task("keys", in: home, parent: parent)
    var done = task("done", in: home, done: true, order: 2)
    done.completedAt = Self.base
    _ = state.show(lists: [home], tasks: [done, sub3, parent, sub1, first, sub2], waiting: [parent.id])
    let edits = state.select(.list(home.id))
    #expect(applying(edits, to: []) == state.rows)
    #expect(state.rows == [.task(first.id), .task(parent.id), .task(done.id)])
    let row = try #require(state.content(parent.id))
    #expect(row.subtaskCount == "1/3" && row.listName == nil && row.changeWaiting)
    #expect(row.spokenName == "Move house, not done, 1 of 3 subtasks done, change waiting to be sent")
    #expect(state.entry(.list(home.id))?.count == 2)
    _ = state.setShowCompleted(false)
    #expect(state.rows == [.task(first.id), .task(parent.id)])
  }

  @Test("a list's tasks move up and down among its open ones, in their keys; Today and finished tasks do not")
  func reordering() throws {
    var state = PlannerViewState(today: Self.today, now: Self.noon)
    var tasks = (0..<4).map { task("t\($0)", in: work, due: 0, order: $0) }
    var done = task("done", in: work, done: true, order: 9)
    done.completedAt = Self.base
    tasks.append(done)
    _ = state.show(lists: [home, work], tasks: tasks, waiting: [])
    _ = state.select(.list(work.id))
    let titles = { (state: PlannerViewState) in state.tasks(of: work.id).map(\.title) }
    #expect(titles(state) == ["t0", "t1", "t2", "t3", "done"])
    // Each move, applied as the outbox applies the edits it records, shows the new order.
    for (id, offset, expected) in [
      (tasks[3].id, -1, ["t0", "t1", "t3", "t2", "done"]), (tasks[3].id, -2, ["t3", "t0", "t1", "t2", "done"]),
      (tasks[0].id, 2, ["t3", "t1", "t2", "t0", "done"]), (tasks[2].id, -1, ["t3", "t2", "t1", "t0", "done"]),
    ] {
      let changed = try #require(state.reordering(id, by: offset))
      for item in changed { tasks[tasks.firstIndex { $0.id == item.id }!] = item }
      _ = state.show(lists: [home, work], tasks: tasks, waiting: [])
      #expect(titles(state) == expected)
    }
    #expect(state.reordering(tasks[3].id, by: -1) == nil, "the first goes no higher")
    #expect(state.reordering(tasks[0].id, by: 1) == nil, "the last open one goes no lower")
    #expect(state.reordering(done.id, by: -1) == nil, "a finished task has no place to move to")
    _ = state.select(.today)
    #expect(state.reordering(tasks[1].id, by: 1) == nil, "Today is in due order")
  }

  @Test(
    "the default list shows its rows like every list; the search keeps the tasks whose title or notes hold every word")
  func defaultListAndSearch() {
    var state = PlannerViewState(today: Self.today, now: Self.noon)
    let rent = task("Pay rent", in: home, due: 0)
    var milk = task("Buy milk", in: home)
    milk.notes = "Oat, from the café"
    let report = task("Write report", in: work, due: 0)
    _ = state.show(lists: [home, work], tasks: [rent, milk, report], waiting: [], selecting: .list(home.id))
    #expect(Set(state.rows) == [.task(rent.id), .task(milk.id)], "the default list has rows of its own")
    let before = state.rows
    #expect(applying(state.setSearch(TaskSearch("CAFE oat")), to: before) == [.task(milk.id)])
    #expect(state.rows == [.task(milk.id)])
    #expect(state.setSearch(TaskSearch("cafe oat")).isEmpty, "the same search again: nothing moves")
    _ = state.select(.today)
    #expect(state.rows.isEmpty, "the search goes with the entry chosen: nothing due today holds its words")
    _ = state.setSearch(TaskSearch("re"))
    #expect(Set(state.rows) == [.task(rent.id), .task(report.id)])
    _ = state.setSearch(TaskSearch(""))
    _ = state.select(.list(home.id))
    #expect(state.rows.count == 2)
  }

  @Test("Delete Completed takes the finished tasks of the entry shown, and only those")
  func completedOfEntry() {
    var state = PlannerViewState(today: Self.today, now: Self.noon)
    let doneHere = task("done here", in: home, done: true)
    let doneToday = task("done today", in: work, due: 0, done: true)
    let doneLater = task("done later", in: work, due: 3, done: true)
    let open = task("open", in: home, due: 0)
    _ = state.show(lists: [home, work], tasks: [doneHere, doneToday, doneLater, open], waiting: [])
    _ = state.select(.list(home.id))
    #expect(state.completedTasks.map(\.title) == ["done here"])
    _ = state.select(.list(work.id))
    #expect(Set(state.completedTasks.map(\.title)) == ["done today", "done later"])
    _ = state.select(.today)
    #expect(state.completedTasks.map(\.title) == ["done today"])
    _ = state.select(.upcoming)
    #expect(state.completedTasks.map(\.title) == ["done later"])
  }

  @Test(
    "a change answers the fewest edits: a refresh with nothing new none, a finished task one move, a subtask's parent rebinds"
  )
  func edits() throws {
    var state = PlannerViewState(today: Self.today, now: Self.noon)
    var tasks = (0..<5).map { task("t\($0)", in: home, order: $0) }
    let sub = task("sub", in: home, parent: tasks[3])
    _ = state.show(lists: [home], tasks: tasks + [sub], waiting: [])
    _ = state.select(.list(home.id))
    #expect(state.show(lists: [home], tasks: (tasks + [sub]).reversed(), waiting: []).isEmpty)
    let before = state.rows
    tasks[1].status = .completed
    let finished = state.show(lists: [home], tasks: tasks + [sub], waiting: [])
    #expect(finished.rows.count == 2 && applying(finished.rows, to: before) == state.rows)
    #expect(state.rows.last == .task(tasks[1].id))
    #expect(finished.changedEntries == [.list(home.id)], "its count went down")
    var renamed = sub
    renamed.title = "renamed"
    let subChanged = state.show(lists: [home], tasks: tasks + [renamed], waiting: [])
    #expect(subChanged.rows.isEmpty && subChanged.changedRows == [.task(tasks[3].id)])
    let marked = state.show(lists: [home], tasks: tasks + [renamed], waiting: [tasks[0].id])
    #expect(marked.changedRows == [.task(tasks[0].id)])
  }

  @Test("a first show selects the entry asked for, making only its rows; a list not there is not selected")
  func showSelecting() {
    var state = PlannerViewState(today: Self.today, now: Self.noon)
    let mine = task("mine", in: home, due: 0)
    let theirs = task("theirs", in: work, due: 0)
    let gone = PlannerListItem.make("Gone")
    let missing = state.show(lists: [home, work], tasks: [mine, theirs], waiting: [], selecting: .list(gone.id))
    #expect(state.selection == .today && applying(missing.rows, to: []) == [.task(mine.id), .task(theirs.id)])
    var fresh = PlannerViewState(today: Self.today, now: Self.noon)
    let changes = fresh.show(lists: [home, work], tasks: [mine, theirs], waiting: [], selecting: .list(work.id))
    #expect(fresh.selection == .list(work.id))
    #expect(changes.rows == [KeyedEdit(at: 0, remove: 0, insert: [.task(theirs.id)])], "Today's rows never made")
    #expect(fresh.show(lists: [work, home], tasks: [theirs, mine], waiting: []).isEmpty, "the same again")
  }

  @Test("tasks alike in all but their ids keep the order of the ids' text, however many")
  func idOrder() {
    let ids = (0..<2_000).map { _ in UUID() }
    #expect(ids.sorted { $0.order < $1.order } == ids.sorted { $0.uuidString < $1.uuidString })
    var state = PlannerViewState(today: Self.today, now: Self.noon)
    let alike = ids.prefix(300).map { id in
      var item = task("same", in: home, due: 0)
      item.id = id
      return item
    }
    _ = state.show(lists: [home], tasks: alike.shuffled(), waiting: [], selecting: .list(home.id))
    #expect(state.rows == alike.map(\.id).sorted { $0.uuidString < $1.uuidString }.map { .task($0) })
    _ = state.select(.today)
    #expect(state.rows == alike.map(\.id).sorted { $0.uuidString < $1.uuidString }.map { .task($0) })
  }

  @Test("a list that goes while shown moves the selection to Today")
  func listGone() {
    var state = PlannerViewState(today: Self.today, now: Self.noon)
    _ = state.show(lists: [home, work], tasks: [task("w", in: work)], waiting: [])
    _ = state.select(.list(work.id))
    let changes = state.show(lists: [home], tasks: [], waiting: [])
    #expect(changes.selectionMoved && state.selection == .today)
    #expect(changes.entries == [KeyedEdit(at: 3, remove: 1, insert: [])])
    #expect(state.select(.list(work.id)).isEmpty && state.selection == .today, "a list that is not there is not shown")
  }

  @Test("shared lists say who shares them, once their members are known")
  func sharing() {
    var state = PlannerViewState(today: Self.today, now: Self.noon)
    var ours = PlannerListItem.make("Groceries")
    ours.shared = true
    var theirs = PlannerListItem.make("Trip")
    theirs.role = .member
    theirs.shared = true
    _ = state.show(lists: [home, ours, theirs], tasks: [], waiting: [])
    #expect(state.entry(.list(ours.id))?.sharing == "Shared" && state.entry(.list(theirs.id))?.owned == false)
    let changes = state.setMembers(
      [
        PlannerMemberItem(id: UUID(), displayName: "Ann", role: .owner, isYou: true),
        PlannerMemberItem(id: UUID(), displayName: "Bob", role: .member, isYou: false),
      ], of: ours.id)
    #expect(changes.changedEntries == [.list(ours.id)])
    #expect(state.entry(.list(ours.id))?.sharing == "Shared with Bob")
    _ = state.setMembers(
      [
        PlannerMemberItem(id: UUID(), displayName: "Carol", role: .owner, isYou: false),
        PlannerMemberItem(id: UUID(), displayName: nil, role: .member, isYou: true),
      ], of: theirs.id)
    #expect(state.entry(.list(theirs.id))?.spokenName == "Trip, 0 open tasks, Shared by Carol")
    #expect(state.entry(.list(home.id))?.sharing == nil)
  }

  @Test("in a shared list a row names whoever else changed it last, once the members are known; never the user")
  func changedBy() throws {
    var state = PlannerViewState(today: Self.today, now: Self.noon)
    var ours = PlannerListItem.make("Groceries")
    ours.shared = true
    let (ann, bob, carol) = (UUID(), UUID(), UUID())
    var milk = task("milk", in: ours, due: 0)
    milk.changedBy = bob
    var bread = task("bread", in: ours, order: 1)
    bread.changedBy = ann
    var eggs = task("eggs", in: ours, order: 2)
    eggs.changedBy = carol
    _ = state.show(lists: [home, ours], tasks: [milk, bread, eggs], waiting: [], selecting: .list(ours.id))
    #expect(state.content(milk.id)?.changedBy == nil && state.needsMembers(of: ours.id), "members not known yet")
    let changes = state.setMembers(
      [
        PlannerMemberItem(id: ann, displayName: "Ann", role: .owner, isYou: true),
        PlannerMemberItem(id: bob, displayName: "Bob", role: .member, isYou: false),
      ], of: ours.id)
    #expect(changes.changedRows == [.task(milk.id), .task(bread.id), .task(eggs.id)], "their rows are bound again")
    let row = try #require(state.content(milk.id))
    #expect(row.changedBy == "Bob" && row.spokenName == "milk, not done, due Today, changed by Bob")
    #expect(state.content(bread.id)?.changedBy == nil, "the user's own change says nothing")
    #expect(state.content(eggs.id)?.changedBy == nil, "Carol is no member")
    #expect(!state.needsMembers(of: ours.id), "Carol was named when the members were read: not asked about again")
    _ = state.select(.today)
    #expect(state.content(milk.id)?.spokenName == "milk, not done, due Today, in Groceries, changed by Bob")
    #expect(state.needsMembers(of: home.id), "a list whose members were never asked for")
  }

  @Test("members are read again for someone new to a list's tasks, once: a name no member has is not asked again")
  func membersAskedOnce() {
    var state = PlannerViewState(today: Self.today, now: Self.noon)
    var ours = PlannerListItem.make("Groceries")
    ours.shared = true
    let (ann, dave) = (UUID(), UUID())
    var milk = task("milk", in: ours)
    milk.changedBy = ann
    _ = state.show(lists: [home, ours], tasks: [milk], waiting: [])
    let annOnly = [PlannerMemberItem(id: ann, displayName: "Ann", role: .owner, isYou: true)]
    _ = state.setMembers(annOnly, of: ours.id)
    #expect(!state.needsMembers(of: ours.id))
    var bread = task("bread", in: ours, order: 1)
    bread.changedBy = dave
    _ = state.show(lists: [home, ours], tasks: [milk, bread], waiting: [])
    #expect(state.needsMembers(of: ours.id), "Dave is new: he may have joined since")
    _ = state.setMembers(annOnly, of: ours.id)  // a hostile or stale service: Dave is no member
    for _ in 0..<3 {
      _ = state.show(lists: [home, ours], tasks: [milk, bread], waiting: [])
      #expect(!state.needsMembers(of: ours.id), "not asked again at every refresh")
    }
    var eggs = task("eggs", in: ours, order: 2)
    eggs.changedBy = UUID()
    _ = state.show(lists: [home, ours], tasks: [milk, bread, eggs], waiting: [])
    #expect(state.needsMembers(of: ours.id), "someone else new")
  }

  @Test("Alt+Up/Down and Ctrl+1…9 name the entries in the sidebar's order, nothing past the ends")
  func keyboardMoves() {
    var state = PlannerViewState(today: Self.today, now: Self.noon)
    _ = state.show(lists: [work, home], tasks: [], waiting: [])
    #expect(state.entry(movingBy: -1) == nil)
    #expect(state.entry(movingBy: 1) == .upcoming)
    #expect(state.entry(number: 3) == .list(home.id) && state.entry(number: 4) == .list(work.id))
    #expect(state.entry(number: 5) == nil && state.entry(number: 0) == nil)
    _ = state.select(.list(work.id))
    #expect(state.entry(movingBy: 1) == nil && state.entry(movingBy: -1) == .list(home.id))
  }

  @Test("midnight: tomorrow's task moves into Today and its row says Today")
  func newDay() {
    var state = PlannerViewState(today: Self.today, now: Self.noon)
    let soon = task("soon", in: home, due: 1)
    _ = state.show(lists: [home], tasks: [soon], waiting: [])
    #expect(state.rows.isEmpty && state.entries[1].count == 1)
    let changes = state.setNow(today: Self.today.adding(days: 1), now: TimeOfDay(hour: 0)!)
    #expect(state.rows == [.task(soon.id)] && changes.rows == [KeyedEdit(at: 0, remove: 0, insert: [.task(soon.id)])])
    #expect(state.content(soon.id)?.due?.text == "Today")
    #expect(state.entries.map(\.count).prefix(2) == [1, 0])
  }

  @Test("model strings name entries and rows, and nothing else")
  func modelStrings() {
    let id = UUID()
    for selection in [PlannerSelection.today, .upcoming, .list(id)] {
      #expect(PlannerSelection(modelString: selection.modelString) == selection)
    }
    for key in [PlannerRowKey.day(Self.today), .task(id)] {
      #expect(PlannerRowKey(modelString: key.modelString) == key)
    }
    for garbage in ["", "d:", "d:2026-13-01", "p:1", "todays", "12"] {
      #expect(PlannerRowKey(modelString: garbage) == nil && PlannerSelection(modelString: garbage) == nil)
    }
  }

  @Test(
    "over random edits, a show names exactly the rows whose task, waiting mark or subtasks changed, and leaves the state a fresh show makes, indexed here or before"
  )
  func randomShows() {
    let lists = [home, work, PlannerListItem.make("Errands")]
    var random = SeededGenerator(seed: 66)
    // Ids from the seed, so that a step that fails can be run again.
    func seededID() -> UUID {
      let (a, b) = (random.next(), random.next())
      return withUnsafeBytes(of: (a, b)) { UUID(uuid: $0.load(as: uuid_t.self)) }
    }
    func made(_ title: String, in list: PlannerListItem, due: Int?, order: Int = 0) -> PlannerItem {
      var item = task(title, in: list, due: due, order: order)
      item.id = seededID()
      return item
    }
    var tasks: [UUID: PlannerItem] = [:]
    for n in 0..<40 {
      let item = made("t\(n)", in: lists[n % 3], due: n % 4 == 0 ? n % 9 - 2 : nil, order: n)
      tasks[item.id] = item
    }
    let people = [seededID(), seededID()]
    var waiting: Set<UUID> = []
    var state = PlannerViewState(today: Self.today, now: Self.noon)
    _ = state.show(lists: lists, tasks: Array(tasks.values), waiting: waiting)
    let selections: [PlannerSelection] = [.today, .upcoming] + lists.map { .list($0.id) }
    for step in 0..<400 {
      _ = state.select(selections.randomElement(using: &random)!)
      let (oldTasks, oldWaiting, oldRows) = (tasks, waiting, state.rows)
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        let ids = tasks.keys.sorted { $0.uuidString < $1.uuidString }
        let id = ids.randomElement(using: &random)!
        switch Int.random(in: 0..<10, using: &random) {
        case 0: tasks[id]?.title += "!"
        case 1:
          let done = tasks[id]?.status == .completed
          tasks[id]?.status = done ? .needsAction : .completed
        case 2: tasks[id]?.parentID = Bool.random(using: &random) ? nil : ids.randomElement(using: &random)
        case 3: tasks[id]?.sortKey = String(Int.random(in: 10...99, using: &random))
        case 4: tasks[id] = nil
        case 5:
          let item = made(
            "new \(step)", in: lists.randomElement(using: &random)!, due: Int.random(in: -1...8, using: &random))
          tasks[item.id] = item
        case 6: if waiting.remove(id) == nil { waiting.insert(id) }
        case 7: tasks[id]?.listID = lists.randomElement(using: &random)!.id
        case 8: tasks[id]?.changedBy = people.randomElement(using: &random)
        default: tasks[id]?.due = TaskDue(date: Self.today.adding(days: Int.random(in: -1...8, using: &random)))
        }
      }
      // A row changed when its task did, its waiting mark did, or a subtask of it did, came or went (the rule as
      // it was written over all the tasks).
      var changed: Set<UUID> = []
      for (id, item) in tasks where oldTasks[id] != item || oldWaiting.contains(id) != waiting.contains(id) {
        changed.insert(id)
        if let parent = item.parentID { changed.insert(parent) }
        if let parent = oldTasks[id]?.parentID { changed.insert(parent) }
      }
      for (id, old) in oldTasks where tasks[id] == nil {
        if let parent = old.parentID { changed.insert(parent) }
      }
      // Indexed where the shown tasks are made (every other step), or by the state, given a task's stale version
      // before its own (an id twice, as a service may send it: the last stands).
      let shown = PlannerShown(lists: lists, tasks: tasks, edits: [], indexing: step.isMultiple(of: 2))
      #expect((shown.indexed != nil) == step.isMultiple(of: 2), "indexed only when asked")
      let stale = Array(oldTasks.values.filter { old in tasks[old.id].map { $0 != old } ?? false }.prefix(1))
      let changes =
        if let indexed = shown.indexed {
          state.show(lists: lists, indexed: indexed, waiting: waiting)
        } else {
          state.show(lists: lists, tasks: stale + shown.tasks, waiting: waiting)
        }
      #expect(applying(changes.rows, to: oldRows) == state.rows, "step \(step)")
      let kept = Set(oldRows).intersection(state.rows)
      #expect(changes.changedRows == Set(changed.map { .task($0) }).intersection(kept), "step \(step)")
      var fresh = PlannerViewState(today: Self.today, now: Self.noon)
      _ = fresh.show(lists: lists, tasks: Array(tasks.values).shuffled(using: &random), waiting: waiting)
      _ = fresh.select(state.selection)
      #expect(fresh.rows == state.rows && fresh.entries == state.entries, "step \(step)")
      for id in tasks.keys { #expect(fresh.content(id) == state.content(id), "step \(step)") }
      for list in lists { #expect(fresh.needsMembers(of: list.id) == state.needsMembers(of: list.id)) }
    }
  }

  @Test("the shown tasks are indexed only when asked, and the index goes with a change of the tasks")
  func shownIndexFollowsTheTasks() {
    let kept = task("kept", in: home)
    let hidden = task("hidden", in: home)
    var shown = PlannerShown(lists: [home], tasks: [kept.id: kept, hidden.id: hidden], edits: [], indexing: true)
    #expect(shown.indexed?.tasks.count == 2)
    #expect(PlannerShown(lists: [home], tasks: [kept.id: kept], edits: []).indexed == nil, "indexed only if asked")
    shown.tasks.removeAll { $0.id == hidden.id }
    #expect(shown.indexed == nil, "the index goes with a change of the tasks")
  }

  @Test("with 10 000 tasks in 20 lists, each view holds exactly its tasks (the benchmark times the switch)")
  func scale() {
    let lists = (0..<20).map { PlannerListItem.make("List \($0)", isDefault: $0 == 0) }
    let tasks = (0..<10_000).map { n in
      task("Task \(n)", in: lists[n % 20], due: n % 3 == 0 ? (n % 30) - 10 : nil, order: n)
    }
    var state = PlannerViewState(today: Self.today, now: Self.noon)
    _ = state.show(lists: lists, tasks: tasks, waiting: [])
    _ = state.select(.list(lists[7].id))
    #expect(state.rows == tasks.filter { $0.listID == lists[7].id }.map { .task($0.id) })
    _ = state.select(.today)
    let dueBy = tasks.filter { ($0.due?.date).map { $0 <= Self.today } ?? false }
    #expect(Set(state.rows) == Set(dueBy.map { .task($0.id) }) && state.rows.count == dueBy.count)
    #expect(state.entries[0].count == dueBy.count)
    _ = state.select(.upcoming)
    let soon = tasks.filter { ($0.due?.date).map { $0 > Self.today && $0 <= Self.today.adding(days: 7) } ?? false }
    #expect(state.rows.count { if case .task = $0 { true } else { false } } == soon.count)
  }
}

extension PlannerListItem {
  static func make(_ name: String, isDefault: Bool = false) -> PlannerListItem {
    var list = PlannerListItem(id: UUID(), name: name)
    list.isDefault = isDefault
    return list
  }
}

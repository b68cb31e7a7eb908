// PlannerReplica: the signed-in user's lists and tasks as the change feed last told them, kept on disk with the
// feed's token so that the next read asks only for what changed. Actor.

import FoundationEssentials
import TasksCalendar

extension PlannerItem {
  /// The task as the service writes it, as JSON (the CLI's `--json`).
  public var json: Data {
    var out: [UInt8] = []
    appendJSON(to: &out)
    return Data(out)
  }

  /// The task as the service writes it (what the outbox keeps).
  var jsonValue: JSONValue { JSONValue.object(json).map(JSONValue.object) ?? .object([:]) }

  /// The task as the service writes it, into `out`: its id, its fields, then the service's own (what the offline
  /// copies keep, read back by `PlannerFeedReader`).
  func appendJSON(to out: inout [UInt8]) {
    out.append(contentsOf: #"{"id":"#.utf8)
    JSONWriter.appendID(id, to: &out)
    out.append(UInt8(ascii: ","))
    appendFields(PlannerItem.Field.allCases, to: &out)
    out.append(contentsOf: #","createdAt":"#.utf8)
    JSONWriter.appendTime(createdAt, to: &out)
    out.append(contentsOf: #","updatedAt":"#.utf8)
    JSONWriter.appendTime(updatedAt, to: &out)
    out.append(contentsOf: #","version":"#.utf8)
    out.append(contentsOf: String(version).utf8)
    if occurrencesDone > 0 {
      out.append(contentsOf: #","occurrencesDone":"#.utf8)
      out.append(contentsOf: String(occurrencesDone).utf8)
    }
    if let lastOccurrenceDone {
      out.append(contentsOf: #","lastOccurrenceDone":"#.utf8)
      JSONWriter.appendString(lastOccurrenceDone.description, to: &out)
    }
    if let changedBy {
      out.append(contentsOf: #","changedBy":"#.utf8)
      JSONWriter.appendID(changedBy, to: &out)
    }
    out.append(UInt8(ascii: "}"))
  }
}

extension PlannerChanges {
  /// The change feed's JSON holding `lists` and `tasks`, read up to `next`, nothing deleted: the offline copies
  /// (the replica's, the reminder agenda's), written straight into bytes in the service's order of members, read
  /// back by `PlannerFeedReader`. (Through `JSONValue` and `JSONEncoder`, the first save of 10 000 tasks took
  /// about 0.5 s of CPU: Tests/Benchmarks/RESULTS.md.)
  static func document(next: String, lists: [PlannerListItem], tasks: [PlannerItem]) -> Data {
    var out: [UInt8] = []
    out.reserveCapacity(tasks.reduce(256 + lists.count * 200) { $0 + $1.title.utf8.count + $1.notes.utf8.count + 480 })
    out.append(contentsOf: #"{"deleted":{"lists":[],"tasks":[]},"lists":["#.utf8)
    for (index, list) in lists.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      list.appendJSON(to: &out)
    }
    out.append(contentsOf: #"],"next":"#.utf8)
    JSONWriter.appendString(next, to: &out)
    out.append(contentsOf: #","tasks":["#.utf8)
    for (index, task) in tasks.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      task.appendJSON(to: &out)
    }
    out.append(contentsOf: "]}".utf8)
    return Data(out)
  }
}

/// The user's lists and tasks, followed through `GET /api/v2/changes`: the first read takes everything, each next
/// one what changed since the token kept with the copy; a token the service no longer answers from (410) starts
/// over. Written to disk (atomically) after every read that changed something: offline, the app and the CLI show
/// this copy. Holds lists, tasks and the feed's position: no token of the sign-in.
public actor PlannerReplica {
  public private(set) var lists: [PlannerListItem] = []
  public private(set) var tasks: [UUID: PlannerItem] = [:]
  /// Where the feed was last read up to; nil before the first read.
  public private(set) var token: String?
  private let file: URL?

  /// The copy kept in `file` (nil: in memory only); empty when there is none or it does not read.
  public init(file: URL?, pageSize: Int? = nil) {
    self.file = file
    self.pageSize = pageSize
    guard let file, let data = try? Data(contentsOf: file), let kept = try? PlannerChanges(json: data) else { return }
    lists = kept.lists
    tasks = Dictionary(kept.tasks.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
    token = kept.next
  }

  /// Whether nothing was ever read into it (a first start on this computer; not a read that starts over, which empties
  /// only the token while it reads again).
  public var isEmpty: Bool { token == nil && lists.isEmpty && tasks.isEmpty }

  /// A list's tasks, then their subtasks, each in sort key (those without one last) then creation order.
  public func tasks(in list: UUID) -> [PlannerItem] {
    ManualOrder.sorted(tasks.values.filter { $0.listID == list })
  }

  /// What one read brought.
  public struct FollowResult: Equatable, Sendable {
    /// Lists and tasks changed or gone.
    public var changed: Int
    /// Whether the service no longer answered from the kept token and everything was read again.
    public var startedOver: Bool
  }

  /// Whether what was applied is not on disk yet (`follow` with `deferringSave`).
  private var unsaved = false
  /// Whether the copy was discarded (a sign-out): nothing is written any more.
  private var discarded = false

  /// How long a long poll asks the service to wait for a change (its most, `PlannerRoutes.maxWaitSeconds`).
  public static let waitSeconds = 280

  /// Reads what changed since the kept token and applies it; writes the copy to disk, or with `deferringSave` leaves
  /// that to `saveIfUnsaved` (the window shows what came first: writing a full sync of 2 000 tasks takes longer than
  /// showing it). With `wait` (seconds) it is a long poll: the service answers once something changed, or with
  /// nothing when the wait ends.
  ///
  /// Reads may overlap (the window's long poll and an edit's refresh): a read's answer is applied only when no other
  /// read moved the copy on meanwhile; otherwise it is read again from where the copy is now (an answer from an
  /// older token, applied after a newer one, would show older versions of what changed between them).
  ///
  /// `showing` sees the pages of the first read as they come (nothing was kept before it: a first start on this
  /// computer), the lists and tasks so far after the first page and then at most every `previewInterval`, so that a
  /// window can show them before the last page has come; the copy itself still changes only once the whole read has.
  @discardableResult
  public func follow(
    _ client: TaskAPIClient, wait: Int? = nil, deferringSave: Bool = false,
    showing: (@Sendable (_ lists: [PlannerListItem], _ tasks: [UUID: PlannerItem]) -> Void)? = nil
  ) async throws(TaskAPIError) -> FollowResult {
    var startedOver = false
    var changes: PlannerChanges
    var from = token
    // Only over nothing: a read that starts over (410) replaces a copy that is shown, and its first pages would hide
    // what the rest brings back.
    var progress: (@Sendable (PlannerChanges) -> Void)?
    if let showing {
      progress = { partial in
        var lists: [PlannerListItem] = []
        var tasks: [UUID: PlannerItem] = [:]
        Self.apply(partial, lists: &lists, tasks: &tasks)
        showing(lists, tasks)
      }
    }
    while true {
      do {
        changes = try await Self.read(
          client, since: from, limit: pageSize, wait: wait, progress: isEmpty ? progress : nil)
      } catch .rejected(410, _) {
        token = nil
        startedOver = true
        changes = try await Self.read(client, since: nil, limit: pageSize)
        from = nil
      }
      // A read given up (the window lost the focus, the service's read took over) applies nothing.
      if Task.isCancelled { throw .network(.failed("cancelled")) }
      if token == from { break }
      from = token
    }
    let whole = token == nil
    if whole {
      lists = []
      tasks = [:]
    }
    apply(changes)
    let changed =
      changes.lists.count + changes.tasks.count + changes.deletedLists.count + changes.deletedTasks.count
    if changed > 0 || whole {
      unsaved = true
      if !deferringSave { saveIfUnsaved() }
    }
    return FollowResult(changed: changed, startedOver: startedOver)
  }

  /// The most tasks asked for in one page (nil: the service's page size).
  private let pageSize: Int?

  /// Every page of one read, as one: the copy changes only once the whole read has come (a failure on the way
  /// leaves it as it was, and the next read asks again from the kept token). A hostile or broken service's pages
  /// are a bad response, after as few requests as they show it: a page with more to come but no task (the service
  /// only says so when it has more tasks than a page holds), more tasks than asked for (the service's most when
  /// `limit` is nil), a next page that does not move on, or more than `maxTasks` tasks in all.
  /// `keep` leaves out the tasks a reader has no use for as each page comes (the reminder service keeps those with
  /// reminders), and `shape` keeps of each only what the reader uses (the reminder service: no notes).
  /// `progress` sees the pages so far while more are to come: after the first, then at most every
  /// `previewInterval`.
  public static func read(
    _ client: TaskAPIClient, since token: String?, limit: Int?, wait: Int? = nil, maxTasks: Int = 1_000_000,
    keeping keep: @Sendable (PlannerItem) -> Bool = { _ in true },
    shaping shape: @Sendable (PlannerItem) -> PlannerItem = { $0 },
    progress: (@Sendable (PlannerChanges) -> Void)? = nil
  ) async throws(TaskAPIError) -> PlannerChanges {
    let most = limit ?? 5_000
    func check(_ page: PlannerChanges) throws(TaskAPIError) {
      guard page.tasks.count <= most else { throw .badResponse("a page of the change feed had more tasks than asked") }
      guard !page.more || !page.tasks.isEmpty else {
        throw .badResponse("a page of the change feed had more to come but no task")
      }
    }
    var page = try await client.changesPage(since: token, limit: limit, wait: wait)
    var changes: PlannerChanges?
    var read = 0
    var lastProgress: ContinuousClock.Instant?
    while true {
      // The next page is asked for while this one is decoded (and given up if this one turns out bad).
      let head = page.head
      async let ahead = Self.fetch(client, after: head?.more == true ? head?.next : nil, limit: limit)
      // This thread first hands the next page's request to the transport (the child runs to its send if no other
      // thread takes it): decoding holds the thread for some 2 ms, and with the machine's other CPU busy the request
      // waited for it (seen as a 2 ms gap before half the requests; RESULTS.md).
      await Task.yield()
      var decoded = try page.decoded()
      try check(decoded)
      // Its head is read by the same decoder: a page it does not read does not decode either.
      if let head, head != (decoded.more, decoded.next) {
        throw .badResponse("the change feed's page read two ways")
      }
      read += decoded.tasks.count
      decoded.tasks = decoded.tasks.filter(keep).map(shape)
      // Added in place (through the optional: a copy of the pages so far would be copied again at every page).
      if let previous = changes?.next {
        guard decoded.next != previous else { throw .badResponse("the change feed's next page did not move on") }
        changes?.lists += decoded.lists
        changes?.tasks += decoded.tasks
        changes?.deletedLists += decoded.deletedLists
        changes?.deletedTasks += decoded.deletedTasks
        changes?.next = decoded.next
        changes?.more = decoded.more
      } else {
        changes = decoded
      }
      guard decoded.more else { break }
      guard read < maxTasks else { throw .badResponse("the change feed's pages did not end") }
      if let progress, let changes, lastProgress.map({ .now - $0 >= previewInterval }) ?? true {
        progress(changes)
        lastProgress = .now
      }
      // The head read as the page did, and it has more: the next page was asked for.
      guard let next = await ahead else { throw .badResponse("the change feed's page read two ways") }
      page = try next.get()
    }
    guard let changes else { throw .badResponse("the change feed answered no page") }
    return changes
  }

  /// The page after `token` (nil: none to ask for).
  private static func fetch(_ client: TaskAPIClient, after token: String?, limit: Int?) async -> Result<
    PlannerFeedPage, TaskAPIError
  >? {
    guard let token else { return nil }
    do throws(TaskAPIError) { return .success(try await client.changesPage(since: token, limit: limit)) } catch {
      return .failure(error)
    }
  }

  /// How often a first read's pages so far are shown after the first (`follow`'s `showing`): a page of a fast
  /// service comes every few milliseconds, and each showing builds the window's state of every task again.
  public static let previewInterval = Duration.milliseconds(500)

  func apply(_ changes: PlannerChanges) {
    Self.apply(changes, lists: &lists, tasks: &tasks)
    token = changes.next
  }

  /// Deletions first, then what is there now (a task moved to another list comes as gone there and here now).
  static func apply(_ changes: PlannerChanges, lists: inout [PlannerListItem], tasks: inout [UUID: PlannerItem]) {
    let goneLists = Set(changes.deletedLists)
    if !goneLists.isEmpty {
      lists.removeAll { goneLists.contains($0.id) }
      tasks = tasks.filter { !goneLists.contains($0.value.listID) }
    }
    for id in changes.deletedTasks { tasks[id] = nil }
    for list in changes.lists {
      if let index = lists.firstIndex(where: { $0.id == list.id }) { lists[index] = list } else { lists.append(list) }
    }
    for task in changes.tasks { tasks[task.id] = task }
    lists.sort { ($0.isDefault ? 0 : 1, $0.sortKey, $0.name) < ($1.isDefault ? 0 : 1, $1.sortKey, $1.name) }
  }

  /// Removes the copy from disk for good (a sign-out): a read still under way, or a write it left for later, writes
  /// nothing after it.
  public func discard() {
    discarded = true
    if let file { try? FileManager.default.removeItem(at: file) }
  }

  /// Writes the copy atomically if a read changed it since it was last written; a failure leaves the last one (the
  /// next read writes again).
  public func saveIfUnsaved() {
    guard unsaved, !discarded, let file, let token else { return }
    unsaved = false
    let data = PlannerChanges.document(
      next: token, lists: lists, tasks: tasks.values.sorted { $0.id.order < $1.id.order })
    try? AtomicFile.write(data, to: file)
  }
}

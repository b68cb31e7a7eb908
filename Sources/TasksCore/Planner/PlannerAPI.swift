// PlannerAPI: the task API v2 as the core calls it (lists, tasks, finishing, the change feed, sharing), and the
// values it answers. Sendable.

import FoundationEssentials
import TasksCalendar

/// A list as the service shows it to the signed-in user.
public struct PlannerListItem: Equatable, Sendable, Identifiable, Decodable {
  public enum Role: String, Sendable { case owner, member }
  public var id: UUID
  public var name: String
  public var sortKey: String = ""
  /// The account's own first list, where the sample's `/api/tasks` lives.
  public var isDefault = false
  public var role: Role = .owner
  /// Whether someone else has it too.
  public var shared = false
  public var version: Int64 = 0

  public init(id: UUID, name: String) {
    self.id = id
    self.name = name
  }

  public init(from decoder: any Decoder) throws {
    let read = try PlannerJSONReader(decoder)
    id = try read.uuid("id")
    name = try read.string("name")
    sortKey = try read.optional("sortKey", String.self) ?? ""
    isDefault = try read.bool("isDefault") ?? false
    shared = try read.bool("shared") ?? false
    guard let role = Role(rawValue: try read.string("role")) else {
      throw read.error("role", expected: "owner or member")
    }
    self.role = role
    guard let version = try read.whole("version") else { throw read.error("version", expected: "a whole number") }
    self.version = version
  }

  /// The list as the service writes it, into `out` (what the offline copies keep).
  func appendJSON(to out: inout [UInt8]) {
    out.append(contentsOf: #"{"id":"#.utf8)
    JSONWriter.appendID(id, to: &out)
    out.append(contentsOf: #","name":"#.utf8)
    JSONWriter.appendString(name, to: &out)
    out.append(contentsOf: #","sortKey":"#.utf8)
    JSONWriter.appendString(sortKey, to: &out)
    out.append(contentsOf: isDefault ? #","isDefault":true,"role":"#.utf8 : #","isDefault":false,"role":"#.utf8)
    JSONWriter.appendString(role.rawValue, to: &out)
    out.append(contentsOf: shared ? #","shared":true,"version":"#.utf8 : #","shared":false,"version":"#.utf8)
    out.append(contentsOf: String(version).utf8)
    out.append(UInt8(ascii: "}"))
  }
}

/// A member of a shared list.
public struct PlannerMemberItem: Equatable, Sendable, Identifiable, Decodable {
  public var id: UUID
  /// The name their sign-in gave, if it gave one.
  public var displayName: String?
  public var role: PlannerListItem.Role
  /// Whether this member is the signed-in user.
  public var isYou: Bool

  public init(id: UUID, displayName: String?, role: PlannerListItem.Role, isYou: Bool) {
    self.id = id
    self.displayName = displayName
    self.role = role
    self.isYou = isYou
  }

  public init(from decoder: any Decoder) throws {
    let read = try PlannerJSONReader(decoder)
    guard let role = PlannerListItem.Role(rawValue: try read.string("role")) else {
      throw read.error("role", expected: "owner or member")
    }
    self.init(
      id: try read.uuid("id"), displayName: try read.optional("displayName", String.self), role: role,
      isYou: try read.bool("you") ?? false)
  }
}

/// What changed since a feed token: lists and tasks as they are now, the ids gone, and the token to ask from next.
public struct PlannerChanges: Equatable, Sendable {
  public var lists: [PlannerListItem] = []
  public var tasks: [PlannerItem] = []
  public var deletedLists: [UUID] = []
  public var deletedTasks: [UUID] = []
  public var next: String
  /// Whether this answer is a page of a read with more to come: ask again from `next` for the rest.
  public var more = false

  public init(
    lists: [PlannerListItem] = [], tasks: [PlannerItem] = [], deletedLists: [UUID] = [], deletedTasks: [UUID] = [],
    next: String, more: Bool = false
  ) {
    (self.lists, self.tasks, self.deletedLists, self.deletedTasks) = (lists, tasks, deletedLists, deletedTasks)
    (self.next, self.more) = (next, more)
  }

  /// Reads a feed answer; anything that is not one is a `PlannerJSONError` naming the part.
  public init(json data: Data) throws(PlannerJSONError) {
    if let changes = PlannerFeedReader.changes(data) {
      self = changes
    } else {
      self = try PlannerJSONReader.decode(PlannerChanges.self, from: data)
    }
  }
}

/// One answer of the change feed as it came from the service.
public struct PlannerFeedPage: Sendable {
  let body: Data

  /// A page as the service answered it (its body), to be read by `head` and `decoded()`.
  public init(body: Data) { self.body = body }

  /// Whether more pages follow and the token of the next, read without the page's lists and tasks; nil when the page
  /// does not read so (`decoded` then says why). Decoding the tasks takes longer than the service takes to answer a
  /// page (a profile of the CLI's first sync: two thirds of its time), so the next page is asked for meanwhile.
  public var head: (more: Bool, next: String)? {
    if let head = PlannerFeedReader.head(body) { return head }
    guard let head = try? JSONDecoder().decode(Head.self, from: body) else { return nil }
    return (head.more ?? false, head.next)
  }

  /// The page, read; anything that is not one is a bad response naming the part.
  public func decoded() throws(TaskAPIError) -> PlannerChanges {
    do throws(PlannerJSONError) { return try PlannerChanges(json: body) } catch {
      throw .badResponse(error.description)
    }
  }

  private struct Head: Decodable {
    let more: Bool?
    let next: String
  }
}

extension PlannerChanges: Decodable {
  public init(from decoder: any Decoder) throws {
    let read = try PlannerJSONReader(decoder)
    guard let next = try? read.optional("next", String.self), !next.isEmpty, next.utf8.count <= 96,
      next.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
    else { throw read.error("next", expected: "a token") }
    self.next = next
    do throws(PlannerJSONError) { more = try read.bool("more") ?? false } catch {
      throw read.error("more", expected: "true or false")
    }
    lists = try read.list("lists", of: PlannerListItem.self)
    tasks = try read.list("tasks", of: PlannerItem.self)
    guard let deleted = try read.optional("deleted", Deleted.self) else {
      throw read.error("deleted", expected: "an object with lists and tasks")
    }
    deletedLists = deleted.lists
    deletedTasks = deleted.tasks
  }

  private struct Deleted: Decodable {
    let lists: [UUID]
    let tasks: [UUID]

    init(from decoder: any Decoder) throws {
      let read = try PlannerJSONReader(decoder)
      lists = try read.list("lists", of: PlannerJSONID.self).map(\.id)
      tasks = try read.list("tasks", of: PlannerJSONID.self).map(\.id)
    }
  }
}

/// A write the service either made (`done`) or refused because the version named is not the current one any more
/// (`stale`, 412): then it carries the current one, to merge with.
public enum PlannerWriteResult<Value: Sendable>: Sendable {
  case done(Value)
  case stale(Value)
}

extension TaskAPIClient {
  private func planner(_ path: String) -> URL { plannerURL.appending(path: path) }

  private static func lower(_ id: UUID) -> String { id.uuidString.lowercased() }

  /// The answer as `Value` (an object, or a list of them); what is not is a bad response naming the part.
  private static func decode<Value: Decodable>(_ data: Data, as type: Value.Type = Value.self) throws(TaskAPIError)
    -> Value
  {
    do throws(PlannerJSONError) { return try PlannerJSONReader.decode(type, from: data) } catch {
      throw .badResponse(error.description)
    }
  }

  private static func ifMatch(_ version: Int64?) -> [String: String] {
    version.map { ["If-Match": "\"\($0)\""] } ?? [:]
  }

  private static func body(_ fields: [String: JSONValue]) -> Data {
    (try? JSONEncoder().encode(JSONValue.object(fields))) ?? Data("{}".utf8)
  }

  // MARK: Lists

  /// The user's lists (the default one included).
  public func plannerLists() async throws(TaskAPIError) -> [PlannerListItem] {
    try Self.decode(try await send("GET", planner("lists")).body)
  }

  /// Creates a list with the client's id; sent again after a lost answer, it answers the same list.
  public func createList(id: UUID, name: String, sortKey: String = "") async throws(TaskAPIError) -> PlannerListItem {
    let answer = try await send(
      "PUT", planner("lists/\(Self.lower(id))"),
      json: Self.body(["name": .string(name), "sortKey": .string(sortKey)]), headers: ["If-None-Match": "*"])
    return try Self.decode(answer.body)
  }

  /// Renames a list (or changes its place); with `ifMatch`, only if it is still that version.
  public func changeList(
    id: UUID, name: String? = nil, sortKey: String? = nil, ifMatch: Int64? = nil
  ) async throws(TaskAPIError) -> PlannerWriteResult<PlannerListItem> {
    var fields: [String: JSONValue] = [:]
    if let name { fields["name"] = .string(name) }
    if let sortKey { fields["sortKey"] = .string(sortKey) }
    let answer = try await send(
      "PATCH", planner("lists/\(Self.lower(id))"), json: Self.body(fields), headers: Self.ifMatch(ifMatch),
      passing: [412], resendable: true)
    let list = try Self.decode(answer.body, as: PlannerListItem.self)
    return answer.status == 412 ? .stale(list) : .done(list)
  }

  /// Deletes a list the user owns, with its tasks.
  public func deleteList(id: UUID) async throws(TaskAPIError) {
    _ = try await send("DELETE", planner("lists/\(Self.lower(id))"))
  }

  // MARK: Tasks

  /// A list's tasks.
  public func plannerTasks(list: UUID) async throws(TaskAPIError) -> [PlannerItem] {
    try Self.decode(try await send("GET", planner("lists/\(Self.lower(list))/tasks")).body)
  }

  private func taskURL(_ list: UUID, _ id: UUID) -> URL {
    planner("lists/\(Self.lower(list))/tasks/\(Self.lower(id))")
  }

  /// The fields a new task is sent with.
  static let creationFields: [PlannerItem.Field] = PlannerItem.Field.allCases.filter { $0 != .listID }

  /// Creates `item` in its list with its id; sent again after a lost answer, it answers the same task.
  public func createTask(_ item: PlannerItem) async throws(TaskAPIError) -> PlannerItem {
    let answer = try await send(
      "PUT", taskURL(item.listID, item.id), json: item.patch(Self.creationFields), headers: ["If-None-Match": "*"])
    return try Self.decode(answer.body)
  }

  /// Sends `item`'s `fields` to the task in `list` (its list now; `item.listID` with `.listID` in `fields` moves it
  /// there); with `ifMatch`, only if the task is still that version (else `.stale` with it).
  public func changeTask(
    _ item: PlannerItem, fields: [PlannerItem.Field], ifMatch: Int64?, in list: UUID? = nil
  ) async throws(TaskAPIError) -> PlannerWriteResult<PlannerItem> {
    let answer = try await send(
      "PATCH", taskURL(list ?? item.listID, item.id), json: item.patch(fields), headers: Self.ifMatch(ifMatch),
      // A move sent again finds the task gone from the list it names (404): not resendable.
      passing: [412], resendable: (list ?? item.listID) == item.listID)
    let task = try Self.decode(answer.body, as: PlannerItem.self)
    return answer.status == 412 ? .stale(task) : .done(task)
  }

  /// Deletes a task and its subtasks.
  public func deleteTask(list: UUID, id: UUID) async throws(TaskAPIError) {
    _ = try await send("DELETE", taskURL(list, id))
  }

  /// Finishes the occurrence due on `occurrence` (the user's day being `today`): a repeating task moves to its
  /// next one, once however often this is sent (until an edit puts it back on that date: then again); another is
  /// completed.
  public func complete(
    list: UUID, id: UUID, occurrence: CalendarDate, today: CalendarDate
  ) async throws(TaskAPIError) -> PlannerItem {
    let answer = try await send(
      "POST", taskURL(list, id).appending(path: "complete"),
      json: Self.body(["occurrence": .string(occurrence.description), "today": .string(today.description)]),
      resendable: true)
    return try Self.decode(answer.body)
  }

  // MARK: The change feed

  /// What changed since `token` (everything without one), or a page of it when `more` is set (at most `limit` tasks,
  /// the service's page size when nil). A token too old answers `.rejected(410, …)`: start over.
  public func changes(since token: String?, limit: Int? = nil, wait: Int? = nil) async throws(TaskAPIError)
    -> PlannerChanges
  {
    try await changesPage(since: token, limit: limit, wait: wait).decoded()
  }

  /// A page of the change feed as it came, not yet decoded: `head` tells where the next page starts before the
  /// page's tasks are decoded, so that a reader can ask for it meanwhile (`PlannerReplica.read`).
  public func changesPage(since token: String?, limit: Int? = nil, wait: Int? = nil) async throws(TaskAPIError)
    -> PlannerFeedPage
  {
    var url = planner("changes")
    if let token { url.append(queryItems: [URLQueryItem(name: "since", value: token)]) }
    if let limit { url.append(queryItems: [URLQueryItem(name: "limit", value: String(limit))]) }
    // A long poll: the service answers when something changes, or with nothing after `wait` seconds; the request
    // gives it half a minute more before it counts as silent.
    var timeout: TimeInterval?
    if let wait, wait > 0, token != nil {
      url.append(queryItems: [URLQueryItem(name: "wait", value: String(wait))])
      timeout = TimeInterval(wait + 30)
    }
    return PlannerFeedPage(body: try await send("GET", url, timeout: timeout).body)
  }

  // MARK: Sharing

  /// A code another person uses to join the list (the owner's alone), and until when it works.
  public func invite(list: UUID) async throws(TaskAPIError) -> (code: String, expiresAt: Date) {
    let answer = try await send("POST", planner("lists/\(Self.lower(list))/invitations"))
    let invitation = try Self.decode(answer.body, as: Invitation.self)
    return (invitation.code, invitation.expiresAt)
  }

  private struct Invitation: Decodable {
    let code: String
    let expiresAt: Date

    init(from decoder: any Decoder) throws {
      let read = try PlannerJSONReader(decoder)
      code = try read.string("code")
      expiresAt = try read.time("expiresAt")
    }
  }

  /// Joins the list a code was made for.
  public func join(code: String) async throws(TaskAPIError) -> PlannerListItem {
    let clean = code.filter { $0.isLetter || $0.isNumber }
    let answer = try await send("POST", planner("invitations"), json: Self.body(["code": .string(clean)]))
    return try Self.decode(answer.body)
  }

  /// The members of a list.
  public func members(list: UUID) async throws(TaskAPIError) -> [PlannerMemberItem] {
    try Self.decode(try await send("GET", planner("lists/\(Self.lower(list))/members")).body)
  }

  /// Removes a member (the owner removes others; anyone removes themself: `member` nil leaves the list). Done too
  /// when the membership is gone already (see `revokeAppPassword`; a list deleted meanwhile has no members left).
  public func removeMember(list: UUID, member: UUID?) async throws(TaskAPIError) {
    _ = try await send(
      "DELETE", planner("lists/\(Self.lower(list))/members/\(member.map(Self.lower) ?? "me")"), passing: [404])
  }
}

/// An app password: what a CalDAV client (a phone, Thunderbird, Evolution) signs in with, one per device. The password
/// itself is only in the answer that made it.
public struct AppPasswordItem: Equatable, Sendable, Identifiable, Decodable {
  public var id: UUID
  public var name: String
  /// The user name every device of the account signs in with.
  public var username: String
  public var password: String?
  public var createdAt: Date
  public var lastUsedAt: Date?

  public init(from decoder: any Decoder) throws {
    let read = try PlannerJSONReader(decoder)
    id = try read.uuid("id")
    name = try read.string("name")
    username = try read.string("username")
    password = try read.optional("password", String.self)
    createdAt = try read.time("createdAt")
    lastUsedAt = try read.optionalTime("lastUsedAt")
  }
}

extension TaskAPIClient {
  /// The address CalDAV clients are given: the task service's own (they find `/dav/` from it, RFC 6764).
  public var calDAVAddress: URL { plannerURL.deletingLastPathComponent().deletingLastPathComponent() }

  /// Makes an app password named `name` (the device's): the answer holds the password, shown this once.
  public func makeAppPassword(name: String) async throws(TaskAPIError) -> AppPasswordItem {
    try Self.decode(
      try await send("POST", planner("app-passwords"), json: Self.body(["name": .string(name)])).body)
  }

  /// The account's app passwords, without their secrets, with the time each was last used.
  public func appPasswords() async throws(TaskAPIError) -> [AppPasswordItem] {
    try Self.decode(try await send("GET", planner("app-passwords")).body)
  }

  /// Revokes an app password: the device using it is refused from its next request. Done too when it is gone
  /// already (404): libsoup sends a DELETE again by itself when the kept connection it went on closes unanswered,
  /// and the first may have been carried out; or another window of the account revoked it meanwhile. Either way
  /// what the user asked for holds.
  public func revokeAppPassword(id: UUID) async throws(TaskAPIError) {
    _ = try await send("DELETE", planner("app-passwords/\(Self.lower(id))"), passing: [404])
  }
}

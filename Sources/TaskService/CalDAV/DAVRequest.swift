// DAVRequest: one signed-in CalDAV request: PROPFIND, REPORT (multiget, query, sync-collection), GET, PUT, DELETE,
// MKCALENDAR and PROPPATCH on the caller's principal, calendar home, collections (lists) and resources (tasks).
// Sendable values.

import Foundation
import Hummingbird
import Logging
import TasksCalendar

struct DAVRequest {
  let routes: DAVRoutes
  let request: Request
  let caller: PlannerCaller
  let username: String
  let logger: Logger
  var store: any DAVStore { routes.store }

  var principal: String { "/dav/principals/\(username)/" }
  var home: String { "/dav/calendars/\(username)/" }
  /// A collection's path: under the name the request used for it, when it named it; else under the name its owner's
  /// client made it under (for the owner); else under its id. A client keeps the address it made a collection at.
  func path(of found: DAVCollection) -> String {
    let parts = request.uri.path.split(separator: "/").map(String.init)
    if parts.count >= 4, UUID(uuidString: parts[3]) == nil, let name = parts[3].removingPercentEncoding,
      DAVRoutes.listID(name, owner: caller.key) == found.list.id
    {
      return home + parts[3] + "/"
    }
    if found.list.role == .owner, let name = found.name, DAVRoutes.listID(name, owner: caller.key) == found.list.id {
      return home + Self.encoded(name) + "/"
    }
    return home + found.list.id.lowercased + "/"
  }

  func path(of found: DAVCollection, _ name: String) -> String { path(of: found) + Self.encoded(name) }

  static func encoded(_ name: String) -> String {
    name.addingPercentEncoding(withAllowedCharacters: nameCharacters) ?? name
  }

  static let nameCharacters = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~@+"))
    .subtracting(CharacterSet(charactersIn: "\u{80}"..."\u{10FFFF}"))

  func respond(to target: DAVRoutes.Target) async throws -> Response {
    let method = request.method.rawValue
    switch (method, target) {
    case (_, .nowhere): return DAVRoutes.text(.notFound, "Nothing is here.")
    case ("PROPFIND", _): return try await propfind(target)
    case ("REPORT", .collection(let id)): return try await report(id)
    case ("REPORT", _):
      throw DAVRefusal.precondition(.forbidden, DAVXML.dav, "supported-report", "Reports apply to a task list.")
    case ("GET", .resource(let list, let name)), ("HEAD", .resource(let list, let name)):
      return try await get(list, name, head: method == "HEAD")
    case ("GET", _), ("HEAD", _):
      return DAVRoutes.text(.ok, "B2C Tasks: CalDAV. Add this address to a CalDAV client with an app password.")
    case ("PUT", .resource(let list, let name)): return try await put(list, name)
    case ("DELETE", .resource(let list, let name)): return try await delete(list, name)
    case ("DELETE", .collection(let id)): return try await deleteCollection(id)
    case ("MKCALENDAR", .collection(let id)), ("MKCOL", .collection(let id)): return try await mkcalendar(id)
    case ("PROPPATCH", .collection(let id)): return try await proppatch(id)
    case ("PUT", _), ("DELETE", _), ("MKCALENDAR", _), ("MKCOL", _), ("PROPPATCH", _), ("POST", _), ("PATCH", _),
      ("MOVE", _), ("COPY", _), ("LOCK", _), ("UNLOCK", _), ("ACL", _):
      throw DAVRefusal.method(DAVRoutes.allowed)
    default: return DAVRoutes.text(.notImplemented, "This service does not implement \(method).")
    }
  }

  // MARK: Bodies

  func body() async throws -> Data {
    do { return Data(buffer: try await request.body.collect(upTo: DAVRoutes.maxBody)) } catch {
      throw DAVRefusal.status(.contentTooLarge, "The body is over \(DAVRoutes.maxBody) bytes.")
    }
  }

  /// The request's XML (nil when the body is empty).
  func xml() async throws -> DAVElement? {
    let data = try await body()
    if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return nil }
    do { return try DAVXML.parse(data) } catch { throw DAVRefusal.status(.badRequest, error.reason) }
  }

  /// The list `id` as the caller sees it, or 404.
  func collection(_ id: UUID, _ selection: DAVSelection) async throws -> DAVCollection {
    guard let found = try await store.davCollection(caller: caller.key, listID: id, selection) else {
      throw DAVRefusal.status(.notFound, "No such task list.")
    }
    return found
  }

  // MARK: PROPFIND

  /// Which properties a PROPFIND or REPORT asks for.
  enum Wanted {
    case all
    case names
    case some([DAVElement])
  }

  static func wanted(_ element: DAVElement?) -> Wanted {
    guard let element else { return .all }
    if let prop = element.child(DAVXML.dav, "prop") { return .some(prop.children) }
    if element.child(DAVXML.dav, "propname") != nil { return .names }
    return .all
  }

  func propfind(_ target: DAVRoutes.Target) async throws -> Response {
    let wanted = Self.wanted(try await xml())
    let depth = request.headers[DAVRoutes.depth]?.trimmingCharacters(in: .whitespaces) ?? "infinity"
    guard depth == "0" || depth == "1" || depth == "infinity" else {
      throw DAVRefusal.status(.badRequest, "Depth is 0, 1 or infinity.")
    }
    let deeper = depth != "0"
    var responses: [String] = []
    switch target {
    case .root:
      responses.append(Self.response(request.uri.path, props: rootProperties(), wanted: wanted))
    case .principal:
      responses.append(Self.response(principal, props: principalProperties(), wanted: wanted))
    case .home:
      responses.append(Self.response(home, props: homeProperties(), wanted: wanted))
      if deeper {
        for list in try await store.lists(caller: caller) {
          let found = try await collection(list.id, .none)
          responses.append(Self.response(path(of: found), props: collectionProperties(found), wanted: wanted))
        }
      }
    case .collection(let id):
      let found = try await collection(id, deeper ? .all : .none)
      responses.append(Self.response(path(of: found), props: collectionProperties(found), wanted: wanted))
      for task in found.tasks where task.stored.unreadable == nil {
        responses.append(
          Self.response(path(of: found, task.name), props: resourceProperties(task, wanted: wanted), wanted: wanted))
      }
    case .resource(let list, let name):
      let (found, task) = try await find(list, name)
      responses.append(
        Self.response(path(of: found, task.name), props: resourceProperties(task, wanted: wanted), wanted: wanted))
    case .nowhere: return DAVRoutes.text(.notFound, "Nothing is here.")
    }
    return DAVRoutes.xml(DAVRoutes.multiStatus, DAVXML.multistatus(responses))
  }

  /// Properties: the XML inside each, by `namespace + name`, with the namespace and name to write.
  typealias Properties = [(namespace: String, name: String, value: String)]

  func href(_ path: String) -> String { "<d:href>\(DAVXML.escaped(path))</d:href>" }

  func rootProperties() -> Properties {
    [
      (DAVXML.dav, "resourcetype", "<d:collection/>"),
      (DAVXML.dav, "current-user-principal", href(principal)),
      (DAVXML.caldav, "calendar-home-set", href(home)),
    ]
  }

  func principalProperties() -> Properties {
    [
      (DAVXML.dav, "resourcetype", "<d:principal/><d:collection/>"),
      (DAVXML.dav, "displayname", DAVXML.escaped(caller.displayName ?? username)),
      (DAVXML.dav, "current-user-principal", href(principal)),
      (DAVXML.dav, "principal-URL", href(principal)),
      (DAVXML.caldav, "calendar-home-set", href(home)),
      (DAVXML.caldav, "calendar-user-address-set", href(principal)),
    ]
  }

  func homeProperties() -> Properties {
    [
      (DAVXML.dav, "resourcetype", "<d:collection/>"),
      (DAVXML.dav, "current-user-principal", href(principal)),
      (DAVXML.dav, "owner", href(principal)),
      (DAVXML.dav, "current-user-privilege-set", Self.privileges(["read", "write", "bind", "unbind"])),
    ]
  }

  static func privileges(_ names: [String]) -> String {
    names.map { "<d:privilege><d:\($0)/></d:privilege>" }.joined()
  }

  static let reports = [
    (DAVXML.caldav, "calendar-multiget"), (DAVXML.caldav, "calendar-query"), (DAVXML.dav, "sync-collection"),
  ]

  func collectionProperties(_ found: DAVCollection) -> Properties {
    let owner = found.list.role == .owner
    var properties: Properties = [
      (DAVXML.dav, "resourcetype", "<d:collection/><c:calendar/>"),
      (DAVXML.dav, "displayname", DAVXML.escaped(found.list.name)),
      (DAVXML.calendarServer, "getctag", DAVXML.escaped("\"\(found.position)\"")),
      (DAVXML.dav, "sync-token", DAVXML.escaped(DAVSyncToken.token(found.position))),
      (DAVXML.caldav, "supported-calendar-component-set", "<c:comp name=\"VTODO\"/>"),
      (DAVXML.caldav, "supported-calendar-data", "<c:calendar-data content-type=\"text/calendar\" version=\"2.0\"/>"),
      (DAVXML.caldav, "max-resource-size", "\(DAVRoutes.maxBody)"),
      (
        DAVXML.dav, "supported-report-set",
        Self.reports.map { "<d:supported-report><d:report>\(DAVXML.empty($0.0, $0.1))</d:report></d:supported-report>" }
          .joined()
      ),
      (
        DAVXML.dav, "current-user-privilege-set",
        // A member writes the tasks but cannot delete the list (leaving it is a DELETE too, answered as a leave).
        Self.privileges(
          owner
            ? ["read", "write", "write-properties", "write-content", "bind", "unbind"]
            : ["read", "write-content", "bind", "unbind"])
      ),
    ]
    if owner { properties.append((DAVXML.dav, "owner", href(principal))) }
    if let color = found.color { properties.append((DAVXML.apple, "calendar-color", color)) }
    return properties
  }

  func resourceProperties(_ task: DAVTask, wanted: Wanted) -> Properties {
    var properties: Properties = [
      (DAVXML.dav, "resourcetype", ""),
      (DAVXML.dav, "getetag", DAVXML.escaped(task.etag)),
      (DAVXML.dav, "getcontenttype", "text/calendar; charset=utf-8; component=VTODO"),
      (DAVXML.dav, "getlastmodified", DAVDates.http(task.stored.updatedAt)),
    ]
    // The text only when asked for by name (it is not part of allprop, RFC 4791 §9.6).
    if case .some(let names) = wanted,
      names.contains(where: { $0.namespace == DAVXML.caldav && $0.name == "calendar-data" })
    {
      properties.append((DAVXML.caldav, "calendar-data", DAVXML.escaped(DAVTodo.render(task))))
    }
    return properties
  }

  /// One `<d:response>`: the properties asked for that exist (200), those that do not (404).
  static func response(_ path: String, props: Properties, wanted: Wanted) -> String {
    var found: [String] = []
    var missing: [String] = []
    switch wanted {
    case .all:
      found = props.map { element($0.namespace, $0.name, $0.value) }
    case .names:
      found = props.map { DAVXML.empty($0.namespace, $0.name) }
    case .some(let names):
      for name in names {
        if let prop = props.first(where: { $0.namespace == name.namespace && $0.name == name.name }) {
          found.append(element(prop.namespace, prop.name, prop.value))
        } else {
          missing.append(DAVXML.empty(name.namespace, name.name))
        }
      }
    }
    var text = "<d:response><d:href>\(DAVXML.escaped(path))</d:href>"
    if !found.isEmpty { text += propstat(found.joined(), "200 OK") }
    if !missing.isEmpty { text += propstat(missing.joined(), "404 Not Found") }
    if found.isEmpty && missing.isEmpty { text += propstat("", "200 OK") }
    return text + "</d:response>"
  }

  static func propstat(_ props: String, _ status: String) -> String {
    "<d:propstat><d:prop>\(props)</d:prop><d:status>HTTP/1.1 \(status)</d:status></d:propstat>"
  }

  static func element(_ namespace: String, _ name: String, _ value: String) -> String {
    value.isEmpty ? DAVXML.empty(namespace, name) : DAVXML.open(namespace, name) + value + DAVXML.close(namespace, name)
  }

  // MARK: REPORT

  func report(_ id: UUID) async throws -> Response {
    guard let body = try await xml() else { throw DAVRefusal.status(.badRequest, "A REPORT needs a body.") }
    let wanted = Self.wanted(body)
    switch (body.namespace, body.name) {
    case (DAVXML.caldav, "calendar-multiget"):
      let hrefs = body.children(DAVXML.dav, "href").map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }
      guard hrefs.count <= DAVRoutes.maxHrefs else {
        throw DAVRefusal.precondition(
          .forbidden, DAVXML.dav, "number-of-matches-within-limits",
          "Ask for at most \(DAVRoutes.maxHrefs) resources at once.")
      }
      let prefix = request.uri.path.hasSuffix("/") ? request.uri.path : request.uri.path + "/"
      let names = hrefs.map { href -> String? in
        let path = URL(string: href)?.path ?? href
        guard path.hasPrefix(prefix) || (path + "/").hasPrefix(prefix) else { return nil }
        return String(path.dropFirst(prefix.count)).removingPercentEncoding
      }
      let found = try await collection(id, .lookup(names: names.compactMap { $0 }, uids: []))
      let responses = zip(hrefs, names).map { href, name -> String in
        guard let name, let task = found.tasks.first(where: { $0.name == name }), task.stored.unreadable == nil else {
          return "<d:response><d:href>\(DAVXML.escaped(href))</d:href><d:status>HTTP/1.1 404 Not Found</d:status>"
            + "</d:response>"
        }
        return Self.response(
          path(of: found, task.name), props: resourceProperties(task, wanted: wanted), wanted: wanted)
      }
      return DAVRoutes.xml(DAVRoutes.multiStatus, DAVXML.multistatus(responses))
    case (DAVXML.caldav, "calendar-query"):
      let filter: DAVQueryFilter
      do { filter = try DAVQueryFilter(body.child(DAVXML.caldav, "filter")) } catch {
        throw DAVRefusal.precondition(
          .forbidden, DAVXML.caldav, "supported-filter",
          "A query holds at most \(DAVQueryFilter.maxPropertyFilters) property filters.")
      }
      let found = try await collection(id, .all)
      let responses = found.tasks.filter { $0.stored.unreadable == nil && filter.matches($0) }.map { task in
        Self.response(path(of: found, task.name), props: resourceProperties(task, wanted: wanted), wanted: wanted)
      }
      return DAVRoutes.xml(DAVRoutes.multiStatus, DAVXML.multistatus(responses))
    case (DAVXML.dav, "sync-collection"):
      return try await sync(id, body, wanted: wanted)
    default:
      throw DAVRefusal.precondition(
        .forbidden, DAVXML.dav, "supported-report", "Reports here: calendar-multiget, calendar-query, sync-collection.")
    }
  }

  /// RFC 6578: what changed after the token (all, without one), the names gone as 404s, and the new token.
  func sync(_ id: UUID, _ body: DAVElement, wanted: Wanted) async throws -> Response {
    let text = body.child(DAVXML.dav, "sync-token")?.text.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    if let level = body.child(DAVXML.dav, "sync-level")?.text.trimmingCharacters(in: .whitespaces), level != "1" {
      throw DAVRefusal.status(.forbidden, "Only sync-level 1: task lists hold no collections.")
    }
    let found: DAVCollection
    if text.isEmpty {
      found = try await collection(id, .all)
    } else {
      guard let position = DAVSyncToken.position(text) else {
        throw DAVRefusal.precondition(.forbidden, DAVXML.dav, "valid-sync-token")
      }
      found = try await collection(id, .since(position))
    }
    var responses = found.tasks.filter { $0.stored.unreadable == nil }.map { task in
      Self.response(path(of: found, task.name), props: resourceProperties(task, wanted: wanted), wanted: wanted)
    }
    let present = Set(found.tasks.map(\.name))
    for name in found.deleted where !present.contains(name) {
      responses.append(
        "<d:response><d:href>\(DAVXML.escaped(path(of: found, name)))</d:href>"
          + "<d:status>HTTP/1.1 404 Not Found</d:status></d:response>")
    }
    return DAVRoutes.xml(
      DAVRoutes.multiStatus,
      DAVXML.multistatus(
        responses, extra: "<d:sync-token>\(DAVXML.escaped(DAVSyncToken.token(found.position)))</d:sync-token>"))
  }

  // MARK: Resources

  /// The resource `name` of list `list`, or 404.
  func find(_ list: UUID, _ name: String) async throws -> (DAVCollection, DAVTask) {
    let found = try await collection(list, .lookup(names: [name], uids: []))
    guard let task = found.tasks.first(where: { $0.name == name }), task.stored.unreadable == nil else {
      throw DAVRefusal.status(.notFound, "No such task.")
    }
    return (found, task)
  }

  func get(_ list: UUID, _ name: String, head: Bool) async throws -> Response {
    let (_, task) = try await find(list, name)
    let text = DAVTodo.render(task)
    var headers: HTTPFields = [
      .contentType: "text/calendar; charset=utf-8", .eTag: task.etag,
      .lastModified: DAVDates.http(task.stored.updatedAt), .cacheControl: "no-store",
    ]
    if head { headers[.contentLength] = "\(text.utf8.count)" }
    return Response(
      status: .ok, headers: headers, body: head ? .init() : .init(byteBuffer: ByteBuffer(string: text)))
  }

  /// The version `If-Match` names, nil for none or `*`; a tag this service never gave matches nothing (412).
  func ifMatch(_ current: DAVTask?) throws -> Int64? {
    guard let value = request.headers[.ifMatch]?.trimmingCharacters(in: .whitespaces) else { return nil }
    if value == "*" {
      guard let current else { throw DAVRefusal.status(.preconditionFailed, "Nothing is here to match.") }
      return current.stored.version
    }
    let tags = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    guard let current, tags.contains(current.etag) else {
      throw DAVRefusal.status(.preconditionFailed, "The task was changed since (its ETag is another).")
    }
    return current.stored.version
  }

  func put(_ list: UUID, _ name: String) async throws -> Response {
    let data = try await body()
    let incoming = try DAVTodo.read(data)
    let found = try await collection(list, .lookup(names: [name], uids: [incoming.uid] + incoming.parentUIDs))
    let current = found.tasks.first { $0.name == name }
    if request.headers[.ifNoneMatch]?.trimmingCharacters(in: .whitespaces) == "*", current != nil {
      throw DAVRefusal.status(.preconditionFailed, "A task already has this name.")
    }
    let version = try ifMatch(current)
    if let current, current.uid != incoming.uid {
      throw DAVRefusal.precondition(
        .forbidden, DAVXML.caldav, "no-uid-conflict", "A resource keeps its UID; save a new task under a new name.")
    }
    if let other = found.tasks.first(where: { $0.uid == incoming.uid && $0.name != name }) {
      return DAVRoutes.xml(
        .conflict,
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<d:error xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\">"
          + "<c:no-uid-conflict>\(href(path(of: found, other.name)))</c:no-uid-conflict></d:error>\n")
    }
    let parent = incoming.parentUID.flatMap { uid in found.tasks.first { $0.uid == uid } }
    // A new resource named `<uuid>.ics` (Apple, Thunderbird, DAVx5 name them so) is the task with that id, at that
    // name; a name whose id another list's task has gets a new id and keeps its name.
    var id = current?.stored.id ?? DAVTask.id(ofDefaultName: name) ?? UUID()
    let now = Date()
    let plan = DAVTodo.plan(incoming, current: current?.stored, parentID: parent?.stored.id, now: now)
    var record: DAVRecord {
      DAVRecord(
        name: current?.record.name ?? (name == id.lowercased + ".ics" ? nil : name),
        uid: incoming.uid == id.lowercased ? nil : incoming.uid, ical: incoming.text)
    }
    let write = { (changes: TaskChanges) -> PlannerTaskWrite in
      current == nil ? .create(changes) : .change(changes, ifMatch: version)
    }
    var outcome = try await store.writeTask(
      caller: caller.key, listID: list, id: id, write(plan.changes), record: record, now: now)
    if current == nil, case .notFound = outcome, DAVTask.id(ofDefaultName: name) == id {
      id = UUID()
      outcome = try await store.writeTask(
        caller: caller.key, listID: list, id: id, write(plan.changes), record: record, now: now)
    }
    // A parent the model cannot hold (Tasks.org and Nextcloud nest deeper than one level): the task is kept without
    // it, its RELATED-TO stays in its text as written. A refused PUT could stop a client's whole sync.
    if case .invalid(let error) = outcome, error.field == "parentId" {
      var changes = plan.changes
      changes.parentID = current == nil ? .keep : .clear
      outcome = try await store.writeTask(
        caller: caller.key, listID: list, id: id, write(changes), record: record, now: now)
    }
    // Occurrences finished through RECURRENCE-ID or a COMPLETED master: each finished as the window does.
    let created: Bool
    if case .created = outcome { created = true } else { created = false }
    finishing: for count in 0..<DAVTodo.Plan.maxFinished {
      switch outcome {
      case .created(let stored), .done(let stored):
        guard let occurrence = plan.nextFinished(on: stored.task, after: count) else { break finishing }
        outcome = try await store.writeTask(
          caller: caller.key, listID: list, id: id, .complete(occurrence: occurrence, today: plan.today), now: now)
      default: break finishing
      }
    }
    switch outcome {
    case .created(let stored), .done(let stored):
      // The ETag only when what a GET gives is the body as sent (RFC 4791 §5.3.4): else clients read it again.
      var headers: HTTPFields = [.contentLength: "0"]
      let kept = DAVTask(stored: stored, record: record, parentUID: incoming.parentUID)
      if DAVTodo.render(kept) == incoming.text { headers[.eTag] = kept.etag }
      if created { return Response(status: .created, headers: headers) }
      return Response(status: .noContent, headers: headers)
    case .notFound: throw DAVRefusal.status(.notFound, "No such task list.")
    case .preconditionFailed: throw DAVRefusal.status(.preconditionFailed, "The task was changed since.")
    case .invalid(let error):
      throw DAVRefusal.precondition(.forbidden, DAVXML.caldav, "valid-calendar-object-resource", error.description)
    case .forbidden(let message), .conflict(let message): throw DAVRefusal.status(.forbidden, message)
    case .deleted: throw DAVRefusal.status(.notFound, "No such task.")
    }
  }

  func delete(_ list: UUID, _ name: String) async throws -> Response {
    let (_, current) = try await find(list, name)
    let version = try ifMatch(current)
    switch try await store.writeTask(
      caller: caller.key, listID: list, id: current.stored.id, .delete(ifMatch: version), now: Date())
    {
    case .deleted, .done: return Response(status: .noContent)
    case .preconditionFailed: throw DAVRefusal.status(.preconditionFailed, "The task was changed since.")
    case .notFound: throw DAVRefusal.status(.notFound, "No such task.")
    case .invalid(let error): throw DAVRefusal.status(.forbidden, error.description)
    case .forbidden(let message), .conflict(let message): throw DAVRefusal.status(.forbidden, message)
    case .created: return Response(status: .noContent)
    }
  }

  // MARK: Collections

  /// The owner deletes the list; a member leaves it (it is gone from their collections, not from the others').
  func deleteCollection(_ id: UUID) async throws -> Response {
    let found = try await collection(id, .none)
    if found.list.role == .owner {
      switch try await store.writeList(caller: caller, id: id, .delete(ifMatch: nil), now: Date()) {
      case .deleted, .done: return Response(status: .noContent)
      case .forbidden(let message), .conflict(let message): throw DAVRefusal.status(.forbidden, message)
      default: throw DAVRefusal.status(.notFound, "No such task list.")
      }
    }
    guard let me = try await store.members(caller: caller.key, listID: id)?.first(where: \.isCaller) else {
      throw DAVRefusal.status(.notFound, "No such task list.")
    }
    switch try await store.removeMember(caller: caller.key, listID: id, memberID: me.id, now: Date()) {
    case .deleted, .done: return Response(status: .noContent)
    case .forbidden(let message), .conflict(let message): throw DAVRefusal.status(.forbidden, message)
    default: throw DAVRefusal.status(.notFound, "No such task list.")
    }
  }

  func mkcalendar(_ id: UUID) async throws -> Response {
    let body = try await xml()
    let set = body?.child(DAVXML.dav, "set")?.child(DAVXML.dav, "prop")
    if let components = set?.child(DAVXML.caldav, "supported-calendar-component-set") {
      let names = components.children(DAVXML.caldav, "comp").compactMap { $0.attributes["name"]?.uppercased() }
      guard names.contains("VTODO") else {
        throw DAVRefusal.precondition(
          .forbidden, DAVXML.caldav, "supported-calendar-component", "This service keeps task lists (VTODO) only.")
      }
    }
    let name = set?.child(DAVXML.dav, "displayname")?.text ?? "Tasks"
    let existing = try await store.list(caller: caller.key, id: id)
    if existing != nil { throw DAVRefusal.method(DAVRoutes.allowed) }
    switch try await store.writeList(caller: caller, id: id, .create(name: name, sortKey: ""), now: Date()) {
    case .created:
      let parts = request.uri.path.split(separator: "/").map(String.init)
      if parts.count >= 4, UUID(uuidString: parts[3]) == nil, let segment = parts[3].removingPercentEncoding {
        try await store.nameCollection(caller: caller.key, listID: id, name: segment)
      }
      return Response(status: .created, headers: [.contentLength: "0"])
    case .done: throw DAVRefusal.method(DAVRoutes.allowed)
    case .invalid(let error): throw DAVRefusal.status(.forbidden, error.description)
    case .forbidden(let message), .conflict(let message): throw DAVRefusal.status(.forbidden, message)
    default: throw DAVRefusal.status(.forbidden, "This collection cannot be made here.")
    }
  }

  /// Changes the display name (the list's, for every member) and the colour (the caller's own); any other property is
  /// refused (403), and then nothing is changed (424 for the rest).
  func proppatch(_ id: UUID) async throws -> Response {
    guard let body = try await xml() else { throw DAVRefusal.status(.badRequest, "A PROPPATCH needs a body.") }
    let found = try await collection(id, .none)
    var name: String?
    var color: String??
    var refused: [DAVElement] = []
    var accepted: [DAVElement] = []
    for action in body.children
    where action.namespace == DAVXML.dav && (action.name == "set" || action.name == "remove") {
      for prop in action.child(DAVXML.dav, "prop")?.children ?? [] {
        let setting = action.name == "set"
        switch (prop.namespace, prop.name) {
        case (DAVXML.dav, "displayname") where setting:
          name = prop.text
          accepted.append(prop)
        case (DAVXML.apple, "calendar-color"):
          let value = prop.text.trimmingCharacters(in: .whitespacesAndNewlines)
          guard !setting || Self.isColor(value) else {
            refused.append(prop)
            continue
          }
          color = .some(setting ? value : nil)
          accepted.append(prop)
        default: refused.append(prop)
        }
      }
    }
    var text = "<d:response><d:href>\(DAVXML.escaped(path(of: found)))</d:href>"
    let names = { (props: [DAVElement]) in props.map { DAVXML.empty($0.namespace, $0.name) }.joined() }
    if !refused.isEmpty {
      text += Self.propstat(names(refused), "403 Forbidden")
      if !accepted.isEmpty { text += Self.propstat(names(accepted), "424 Failed Dependency") }
      return DAVRoutes.xml(DAVRoutes.multiStatus, DAVXML.multistatus([text + "</d:response>"]))
    }
    if let name {
      switch try await store.writeList(
        caller: caller, id: id, .change(name: name, sortKey: nil, ifMatch: nil), now: Date())
      {
      case .done: break
      case .invalid(let error): throw DAVRefusal.status(.forbidden, error.description)
      case .forbidden(let message), .conflict(let message): throw DAVRefusal.status(.forbidden, message)
      default: throw DAVRefusal.status(.notFound, "No such task list.")
      }
    }
    if let color { try await store.colorCollection(caller: caller.key, listID: id, color: color) }
    text += Self.propstat(names(accepted), "200 OK")
    return DAVRoutes.xml(DAVRoutes.multiStatus, DAVXML.multistatus([text + "</d:response>"]))
  }

  /// `#RRGGBB` or `#RRGGBBAA`, as Apple's and DAVx5's colours are written.
  static func isColor(_ text: String) -> Bool {
    text.first == "#" && (text.count == 7 || text.count == 9) && text.dropFirst().allSatisfy(\.isHexDigit)
  }
}

/// Sync tokens: URIs naming a position of the change feed.
package enum DAVSyncToken {
  static let prefix = "https://b2ctasks.github.io/ns/sync/"

  static func token(_ position: Int64) -> String { prefix + String(position) }

  package static func position(_ token: String) -> Int64? {
    guard token.hasPrefix(prefix), let value = Int64(token.dropFirst(prefix.count)), value >= 0 else { return nil }
    return value
  }
}

/// Dates as HTTP writes them (RFC 9110 §5.6.7: `Sun, 06 Nov 1994 08:49:37 GMT`).
enum DAVDates {
  static func http(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .gmt
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
    let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
    return "\(days[((parts.weekday ?? 1) - 1) % 7]), \(two(parts.day)) \(months[((parts.month ?? 1) - 1) % 12]) "
      + "\(parts.year ?? 1970) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) GMT"
  }
}

// PlannerRoutes: the task API v2 (`/api/v2`: lists, tasks, the change feed, sharing), as openapi.yaml describes it.
// Sendable.

import Crypto
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import TasksCalendar

/// The v2 routes. Every route needs a valid bearer token; a list the caller is no member of, and its tasks, answer
/// 404 as if they did not exist (never 403, which would say they do).
public struct PlannerRoutes: Sendable {
  let store: any PlannerStore
  let validator: BearerValidator
  let maxRequestBytes: Int
  /// The callers' feed positions, read for concurrent feed requests together.
  let positions: ListVersionReads
  /// How long an invitation code can be used.
  public static let invitationLifetime: TimeInterval = 7 * 86_400

  public init(store: any PlannerStore, validator: BearerValidator, maxRequestBytes: Int) {
    self.store = store
    self.validator = validator
    self.maxRequestBytes = maxRequestBytes
    positions = ListVersionReads { [store] members, completion in
      store.readFeedPositions(members: members, completion: completion)
    }
  }

  public func register<Context: RequestContext>(on router: Router<Context>) {
    let lists = "/api/v2/lists"
    router.get(.init(lists)) { request, _ in
      try await authorized(request) { caller in Self.json(try await store.lists(caller: caller).map(\.jsonObject)) }
    }
    router.post(.init(lists)) { request, _ in
      try await authorized(request) { caller in
        try await writeList(caller, id: UUID(), try await listWrite(request, creating: true))
      }
    }
    router.get(.init(lists + "/:listId")) { request, context in
      try await authorized(request) { caller in
        guard let id = Self.id(context, "listId"), let list = try await store.list(caller: caller.key, id: id) else {
          return Self.notFound
        }
        return Self.json(list.jsonObject, etag: list.etag)
      }
    }
    router.put(.init(lists + "/:listId")) { request, context in
      try await authorized(request) { caller in
        guard let id = Self.id(context, "listId") else { return Self.notFound }
        if let refused = Self.createOnly(request) { return refused }
        return try await writeList(caller, id: id, try await listWrite(request, creating: true))
      }
    }
    router.patch(.init(lists + "/:listId")) { request, context in
      try await authorized(request) { caller in
        guard let id = Self.id(context, "listId") else { return Self.notFound }
        let write: PlannerListWrite
        do { write = try await listWrite(request, creating: false) } catch {
          // A list the caller has not is not there, whatever the body says.
          guard try await store.list(caller: caller.key, id: id) != nil else { return Self.notFound }
          throw error
        }
        return try await writeList(caller, id: id, write)
      }
    }
    router.delete(.init(lists + "/:listId")) { request, context in
      try await authorized(request) { caller in
        guard let id = Self.id(context, "listId") else { return Self.notFound }
        return try await writeList(caller, id: id, .delete(ifMatch: try Self.ifMatch(request)))
      }
    }
    registerTasks(on: router)
    registerSharing(on: router)
    router.get("/api/v2/changes") { request, context in
      try await authorized(request) { caller in try await changes(request, caller: caller, logger: context.logger) }
    }
    TaskRoutes.refuseOtherMethods(on: router, path: .init(lists), allowed: [.get, .post])
    TaskRoutes.refuseOtherMethods(on: router, path: .init(lists + "/:listId"), allowed: [.get, .put, .patch, .delete])
    TaskRoutes.refuseOtherMethods(on: router, path: "/api/v2/changes", allowed: [.get])
  }

  private func registerTasks<Context: RequestContext>(on router: Router<Context>) {
    let tasks = "/api/v2/lists/:listId/tasks"
    let task = tasks + "/:taskId"
    router.get(.init(tasks)) { request, context in
      try await authorized(request) { caller in
        guard let listID = Self.id(context, "listId"),
          let tasks = try await store.tasks(caller: caller.key, listID: listID)
        else { return Self.notFound }
        return Self.json(bytes: PlannerFeedJSON.encode(tasks: Self.readable(tasks, context.logger)))
      }
    }
    router.get(.init(task)) { request, context in
      try await authorized(request) { caller in
        guard let listID = Self.id(context, "listId"), let id = Self.id(context, "taskId"),
          let task = try await store.task(caller: caller.key, listID: listID, id: id)
        else { return Self.notFound }
        guard !Self.readable([task], context.logger).isEmpty else {
          return Self.problem(.conflict, "unreadable", PlannerRules.unreadableMessage)
        }
        return Self.json(bytes: Array(task.json), etag: task.etag)
      }
    }
    router.put(.init(task)) { request, context in
      try await taskWrite(request, context) { body in
        if let refused = Self.createOnly(request) { throw TaskRoutes.ResponseError(refused) }
        return .create(try TaskChanges(json: body))
      }
    }
    router.patch(.init(task)) { request, context in
      try await taskWrite(request, context) { body in
        .change(try TaskChanges(json: body), ifMatch: try Self.ifMatch(request))
      }
    }
    router.delete(.init(task)) { request, context in
      try await taskWrite(request, context, readsBody: false) { _ in .delete(ifMatch: try Self.ifMatch(request)) }
    }
    router.post(.init(task + "/complete")) { request, context in
      try await taskWrite(request, context) { body in try Self.completion(body) }
    }
    TaskRoutes.refuseOtherMethods(on: router, path: .init(tasks), allowed: [.get])
    TaskRoutes.refuseOtherMethods(on: router, path: .init(task), allowed: [.get, .put, .patch, .delete])
    TaskRoutes.refuseOtherMethods(on: router, path: .init(task + "/complete"), allowed: [.post])
  }

  private func registerSharing<Context: RequestContext>(on router: Router<Context>) {
    router.post("/api/v2/lists/:listId/invitations") { request, context in
      try await authorized(request) { caller in
        guard let listID = Self.id(context, "listId") else { return Self.notFound }
        let code = Self.newCode()
        let expires = Date().addingTimeInterval(Self.invitationLifetime)
        guard try await store.invite(caller: caller.key, listID: listID, codeHash: Self.hash(code), expiresAt: expires)
        else {
          guard try await store.list(caller: caller.key, id: listID) != nil else { return Self.notFound }
          return Self.problem(.forbidden, "forbidden", "Only the list's owner can invite.")
        }
        return Self.json(["code": code, "expiresAt": JSONWriter.timestamp(expires)], status: .created)
      }
    }
    // The code in the body, never in the address: proxies and balancers log addresses.
    router.post("/api/v2/invitations") { request, _ in
      try await authorized(request) { caller in
        let object = try await Self.object(request, limit: maxRequestBytes)
        // Counted as JSON Schema counts a string's length (openapi.yaml's maxLength): in code points, not bytes.
        guard let code = object["code"] as? String, (1...64).contains(code.unicodeScalars.count) else {
          return Self.invalid(FieldError("code", "the code you were sent"))
        }
        guard let list = try await store.join(caller: caller, codeHash: Self.hash(code), now: Date()) else {
          return Self.problem(.notFound, "not_found", "This invitation is unknown, used or expired.")
        }
        return Self.json(list.jsonObject, etag: list.etag)
      }
    }
    router.get("/api/v2/lists/:listId/members") { request, context in
      try await authorized(request) { caller in
        guard let listID = Self.id(context, "listId"),
          let members = try await store.members(caller: caller.key, listID: listID)
        else { return Self.notFound }
        return Self.json(members.map(\.jsonObject))
      }
    }
    router.delete("/api/v2/lists/:listId/members/:memberId") { request, context in
      try await authorized(request) { caller in
        guard let listID = Self.id(context, "listId") else { return Self.notFound }
        var memberID = Self.id(context, "memberId")
        if context.parameters.get("memberId") == "me" {
          memberID = try await store.members(caller: caller.key, listID: listID)?.first(where: \.isCaller)?.id
        }
        guard let memberID else { return Self.notFound }
        return Self.answer(
          try await store.removeMember(caller: caller.key, listID: listID, memberID: memberID, now: Date()))
      }
    }
    TaskRoutes.refuseOtherMethods(on: router, path: "/api/v2/lists/:listId/invitations", allowed: [.post])
    TaskRoutes.refuseOtherMethods(on: router, path: "/api/v2/invitations", allowed: [.post])
    TaskRoutes.refuseOtherMethods(on: router, path: "/api/v2/lists/:listId/members", allowed: [.get])
    TaskRoutes.refuseOtherMethods(on: router, path: "/api/v2/lists/:listId/members/:memberId", allowed: [.delete])
  }

  // MARK: Handlers

  private func writeList(_ caller: PlannerCaller, id: UUID, _ write: PlannerListWrite) async throws -> Response {
    Self.answer(
      try await store.writeList(caller: caller, id: id, write, now: Date()), location: "/api/v2/lists/\(id.lowercased)")
  }

  /// A list's fields from a POST, PUT (`creating`: a name is needed) or PATCH body.
  private func listWrite(_ request: Request, creating: Bool) async throws -> PlannerListWrite {
    let object = try await Self.object(request, limit: maxRequestBytes)
    let read = FieldReader(object)
    var name: String?
    var sortKey: String?
    if let value = object["name"] {
      name = try Self.field { () throws(FieldError) in
        try read.text(value, "name", max: PlannerRules.maxListName, lineBreaks: false)
      }
    }
    if let value = object["sortKey"] {
      sortKey = try Self.field { () throws(FieldError) in
        try read.text(value, "sortKey", max: PlannerTask.maxSortKeyLength, lineBreaks: false)
      }
    }
    if creating {
      guard let name else { throw TaskRoutes.ResponseError(Self.invalid(FieldError("name", "a list needs a name"))) }
      return .create(name: name, sortKey: sortKey ?? "")
    }
    return .change(name: name, sortKey: sortKey, ifMatch: try Self.ifMatch(request))
  }

  private func taskWrite<Context: RequestContext>(
    _ request: Request, _ context: Context, readsBody: Bool = true,
    _ write: @escaping (Data) throws -> PlannerTaskWrite
  ) async throws -> Response {
    try await authorized(request) { caller in
      guard let listID = Self.id(context, "listId"), let id = Self.id(context, "taskId") else { return Self.notFound }
      let body = readsBody ? Data(buffer: try await Self.body(request, limit: maxRequestBytes)) : Data()
      let change: PlannerTaskWrite
      do { change = try write(body) } catch {
        // A list the caller has not is not there, whatever the body says.
        guard try await store.list(caller: caller.key, id: listID) != nil else { return Self.notFound }
        if let error = error as? FieldError { return Self.invalid(error) }
        throw error
      }
      return Self.answer(
        try await store.writeTask(caller: caller.key, listID: listID, id: id, change, now: Date()),
        location: "/api/v2/lists/\(listID.lowercased)/tasks/\(id.lowercased)")
    }
  }

  private func changes(_ request: Request, caller: PlannerCaller, logger: Logger) async throws -> Response {
    var cursor = PlannerFeedCursor(after: nil)
    // (Hummingbird parses the query again at each `queryParameters`: once here.)
    let parameters = request.uri.queryParameters
    if let token = parameters.get("since") {
      guard let read = PlannerFeedCursor(token: String(token)) else {
        return Self.invalid(FieldError("since", "a token from an earlier answer's next"))
      }
      cursor = read
    }
    var limit = PlannerFeedCursor.pageSize
    if let text = parameters.get("limit") {
      guard text.count <= 5, let number = Int(text), (1...PlannerFeedCursor.maxPageSize).contains(number) else {
        return Self.invalid(FieldError("limit", "a whole number from 1 to \(PlannerFeedCursor.maxPageSize)"))
      }
      limit = number
    }
    var wait = 0
    if let text = parameters.get("wait") {
      guard text.count <= 3, let number = Int(text), (0...Self.maxWaitSeconds).contains(number) else {
        return Self.invalid(FieldError("wait", "a whole number of seconds from 0 to \(Self.maxWaitSeconds)"))
      }
      wait = number
    }
    // Waiting (a long poll): registered before the position is read, so that a change between the read and the
    // wait rings it.
    var waiter: FeedBell.Waiter?
    defer { waiter.map(store.feedBell.leave) }
    do {
      // Unchanged: the caller's position is the token's (one shared one-row read, no list or task read); with
      // `wait`, read again at each ring until it moves or the wait ends.
      if cursor.isFirstPage, let since = cursor.after {
        if wait > 0 {
          guard let entered = store.feedBell.enter(member: caller.key) else {
            var response = Self.problem(
              .tooManyRequests, "too_many_waiting",
              "This account has \(store.feedBell.limitPerMember) requests waiting for changes already.")
            response.headers[.retryAfter] = "5"
            return response
          }
          waiter = entered
        }
        let deadline = ContinuousClock.now + .seconds(wait)
        while true {
          let position = try await positions.version(owner: caller.key)
          if position < since { throw PlannerFeedRefusal.gone }
          if position != since { break }
          guard let waiter else { return Self.unchanged(since) }
          // A graceful shutdown (SIGTERM) answers every waiting request at once instead of after its wait.
          let rung = await withGracefulShutdownHandler {
            await waiter.wait(until: deadline)
          } onGracefulShutdown: {
            waiter.close()
          }
          guard rung, !waiter.isClosed else { return Self.unchanged(since) }
        }
      }
      let page = try await store.changes(caller: caller, from: cursor, limit: limit)
      return Self.json(bytes: try PlannerFeedJSON.encode(page, tasks: Self.readable(page.tasks, logger)))
    } catch PlannerFeedRefusal.gone {
      return Self.problem(
        .gone, "token_expired", "This token cannot be answered from: read everything again, without since.")
    }
  }

  /// The longest a feed request may wait for a change (`wait`): under the five minutes after which proxies and
  /// NATs commonly drop a silent connection.
  public static let maxWaitSeconds = 280

  /// The answer of a feed read when nothing changed, written straight into bytes.
  static func unchanged(_ position: Int64) -> Response {
    let body = #"{"deleted":{"lists":[],"tasks":[]},"lists":[],"more":false,"next":"c\#(position)","tasks":[]}"#
    return Response(
      status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
  }

  // MARK: Requests

  func authorized(_ request: Request, _ body: (PlannerCaller) async throws -> Response) async throws -> Response {
    guard let caller = await validator.caller(authorization: request.headers[.authorization]) else {
      var response = Self.problem(.unauthorized, "unauthorized", "Authorization has been denied for this request.")
      response.headers[.wwwAuthenticate] = "Bearer"
      return response
    }
    do { return try await body(caller) } catch let error as TaskRoutes.ResponseError {
      return error.response
    } catch let cap as PlannerRules.CapReached {
      return Self.problem(.conflict, "limit_reached", cap.message)
    }
  }

  /// The tasks that can be read; each of the others is reported in the log, by its ids and what is wrong, never its
  /// content (a task that cannot be read never turns a whole read into an error).
  static func readable(_ tasks: [StoredTask], _ logger: Logger) -> [StoredTask] {
    tasks.filter { task in
      guard let problem = task.unreadable else { return true }
      logger.error(
        "a stored task cannot be read: it is left out",
        metadata: ["task": "\(task.id.lowercased)", "list": "\(task.listID.lowercased)", "field": "\(problem.field)"])
      return false
    }
  }

  static func id<Context: RequestContext>(_ context: Context, _ name: String) -> UUID? {
    context.parameters.get(name).flatMap { UUID(uuidString: $0) }
  }

  /// A PUT creates only: without `If-None-Match: *` it is refused (428), so that a PUT never replaces a task
  /// another device changed.
  static func createOnly(_ request: Request) -> Response? {
    guard request.headers[.ifNoneMatch]?.trimmingCharacters(in: .whitespaces) != "*" else { return nil }
    return problem(
      .init(code: 428), "precondition_required", "Send If-None-Match: * to create; PATCH changes what exists.")
  }

  /// The version `If-Match` names (`"7"` or `W/"7"`; `*` or none: any).
  static func ifMatch(_ request: Request) throws -> Int64? {
    guard let value = request.headers[.ifMatch]?.trimmingCharacters(in: .whitespaces), value != "*" else { return nil }
    var tag = Substring(value)
    if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
    guard tag.count > 2, tag.first == "\"", tag.last == "\"", let version = Int64(tag.dropFirst().dropLast()) else {
      throw TaskRoutes.ResponseError(invalid(FieldError("If-Match", "an ETag this service gave, as \"7\"")))
    }
    return version
  }

  static func body(_ request: Request, limit: Int) async throws -> ByteBuffer {
    do { return try await request.body.collect(upTo: limit) } catch {
      throw TaskRoutes.ResponseError(problem(.contentTooLarge, "too_large", "The body is over \(limit) bytes."))
    }
  }

  static func object(_ request: Request, limit: Int) async throws -> [String: Any] {
    let data = Data(buffer: try await body(request, limit: limit))
    guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
      throw TaskRoutes.ResponseError(invalid(FieldError("body", "a JSON object")))
    }
    return object
  }

  static func field<Value>(_ read: () throws(FieldError) -> Value) throws -> Value {
    do throws(FieldError) { return try read() } catch { throw TaskRoutes.ResponseError(invalid(error)) }
  }

  /// `{"occurrence": "YYYY-MM-DD", "today": "YYYY-MM-DD"}` (today: the user's day; UTC's when not given). The user's
  /// day is at most one day ahead of UTC's anywhere on Earth: a later one (a day more for a clock that is wrong) is
  /// refused, so that no one moves a series into the far future by naming a day that has not come.
  static func completion(_ body: Data, now: Date = Date()) throws -> PlannerTaskWrite {
    guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
      throw FieldError("body", "a JSON object with occurrence")
    }
    guard let text = object["occurrence"] as? String, let occurrence = CalendarDate(text) else {
      throw FieldError("occurrence", "the due date being finished, as YYYY-MM-DD")
    }
    var today = CalendarDate(dayNumber: Int((now.timeIntervalSince1970 / 86_400).rounded(.down)))
    if let value = object["today"], !(value is NSNull) {
      guard let text = value as? String, let date = CalendarDate(text), date <= today.adding(days: 2) else {
        throw FieldError("today", "the user's date, as YYYY-MM-DD, not after tomorrow")
      }
      today = date
    }
    return .complete(occurrence: occurrence, today: today)
  }

  // MARK: Sharing codes

  /// 160 random bits in Crockford's base 32 (32 letters and digits, no I, L, O or U): single use, kept only hashed.
  static func newCode() -> String {
    let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    var generator = SystemRandomNumberGenerator()
    return String((0..<32).map { _ in alphabet[Int(generator.next(upperBound: UInt8(32)))] })
  }

  /// A code as the database keeps it: its SHA-256 (a copy of the database lets nobody join). Case and dashes are
  /// forgiven, as people copy codes.
  static func hash(_ code: String) -> Data {
    let normal = code.uppercased().filter { $0 != "-" && $0 != " " }
    return Data(SHA256.hash(data: Data(normal.utf8)))
  }

  // MARK: Answers

  static func answer<Value>(_ outcome: PlannerOutcome<Value>, location: String? = nil) -> Response {
    switch outcome {
    case .created(let value):
      var response = json(bytes: body(value), etag: etag(value), status: .created)
      if let location { response.headers[.location] = location }
      return response
    case .done(let value): return json(bytes: body(value), etag: etag(value))
    case .deleted: return Response(status: .noContent)
    case .notFound: return notFound
    case .preconditionFailed(let value):
      return json(bytes: body(value), etag: etag(value), status: .preconditionFailed)
    case .invalid(let error): return invalid(error)
    case .forbidden(let message): return problem(.forbidden, "forbidden", message)
    case .conflict(let message): return problem(.conflict, "conflict", message)
    }
  }

  /// The JSON of an outcome's value: a task written by `PlannerFeedJSON`, a list or a member through its object.
  private static func body(_ value: Any) -> [UInt8] {
    let object: Any
    switch value {
    case let task as StoredTask: return Array(task.json)
    case let list as PlannerListView: object = list.jsonObject
    case let member as PlannerMember: object = member.jsonObject
    default: object = [String: Any]()
    }
    return Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8))
  }

  private static func etag(_ value: Any) -> String? {
    switch value {
    case let task as StoredTask: task.etag
    case let list as PlannerListView: list.etag
    default: nil
    }
  }

  static func json(_ object: Any, etag: String? = nil, status: HTTPResponse.Status = .ok) -> Response {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    return json(bytes: Array(data), etag: etag, status: status)
  }

  /// A JSON answer already written.
  static func json(bytes: [UInt8], etag: String? = nil, status: HTTPResponse.Status = .ok) -> Response {
    var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
    if let etag { headers[.eTag] = etag }
    return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
  }

  static func problem(_ status: HTTPResponse.Status, _ error: String, _ message: String) -> Response {
    json(["error": error, "message": message], status: status)
  }

  static func invalid(_ error: FieldError) -> Response {
    json(["error": "invalid_request", "field": error.field, "message": error.message], status: .badRequest)
  }

  static var notFound: Response { problem(.notFound, "not_found", "No such list or task.") }
}

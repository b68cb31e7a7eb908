// TaskRoutes: the sample's task API (`/api/tasks`) plus the update and idempotent-add extensions. Sendable.

import Foundation
import Hummingbird
import Synchronization

/// `GET/POST /api/tasks`, `DELETE /api/tasks/{id}` as the sample's TaskService answered them, and the extensions
/// `PATCH /api/tasks/{id}` (Text, Completed) and `Idempotency-Key` on POST. Every route needs a valid bearer token;
/// a user only ever sees and changes their own tasks.
public struct TaskRoutes: Sendable {
  let store: any TaskStore
  let validator: BearerValidator
  let maxRequestBytes: Int
  let lists: TaskListCache
  let versions: ListVersionReads
  /// The longest task text accepted, in Unicode code points (as JSON Schema's maxLength and GTK's max-length count).
  public static let maxTextLength = 4000

  /// `listCacheBytes`: how many bytes of encoded lists to keep in memory (0: none).
  public init(store: any TaskStore, validator: BearerValidator, maxRequestBytes: Int, listCacheBytes: Int = 64 << 20) {
    self.store = store
    lists = TaskListCache(capacity: listCacheBytes)
    versions = ListVersionReads { [store] owners, completion in
      store.readListVersions(owners: owners, completion: completion)
    }
    self.validator = validator
    self.maxRequestBytes = maxRequestBytes
  }

  public func register<Context: RequestContext>(on router: Router<Context>) {
    router.get("/api/tasks") { request, context in
      try await authorized(request, context) { owner in
        try await list(request, owner: owner)
      }
    }
    router.post("/api/tasks") { request, context in
      try await authorized(request, context) { owner in try await add(request, owner: owner) }
    }
    router.delete("/api/tasks/:id") { request, context in
      try await authorized(request, context) { owner in
        guard let id = context.parameters.get("id", as: Int64.self) else { return Self.notFound }
        try await store.deleteTask(owner: owner, id: id)
        return Response(status: .noContent)
      }
    }
    for method in [HTTPRequest.Method.patch, .put] {
      router.on("/api/tasks/:id", method: method) { request, context in
        try await authorized(request, context) { owner in
          guard let id = context.parameters.get("id", as: Int64.self) else { return Self.notFound }
          return try await update(request, owner: owner, id: id)
        }
      }
    }
    Self.refuseOtherMethods(on: router, path: "/api/tasks", allowed: [.get, .post])
    Self.refuseOtherMethods(on: router, path: "/api/tasks/:id", allowed: [.delete, .patch, .put])
  }

  /// Answers the methods a route does not take with 405 and the ones it does in `Allow` (not 404, which would say
  /// the resource is not there).
  public static func refuseOtherMethods<Context: RequestContext>(
    on router: Router<Context>, path: RouterPath, allowed: [HTTPRequest.Method]
  ) {
    let all: [HTTPRequest.Method] = [.get, .head, .post, .put, .delete, .options, .trace, .patch, .connect]
    let allow = allowed.map(\.rawValue).joined(separator: ", ")
    for method in all where !allowed.contains(method) {
      router.on(path, method: method) { _, _ in
        var response = try json(
          ["Message": "The requested resource does not support http method '\(method)'."], status: .methodNotAllowed)
        response.headers[.allow] = allow
        return response
      }
    }
  }

  // MARK: Handlers

  /// The owner's list: from memory while the database's list version for the owner has not moved (a one-row lookup,
  /// shared with the list requests that arrive meanwhile, instead of reading and encoding every task), 304 when the
  /// client's ETag is that version.
  private func list(_ request: Request, owner: String) async throws -> Response {
    let version = try await versions.version(owner: owner)
    let etag = "\"\(version)\""
    var headers: HTTPFields = [.cacheControl: "no-store", .eTag: etag]
    if let match = request.headers[.ifNoneMatch],
      match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag })
    {
      return Response(status: .notModified, headers: headers)
    }
    let body: ByteBuffer
    if let cached = lists.body(owner: owner, version: version) {
      body = cached
    } else {
      // Read after the version: a change in between makes the next request's version differ, never a stale hit.
      body = ByteBuffer(bytes: TaskListJSON.encode(try await store.tasks(owner: owner)))
      lists.keep(body, owner: owner, version: version)
    }
    headers[.contentType] = "application/json; charset=utf-8"
    return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
  }

  private func add(_ request: Request, owner: String) async throws -> Response {
    let fields: TaskFields
    do { fields = try await Self.fields(request, limit: maxRequestBytes) } catch let error as ResponseError {
      return error.response
    }
    if let raw = fields.text, let problem = Self.textProblem(raw) { return problem }
    guard let text = fields.text.map(Self.trimmedText), !text.isEmpty else {
      return Self.invalid("The Text field is required.")
    }
    let key = request.headers[.init("Idempotency-Key")!]
    if let key, key.isEmpty || key.count > 200 || !key.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) {
      return Self.invalid("The Idempotency-Key header must be 1 to 200 printable ASCII characters.")
    }
    let id = try await store.addTask(owner: owner, text: text, idempotencyKey: key)
    return Response(status: .noContent, headers: [.location: "/api/tasks/\(id)"])
  }

  private func update(_ request: Request, owner: String, id: Int64) async throws -> Response {
    let fields: TaskFields
    do { fields = try await Self.fields(request, limit: maxRequestBytes) } catch let error as ResponseError {
      return error.response
    }
    if let raw = fields.text, let problem = Self.textProblem(raw) { return problem }
    let text = fields.text.map(Self.trimmedText)
    if let text, text.isEmpty { return Self.invalid("The Text field must not be empty.") }
    if fields.completedWasInvalid { return Self.invalid("The Completed field must be true or false.") }
    guard text != nil || fields.completed != nil else { return Self.invalid("Give Text or Completed.") }
    guard try await store.updateTask(owner: owner, id: id, text: text, completed: fields.completed) else {
      return Self.notFound
    }
    return Response(status: .noContent)
  }

  // MARK: Helpers

  /// Why a task text as sent (before trimming) is refused: too long, or with control characters (Unicode's Cc, C0
  /// and C1) other than tab and line breaks: a NUL cannot even be stored in PostgreSQL's text, and the others draw as
  /// boxes in any list. openapi.yaml's Text pattern says the same.
  static func textProblem(_ text: String) -> Response? {
    if text.unicodeScalars.count > maxTextLength {
      return invalid("The Text field must be at most \(maxTextLength) characters long.")
    }
    let control = text.unicodeScalars.contains { scalar in
      scalar.properties.generalCategory == .control && !["\t", "\n", "\r"].contains(scalar)
    }
    return control ? invalid("The Text field must not contain control characters.") : nil
  }

  /// The text without white space at either end, white space being exactly what openapi.yaml's Text pattern names:
  /// tab, line feed, carriage return and Unicode's space, line and paragraph separators (Zs, Zl, Zp). Not
  /// Foundation's set, which also takes U+0085 and follows its own Unicode version.
  static func trimmedText(_ text: String) -> String {
    func isSpace(_ scalar: Unicode.Scalar) -> Bool {
      switch scalar.properties.generalCategory {
      case .spaceSeparator, .lineSeparator, .paragraphSeparator: true
      default: scalar == "\t" || scalar == "\n" || scalar == "\r"
      }
    }
    let scalars = text.unicodeScalars
    guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(scalars[first...last])
  }

  /// Runs `body` for the token's owner, or answers 401 as the original did.
  private func authorized(
    _ request: Request, _ context: some RequestContext, _ body: (String) async throws -> Response
  ) async throws -> Response {
    guard let owner = await validator.owner(authorization: request.headers[.authorization]) else {
      var response = try json(["Message": "Authorization has been denied for this request."], status: .unauthorized)
      response.headers[.wwwAuthenticate] = "Bearer"
      return response
    }
    return try await body(owner)
  }

  /// The `Text` and `Completed` of a form or JSON body (keys case-insensitive).
  struct TaskFields {
    var text: String?
    var completed: Bool?
    var completedWasInvalid = false
  }

  private static func fields(_ request: Request, limit: Int) async throws -> TaskFields {
    let body = try await request.body.collect(upTo: limit)
    let mediaType =
      (request.headers[.contentType] ?? "application/x-www-form-urlencoded")
      .split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
    var fields = TaskFields()
    switch mediaType {
    case "application/json", "text/json":
      do {
        let decoded = try JSONDecoder().decode(TaskJSONBody.self, from: Data(buffer: body))
        fields.text = decoded.text
        fields.completed = decoded.completed
      } catch {
        throw ResponseError(
          invalid("The request body is not a task: a JSON object with Text (a string) and Completed (true or false)."))
      }
    case "application/x-www-form-urlencoded":
      let form = FormFields(String(buffer: body))
      fields.text = form.caseInsensitive("Text")
      if let value = form.caseInsensitive("Completed") {
        switch value.lowercased() {
        case "true": fields.completed = true
        case "false": fields.completed = false
        default: fields.completedWasInvalid = true
        }
      }
    default:
      throw ResponseError(
        try json(
          ["Message": "The request entity's media type '\(mediaType)' is not supported for this resource."],
          status: .unsupportedMediaType))
    }
    return fields
  }

  /// A JSON task body; keys are matched case-insensitively, as ASP.NET's model binding did.
  struct TaskJSONBody: Decodable {
    var text: String?
    var completed: Bool?

    struct AnyKey: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: AnyKey.self)
      for key in container.allKeys {
        switch key.stringValue.lowercased() {
        case "text": text = try container.decode(String.self, forKey: key)
        case "completed": completed = try container.decode(Bool.self, forKey: key)
        default: continue
        }
      }
    }
  }

  /// A ready response carried as an error.
  struct ResponseError: Error {
    let response: Response
    init(_ response: Response) { self.response = response }
  }

  static func invalid(_ message: String) -> Response {
    (try? json(["Message": message], status: .badRequest)) ?? Response(status: .badRequest)
  }

  static var notFound: Response {
    (try? json(["Message": "No task with this id."], status: .notFound)) ?? Response(status: .notFound)
  }
}

/// The latest encoded list of recently active owners, each with the list version it was read at. Bounded in bytes;
/// when full, entries go in the order they came. Sendable (a lock).
final class TaskListCache: Sendable {
  /// At most this many bytes of lists are kept; a list longer than a sixteenth of it (or 1 MiB) never is.
  let capacity: Int
  private let largest: Int
  private struct Entries {
    var lists: [String: (version: Int64, body: ByteBuffer)] = [:]
    var order: [String] = []
    var bytes = 0
  }
  private let entries = Mutex(Entries())

  init(capacity: Int) {
    self.capacity = capacity
    largest = min(1 << 20, capacity / 16)
  }

  func body(owner: String, version: Int64) -> ByteBuffer? {
    entries.withLock { entries in
      guard let entry = entries.lists[owner], entry.version == version else { return nil }
      return entry.body
    }
  }

  func keep(_ body: ByteBuffer, owner: String, version: Int64) {
    guard body.readableBytes <= largest else { return }
    entries.withLock { entries in
      if let old = entries.lists.updateValue((version, body), forKey: owner) {
        entries.bytes -= old.body.readableBytes
      } else {
        entries.order.append(owner)
      }
      entries.bytes += body.readableBytes
      while entries.bytes > capacity, !entries.order.isEmpty {
        let oldest = entries.order.removeFirst()
        if let gone = entries.lists.removeValue(forKey: oldest) { entries.bytes -= gone.body.readableBytes }
      }
    }
  }
}

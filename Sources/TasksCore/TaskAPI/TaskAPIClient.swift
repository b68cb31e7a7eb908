// TaskAPIClient: the task API of PROTOCOL.md §8 plus the playground's extensions. Sendable.

import FoundationEssentials

/// A task as the API returns it.
public struct TaskItem: Equatable, Sendable, Codable, Identifiable {
  /// The server's id.
  public var id: Int64
  /// The owner's object id.
  public var owner: String
  /// The text.
  public var text: String
  /// Whether it is done.
  public var completed: Bool
  /// When it last changed, if the server said.
  public var dateModified: Date?

  /// Creates a task value.
  public init(id: Int64, owner: String, text: String, completed: Bool, dateModified: Date?) {
    self.id = id
    self.owner = owner
    self.text = text
    self.completed = completed
    self.dateModified = dateModified
  }
}

/// The user's tasks as the server sent them, with the server's version of that list (its ETag), if it sent one.
public struct TaskList: Equatable, Sendable {
  /// The tasks.
  public var tasks: [TaskItem]
  /// The list's version: sent back in `If-None-Match`, the server answers 304 while the list is still this one.
  public var version: String?

  /// A list and its version.
  public init(tasks: [TaskItem], version: String?) {
    self.tasks = tasks
    self.version = version
  }
}

/// Why a task-API call failed.
public enum TaskAPIError: Error, Equatable, Sendable {
  /// The API refused the token even after a refresh, or no one is signed in.
  case unauthorized(SessionError?)
  /// No such task (of this user).
  case notFound
  /// The API refused the request (400…499) with its message.
  case rejected(Int, String)
  /// The server failed (500…599).
  case server(Int)
  /// The network failed or timed out.
  case network(NetworkError)
  /// The answer could not be understood.
  case badResponse(String)

  /// One line for the user.
  public var message: String {
    switch self {
    case .unauthorized(let error): return error?.message ?? tr("Your sign-in has ended. Please sign in again.")
    case .notFound: return tr("This task no longer exists.")
    case .rejected(_, let message): return message
    case .server: return tr("The task service has a problem. Please try again later.")
    case .network(let error): return error.message
    case .badResponse: return tr("The task service answered something unexpected.")
    }
  }
}

/// Calls the task API with the session's bearer; on 401 it refreshes once and tries again.
public struct TaskAPIClient: Sendable {
  /// The longest task list taken: 256 MiB (the API's largest texts, 4 000 characters, for 60 000 tasks).
  public static let maxListBytes = 256 << 20
  private let tasksURL: URL
  /// The task API v2's root (`/api/v2`).
  let plannerURL: URL
  private let http: HTTPClient
  private let bearer: @Sendable (_ forceRefresh: Bool) async throws(SessionError) -> String

  /// Creates a client for the API at `baseURL` (`/api/tasks` is appended).
  public init(
    baseURL: URL, http: HTTPClient,
    bearer: @escaping @Sendable (_ forceRefresh: Bool) async throws(SessionError) -> String
  ) {
    tasksURL = baseURL.appending(path: "api/tasks")
    plannerURL = baseURL.appending(path: "api/v2")
    self.http = http
    self.bearer = bearer
  }

  /// A client for `session`'s settings and tokens, sending through the session's HTTP client. With `account` (an
  /// object id) it sends only as that account: once the session belongs to someone else, every request fails with
  /// `.unauthorized(.accountChanged)` before anything is sent, so one account's waiting changes never go out with
  /// another's token.
  public init(session: Session, account: String? = nil) {
    self.init(baseURL: session.settings.taskAPI, http: session.http) { force throws(SessionError) in
      try await session.bearer(forceRefresh: force, for: account)
    }
  }

  /// The signed-in user's tasks.
  public func list() async throws(TaskAPIError) -> [TaskItem] {
    let answer = try await send("GET", tasksURL)
    return try TaskItem.decodeList(answer.body)
  }

  /// The signed-in user's tasks with their version, or nil when the server's list is still `version` (it answered
  /// 304 Not Modified to `If-None-Match`): then nothing was sent, and there is nothing to decode or show again.
  public func list(unlessStill version: String?) async throws(TaskAPIError) -> TaskList? {
    let answer = try await send("GET", tasksURL, headers: version.map { ["If-None-Match": $0] } ?? [:])
    if answer.status == 304 { return nil }
    return TaskList(tasks: try TaskItem.decodeList(answer.body), version: answer.headers["etag"].flatMap(Self.version))
  }

  /// An ETag fit to send back: visible ASCII only (never a line break into a header), at most 256 characters.
  private static func version(_ etag: String) -> String? {
    guard !etag.isEmpty, etag.utf8.count <= 256, etag.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
    return etag
  }

  /// Adds a task; answers the id the server gave it when its answer names it (`Location: /api/tasks/{id}`, which
  /// the original API did not send). With an idempotency key, a retry of the same add is stored once.
  @discardableResult
  public func add(_ text: String, idempotencyKey: String? = nil) async throws(TaskAPIError) -> Int64? {
    let answer = try await send(
      "POST", tasksURL, form: [("Text", text)], headers: idempotencyKey.map { ["Idempotency-Key": $0] } ?? [:],
      resendable: idempotencyKey != nil)
    return Self.createdID(answer.headers["location"])
  }

  /// The task id at the end of a `Location` of the task API's (`/api/tasks/42`, or the whole URL); nil for anything
  /// else.
  static func createdID(_ location: String?) -> Int64? {
    guard let location, location.utf8.count <= 2048 else { return nil }
    let path = location.split(separator: "?", maxSplits: 1).first ?? ""
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count >= 3, parts[parts.count - 3] == "api", parts[parts.count - 2] == "tasks",
      let last = parts.last, last.allSatisfy(\.isASCII), let id = Int64(last), id > 0
    else { return nil }
    return id
  }

  /// Deletes a task (a missing one is no error, as in the original API).
  public func delete(id: Int64) async throws(TaskAPIError) {
    _ = try await send("DELETE", tasksURL.appending(path: "\(id)"))
  }

  /// Changes a task's text and/or completion (the playground's extension).
  public func update(id: Int64, text: String? = nil, completed: Bool? = nil) async throws(TaskAPIError) {
    var form: [(String, String)] = []
    if let text { form.append(("Text", text)) }
    if let completed { form.append(("Completed", completed ? "true" : "false")) }
    _ = try await send("PATCH", tasksURL.appending(path: "\(id)"), form: form, resendable: true)
  }

  /// Sends with the bearer (refreshed once on 401); a form or a JSON body; answers 2xx and the statuses in
  /// `passing` (a v2 412 carries the current resource), and throws for the rest. `resendable`: see `HTTPRequest`.
  func send(
    _ method: String, _ url: URL, form: [(String, String)]? = nil, json: Data? = nil, headers: [String: String] = [:],
    passing: Set<Int> = [], timeout: TimeInterval? = nil, resendable: Bool = false
  ) async throws(TaskAPIError) -> HTTPAnswer {
    var lastError: TaskAPIError = .unauthorized(nil)
    for attempt in 0..<2 {
      let token: String
      do { token = try await bearer(attempt > 0) } catch {
        throw error.needsSignIn || error == .notSignedIn ? .unauthorized(error) : Self.mapped(error)
      }
      // A list may be long (100 000 tasks are some 15 MB); any other answer is a few bytes.
      var request = HTTPRequest(
        method: method, url: url, headers: [("Authorization", "Bearer \(token)"), ("Accept", "application/json")],
        maxResponseBytes: method == "GET" ? Self.maxListBytes : HTTPRequest.defaultMaxResponseBytes)
      request.timeout = timeout
      request.resendable = resendable
      for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request.headers.append((name, value)) }
      if let form {
        request.headers.append(("Content-Type", "application/x-www-form-urlencoded"))
        request.body = Data(FormEncoding.encode(form).utf8)
      }
      if let json {
        request.headers.append(("Content-Type", "application/json"))
        request.body = json
      }
      let answer: HTTPAnswer
      do { answer = try await http.send(request) } catch { throw .network(error) }
      switch answer.status {
      case 200...299: return answer
      case let status where passing.contains(status): return answer
      // Not Modified: only an answer to a request that asked "if it changed".
      case 304 where headers["If-None-Match"] != nil: return answer
      case 401: lastError = .unauthorized(nil)
      case 404: throw .notFound
      case 400...499:
        throw .rejected(answer.status, Self.message(answer.body) ?? tr("The task service refused the request."))
      default: throw .server(answer.status)
      }
    }
    throw lastError
  }

  private static func mapped(_ error: SessionError) -> TaskAPIError {
    if case .network(let network) = error { return .network(network) }
    return .unauthorized(error)
  }

  /// The service's message: v1's `Message`, or v2's `message` with the field it names.
  private static func message(_ body: Data) -> String? {
    let object = JSONValue.object(body)
    if let message = object?["Message"]?.string { return message }
    guard let message = object?["message"]?.string else { return nil }
    return object?["field"]?.string.map { "\($0): \(message)" } ?? message
  }
}

extension TaskItem {
  /// Decodes `[{"Id","Owner","Text","Completed","DateModified"}]`; unknown fields are ignored, missing or mistyped
  /// ones are a bad response. `Id` may be a number or a string of digits (some servers quote 64-bit ids);
  /// `Completed` must be a JSON boolean, or null or missing for false.
  ///
  /// Decoded straight into values with `JSONDecoder` (no intermediate dictionaries): a list of 100 000 tasks costs
  /// a fraction of the time and memory a schema-less parse would.
  public static func decodeList(_ data: Data) throws(TaskAPIError) -> [TaskItem] {
    do {
      return try JSONDecoder().decode([WireTask].self, from: data).map(\.item)
    } catch let error as DecodingError {
      throw .badResponse(Self.describe(error))
    } catch {
      throw .badResponse("not JSON")
    }
  }

  /// What went wrong, without the data (which may be anything the server sent).
  private static func describe(_ error: DecodingError) -> String {
    switch error {
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
      let path = context.codingPath.map(\.stringValue).filter { Int($0) == nil }.joined(separator: ".")
      return path.isEmpty ? "not a JSON array of tasks" : "a task's \(path) is missing or mistyped"
    case .keyNotFound(let key, _):
      return "a task has no \(key.stringValue)"
    @unknown default:
      return "not a JSON array of tasks"
    }
  }

  /// One task as the API sends it.
  private struct WireTask: Decodable {
    let item: TaskItem

    enum CodingKeys: String, CodingKey {
      case id = "Id", owner = "Owner", text = "Text", completed = "Completed", dateModified = "DateModified"
    }

    init(from decoder: any Decoder) throws {
      let fields = try decoder.container(keyedBy: CodingKeys.self)
      let id: Int64
      if let number = try? fields.decode(Int64.self, forKey: .id) {
        id = number
      } else if let text = try? fields.decode(String.self, forKey: .id),
        let number = Int64(text.trimmed(newlines: false))
      {
        id = number
      } else {
        throw DecodingError.dataCorruptedError(forKey: .id, in: fields, debugDescription: "not a whole number")
      }
      item = TaskItem(
        id: id, owner: (try? fields.decodeIfPresent(String.self, forKey: .owner)) ?? "",
        text: try fields.decode(String.self, forKey: .text),
        completed: try fields.decodeIfPresent(Bool.self, forKey: .completed) ?? false,
        dateModified: (try? fields.decodeIfPresent(String.self, forKey: .dateModified))?.flatMap(WireDate.parse))
    }
  }
}

// TaskAPIClient: the task API of PROTOCOL.md §8 plus the playground's extensions. Sendable.

import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

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
    case .unauthorized(let error): return error?.message ?? "Your sign-in has ended. Please sign in again."
    case .notFound: return "This task no longer exists."
    case .rejected(_, let message): return message
    case .server: return "The task service has a problem. Please try again later."
    case .network(let error): return error.message
    case .badResponse: return "The task service answered something unexpected."
    }
  }
}

/// Calls the task API with the session's bearer; on 401 it refreshes once and tries again.
public struct TaskAPIClient: Sendable {
  private let tasksURL: URL
  private let http: HTTPClient
  private let bearer: @Sendable (_ forceRefresh: Bool) async throws(SessionError) -> String

  /// Creates a client for the API at `baseURL` (`/api/tasks` is appended).
  public init(
    baseURL: URL, http: HTTPClient = .shared,
    bearer: @escaping @Sendable (_ forceRefresh: Bool) async throws(SessionError) -> String
  ) {
    tasksURL = baseURL.appending(path: "api/tasks")
    self.http = http
    self.bearer = bearer
  }

  /// A client for `session`'s settings and tokens.
  public init(session: Session, http: HTTPClient = .shared) {
    self.init(baseURL: session.settings.taskAPI, http: http) { force throws(SessionError) in
      try await session.bearer(forceRefresh: force)
    }
  }

  /// The signed-in user's tasks.
  public func list() async throws(TaskAPIError) -> [TaskItem] {
    let answer = try await send("GET", tasksURL)
    return try TaskItem.decodeList(answer.body)
  }

  /// Adds a task. With an idempotency key, a retry of the same add is stored once.
  public func add(_ text: String, idempotencyKey: String? = nil) async throws(TaskAPIError) {
    _ = try await send(
      "POST", tasksURL, form: [("Text", text)], headers: idempotencyKey.map { ["Idempotency-Key": $0] } ?? [:])
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
    _ = try await send("PATCH", tasksURL.appending(path: "\(id)"), form: form)
  }

  private func send(
    _ method: String, _ url: URL, form: [(String, String)]? = nil, headers: [String: String] = [:]
  ) async throws(TaskAPIError) -> HTTPAnswer {
    var lastError: TaskAPIError = .unauthorized(nil)
    for attempt in 0..<2 {
      let token: String
      do { token = try await bearer(attempt > 0) } catch {
        throw error.needsSignIn || error == .notSignedIn ? .unauthorized(error) : Self.mapped(error)
      }
      var request = URLRequest(url: url)
      request.httpMethod = method
      request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
      request.setValue("application/json", forHTTPHeaderField: "Accept")
      for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
      if let form {
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(FormEncoding.encode(form).utf8)
      }
      let answer: HTTPAnswer
      do { answer = try await http.send(request) } catch { throw .network(error) }
      switch answer.status {
      case 200...299: return answer
      case 401: lastError = .unauthorized(nil)
      case 404: throw .notFound
      case 400...499:
        throw .rejected(answer.status, Self.message(answer.body) ?? "The task service refused the request.")
      default: throw .server(answer.status)
      }
    }
    throw lastError
  }

  private static func mapped(_ error: SessionError) -> TaskAPIError {
    if case .network(let network) = error { return .network(network) }
    return .unauthorized(error)
  }

  private static func message(_ body: Data) -> String? {
    (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["Message"] as? String
  }
}

extension TaskItem {
  /// Decodes `[{"Id","Owner","Text","Completed","DateModified"}]`; unknown fields are ignored, missing or mistyped
  /// ones are a bad response.
  public static func decodeList(_ data: Data) throws(TaskAPIError) -> [TaskItem] {
    guard let object = try? JSONSerialization.jsonObject(with: data), let array = object as? [Any] else {
      throw .badResponse("not a JSON array")
    }
    var items: [TaskItem] = []
    items.reserveCapacity(array.count)
    for element in array {
      guard let fields = element as? [String: Any] else { throw .badResponse("a task is not an object") }
      guard let id = JSONScalar.integer(fields["Id"]), let text = fields["Text"] as? String else {
        throw .badResponse("a task has no Id or Text")
      }
      let completed: Bool
      switch fields["Completed"] {
      case nil, is NSNull: completed = false
      case let value:
        guard let flag = JSONScalar.boolean(value) else { throw .badResponse("Completed is not true or false") }
        completed = flag
      }
      items.append(
        TaskItem(
          id: id, owner: fields["Owner"] as? String ?? "", text: text, completed: completed,
          dateModified: (fields["DateModified"] as? String).flatMap(date)))
    }
    return items
  }

  private static func date(_ text: String) -> Date? {
    (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
      ?? (try? Date.ISO8601FormatStyle().parse(text))
  }
}

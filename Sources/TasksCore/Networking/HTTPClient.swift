// HTTPClient: the core's HTTP, with typed failures, over a transport the program chooses (URLSession or libsoup).
// Sendable. The core itself does not link FoundationNetworking (libcurl, OpenSSL): the GNOME app does without it.

import FoundationEssentials

/// Why an HTTP exchange failed before an answer arrived.
public enum NetworkError: Error, Equatable, Sendable {
  /// No answer within the timeout.
  case timedOut
  /// The host could not be reached (refused, no route, DNS).
  case unreachable(String)
  /// The server's identity could not be verified (a certificate that is not trusted, has expired or names another
  /// host, or a failed TLS handshake): nothing was sent. The host (with its port, when given) is named.
  case untrusted(host: String, CertificateProblem)
  /// The answer was longer than the request allows (`HTTPRequest.maxResponseBytes`, counted after decoding): it was
  /// dropped as it arrived, not kept.
  case tooLarge(limit: Int)
  /// Anything else the transport reported.
  case failed(String)

  /// One line for the user.
  public var message: String {
    switch self {
    case .timedOut: return tr("The server did not answer in time.")
    case .unreachable: return tr("The server cannot be reached. Check your connection.")
    case .untrusted(let host, let problem): return problem.message(host: host)
    case .tooLarge: return tr("The server sent far more than expected, so the answer was not used.")
    case .failed: return tr("The connection to the server failed.")
    }
  }
}

/// What is wrong with a server's certificate, as far as the TLS library said. Each transport reads its library's
/// report into this: `TasksURLSession` libcurl's text, `TasksSoup` GIO's certificate flags.
public enum CertificateProblem: Equatable, Sendable {
  /// No authority this computer trusts vouches for it (self-signed, unknown authority, revoked, weak).
  case notTrusted
  /// It has expired or is not valid yet.
  case expired
  /// It was made out for another host name.
  case otherName
  /// The secure connection failed otherwise (no common protocol or cipher, a broken handshake).
  case handshake

  /// One line for the user, naming `host`.
  public func message(host: String) -> String {
    switch self {
    case .notTrusted:
      return String(
        template: tr(
          "The identity of %@ cannot be verified: its certificate is not from an authority this computer trusts. Nothing was sent to it."
        ), host)
    case .expired:
      return String(
        template: tr(
          "The identity of %@ cannot be verified: its certificate has expired or is not valid yet. Nothing was sent to it."
        ), host)
    case .otherName:
      return String(
        template: tr(
          "The identity of %@ cannot be verified: its certificate was made out for another name. Nothing was sent to it."
        ), host)
    case .handshake:
      return String(template: tr("A secure connection to %@ could not be made. Nothing was sent to it."), host)
    }
  }
}

/// An HTTP request, as the core makes them: a method, a URL, header fields and a body.
public struct HTTPRequest: Sendable {
  /// `GET`, `POST`, `PATCH`, `DELETE`.
  public var method: String
  /// Where it goes.
  public var url: URL
  /// Header fields in the order they are sent.
  public var headers: [(name: String, value: String)]
  /// The body, if any.
  public var body: Data?
  /// The longest answer body taken, in bytes after decoding (a compressed answer is counted as it unpacks): a
  /// hostile or broken server cannot make the app hold more. `defaultMaxResponseBytes` unless the kind of answer
  /// needs more (a task list).
  public var maxResponseBytes: Int
  /// Seconds the server may stay silent before the request fails with `.timedOut`; nil: the transport's. A long
  /// poll, which the server answers when something changes, sets more than it asks the server to wait.
  public var timeout: TimeInterval?
  /// Whether the request may be sent again as it is with the same effect (the planner's writes: a task's or list's
  /// fields, not a move; a completion keyed by its occurrence; an add keyed by its idempotency key). A transport may
  /// then send it on a connection kept from an earlier request, and sends it again once, on a new connection, when
  /// that one ends before an answer; any other POST or PATCH gets a connection of its own.
  public var resendable = false

  /// What discovery documents, key sets, token responses and errors may take: 1 MiB, many times any real one.
  public static let defaultMaxResponseBytes = 1 << 20

  /// A request without header fields or body.
  public init(
    method: String = "GET", url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil,
    maxResponseBytes: Int = HTTPRequest.defaultMaxResponseBytes
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.maxResponseBytes = maxResponseBytes
  }
}

/// An HTTP answer.
public struct HTTPAnswer: Sendable {
  /// The status code.
  public var status: Int
  /// The body.
  public var body: Data
  /// Header fields, names in lower case.
  public var headers: [String: String]

  /// An answer.
  public init(status: Int, body: Data, headers: [String: String]) {
    self.status = status
    self.body = body
    self.headers = headers
  }
}

/// What sends the core's requests: libsoup (GIO) in the GNOME app, the command-line tool and the reminder service;
/// URLSession (Foundation's) in the tests and the fuzzing harness. Every implementation sends no cookies and keeps
/// none, caches nothing, follows no redirect (the token endpoint and the task API never redirect; a redirect is an
/// answer to report), gives up with `.timedOut` when the server is silent for its timeout, stops reading an answer
/// longer than `maxResponseBytes` (`.tooLarge`), and reports every other failure as a `NetworkError`.
public protocol HTTPTransport: Sendable {
  /// Sends `request`; the answer whatever its status.
  func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPAnswer
  /// Readies, in the background, what a first request to `url` needs (for libsoup: a connection to its server, opened
  /// and left idle), so that the request does not wait for it; sends no request.
  func prepare(for url: URL)
}

extension HTTPTransport {
  public func prepare(for url: URL) {}
}

/// The core's HTTP: a transport and the requests the core makes with it.
public struct HTTPClient: Sendable {
  /// What sends the requests.
  public let transport: any HTTPTransport

  /// A client sending through `transport`.
  public init(_ transport: any HTTPTransport) {
    self.transport = transport
  }

  /// Sends `request`.
  public func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPAnswer {
    try await transport.send(request)
  }

  /// Readies the transport for a first request to `url`, in the background (`HTTPTransport.prepare`).
  public func prepare(for url: URL) {
    transport.prepare(for: url)
  }

  /// `host` or `host:port` of `url`, as a user would recognise it.
  public static func hostName(_ url: URL?) -> String {
    guard let host = url?.host(percentEncoded: false) else { return "?" }
    let shown = host.contains(":") ? "[\(host)]" : host
    return url?.port.map { "\(shown):\($0)" } ?? shown
  }

  /// POSTs `fields` form-encoded to `url`.
  public func postForm(_ url: URL, _ fields: [(String, String)]) async throws(NetworkError) -> HTTPAnswer {
    try await send(
      HTTPRequest(
        method: "POST", url: url, headers: [("Content-Type", "application/x-www-form-urlencoded")],
        body: Data(FormEncoding.encode(fields).utf8)))
  }

  /// GETs `url`.
  public func get(_ url: URL) async throws(NetworkError) -> HTTPAnswer {
    try await send(HTTPRequest(url: url))
  }
}

/// `application/x-www-form-urlencoded`.
enum FormEncoding {
  static func encode(_ fields: [(String, String)]) -> String {
    fields.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
  }

  static func escape(_ text: String) -> String {
    text.percentEncoded { Unicode.Scalar($0).isASCIIAlphanumeric || "-._~".utf8.contains($0) }
  }
}

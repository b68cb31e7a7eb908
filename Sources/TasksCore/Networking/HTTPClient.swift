// HTTPClient: the core's HTTP, over URLSession, with timeouts and typed failures. Sendable.

import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Why an HTTP exchange failed before an answer arrived.
public enum NetworkError: Error, Equatable, Sendable {
  /// No answer within the timeout.
  case timedOut
  /// The host could not be reached (refused, no route, DNS).
  case unreachable(String)
  /// The server's identity could not be verified (a certificate that is not trusted, has expired or names another
  /// host, or a failed TLS handshake): nothing was sent. The host (with its port, when given) is named.
  case untrusted(host: String, CertificateProblem)
  /// Anything else the transport reported.
  case failed(String)

  /// One line for the user.
  public var message: String {
    switch self {
    case .timedOut: return tr("The server did not answer in time.")
    case .unreachable: return tr("The server cannot be reached. Check your connection.")
    case .untrusted(let host, let problem): return problem.message(host: host)
    case .failed: return tr("The connection to the server failed.")
    }
  }
}

/// What is wrong with a server's certificate, as far as the TLS library said.
public enum CertificateProblem: Equatable, Sendable {
  /// No authority this computer trusts vouches for it (self-signed, unknown authority, revoked, weak).
  case notTrusted
  /// It has expired or is not valid yet.
  case expired
  /// It was made out for another host name.
  case otherName
  /// The secure connection failed otherwise (no common protocol or cipher, a broken handshake).
  case handshake

  /// Reads libcurl's TLS error text (which swift-corelibs-foundation passes on as the error's description, with the
  /// code `URLError.unknown`); nil when it is not about TLS.
  public init?(transportMessage text: String) {
    let lowered = text.lowercased()
    guard
      lowered.hasPrefix("ssl") || lowered.hasPrefix("openssl") || lowered.contains("certificate")
        || lowered.hasPrefix("tls")
    else { return nil }
    if lowered.contains("expired") || lowered.contains("not yet valid") {
      self = .expired
    } else if lowered.contains("name") && (lowered.contains("match") || lowered.contains("subject")) {
      self = .otherName
    } else if lowered.contains("certificate") || lowered.contains("issuer") {
      self = .notTrusted
    } else {
      self = .handshake
    }
  }

  /// Reads `GTlsCertificateFlags` (GIO's, as WebKitGTK and libsoup report them).
  public init(tlsFlags flags: UInt32) {
    if flags & (4 | 8) != 0 {  // G_TLS_CERTIFICATE_NOT_ACTIVATED, _EXPIRED
      self = .expired
    } else if flags & 2 != 0 {  // G_TLS_CERTIFICATE_BAD_IDENTITY
      self = .otherName
    } else if flags & (1 | 16 | 32) != 0 {  // _UNKNOWN_CA, _REVOKED, _INSECURE
      self = .notTrusted
    } else {
      self = .handshake
    }
  }

  /// One line for the user, naming `host`.
  public func message(host: String) -> String {
    switch self {
    case .notTrusted:
      return String(
        format: tr(
          "The identity of %@ cannot be verified: its certificate is not from an authority this computer trusts. Nothing was sent to it."
        ), host)
    case .expired:
      return String(
        format: tr(
          "The identity of %@ cannot be verified: its certificate has expired or is not valid yet. Nothing was sent to it."
        ), host)
    case .otherName:
      return String(
        format: tr(
          "The identity of %@ cannot be verified: its certificate was made out for another name. Nothing was sent to it."
        ), host)
    case .handshake:
      return String(format: tr("A secure connection to %@ could not be made. Nothing was sent to it."), host)
    }
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
}

/// Sends requests with a timeout and no cookies, caches or redirects followed (the token endpoint and the task API
/// never redirect; a redirect is an answer to report, not to follow).
public final class HTTPClient: Sendable {
  private let session: URLSession
  /// Seconds to wait for an answer.
  public let timeout: TimeInterval

  /// Creates a client whose requests time out after `timeout` seconds.
  public init(timeout: TimeInterval = 20) {
    self.timeout = timeout
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpShouldSetCookies = false
    configuration.httpCookieAcceptPolicy = .never
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.timeoutIntervalForRequest = timeout
    configuration.timeoutIntervalForResource = timeout * 2
    let delegate = RedirectRefuser()
    session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
  }

  /// A client shared by the whole process.
  public static let shared = HTTPClient()

  /// Sends `request`.
  public func send(_ request: URLRequest) async throws(NetworkError) -> HTTPAnswer {
    var request = request
    request.timeoutInterval = timeout
    do {
      let (data, response) = try await session.data(for: request)
      guard let http = response as? HTTPURLResponse else { throw NetworkError.failed("not an HTTP answer") }
      var headers: [String: String] = [:]
      for (key, value) in http.allHeaderFields { headers["\(key)".lowercased()] = "\(value)" }
      return HTTPAnswer(status: http.statusCode, body: data, headers: headers)
    } catch let error as NetworkError {
      throw error
    } catch let error as URLError {
      switch error.code {
      case .timedOut: throw .timedOut
      case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .networkConnectionLost, .notConnectedToInternet:
        throw .unreachable(error.code.rawValue.description)
      case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
        .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
        .clientCertificateRequired:
        throw .untrusted(
          host: Self.hostName(request.url),
          CertificateProblem(transportMessage: error.localizedDescription) ?? .handshake)
      default:
        if let problem = CertificateProblem(transportMessage: error.localizedDescription) {
          throw .untrusted(host: Self.hostName(request.url), problem)
        }
        throw .failed("URL error \(error.code.rawValue)")
      }
    } catch {
      throw .failed("\(type(of: error))")
    }
  }

  /// `host` or `host:port` of `url`, as a user would recognise it.
  public static func hostName(_ url: URL?) -> String {
    guard let host = url?.host(percentEncoded: false) else { return "?" }
    let shown = host.contains(":") ? "[\(host)]" : host
    return url?.port.map { "\(shown):\($0)" } ?? shown
  }

  /// POSTs `fields` form-encoded to `url`.
  public func postForm(_ url: URL, _ fields: [(String, String)]) async throws(NetworkError) -> HTTPAnswer {
    var request = URLRequest(url: url)
    request.httpMethod = "POST"
    request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(FormEncoding.encode(fields).utf8)
    return try await send(request)
  }

  /// GETs `url`.
  public func get(_ url: URL) async throws(NetworkError) -> HTTPAnswer {
    try await send(URLRequest(url: url))
  }
}

/// Stops URLSession from following redirects.
private final class RedirectRefuser: NSObject, URLSessionTaskDelegate, Sendable {
  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }
}

/// `application/x-www-form-urlencoded`.
enum FormEncoding {
  private static let unreserved = CharacterSet(
    charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

  static func encode(_ fields: [(String, String)]) -> String {
    fields.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
  }

  static func escape(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
  }
}

// URLSessionTransport: the core's HTTP over Foundation's URLSession (libcurl), for b2c-tasks-cli and the tests.
// Sendable.

import Foundation
import TasksCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends requests through an ephemeral URLSession: no cookies, no cache, redirects not followed.
public final class URLSessionTransport: HTTPTransport {
  private let session: URLSession
  /// Seconds the server may stay silent before a request fails with `.timedOut`.
  public let timeout: TimeInterval

  /// A transport whose requests time out after `timeout` seconds of silence.
  public init(timeout: TimeInterval = 20) {
    self.timeout = timeout
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpShouldSetCookies = false
    configuration.httpCookieAcceptPolicy = .never
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.timeoutIntervalForRequest = timeout
    configuration.timeoutIntervalForResource = timeout * 2
    session = URLSession(configuration: configuration, delegate: RedirectRefuser(), delegateQueue: nil)
  }

  public func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPAnswer {
    var urlRequest = URLRequest(url: request.url)
    urlRequest.httpMethod = request.method
    urlRequest.timeoutInterval = timeout
    for (name, value) in request.headers { urlRequest.addValue(value, forHTTPHeaderField: name) }
    urlRequest.httpBody = request.body
    do {
      let (data, response) = try await session.data(for: urlRequest)
      guard let http = response as? HTTPURLResponse else { throw NetworkError.failed("not an HTTP answer") }
      var headers: [String: String] = [:]
      for (key, value) in http.allHeaderFields { headers["\(key)".lowercased()] = "\(value)" }
      return HTTPAnswer(status: http.statusCode, body: data, headers: headers)
    } catch let error as NetworkError {
      throw error
    } catch let error as URLError {
      throw Self.mapped(error, host: HTTPClient.hostName(request.url))
    } catch {
      throw .failed("\(type(of: error))")
    }
  }

  private static func mapped(_ error: URLError, host: String) -> NetworkError {
    switch error.code {
    case .timedOut: return .timedOut
    case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .networkConnectionLost, .notConnectedToInternet:
      return .unreachable(error.code.rawValue.description)
    case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
      .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
      .clientCertificateRequired:
      return .untrusted(host: host, CertificateProblem(transportMessage: error.localizedDescription) ?? .handshake)
    default:
      if let problem = CertificateProblem(transportMessage: error.localizedDescription) {
        return .untrusted(host: host, problem)
      }
      return .failed("URL error \(error.code.rawValue)")
    }
  }
}

extension HTTPClient {
  /// A client over URLSession whose requests time out after `timeout` seconds of silence.
  public static func urlSession(timeout: TimeInterval = 20) -> HTTPClient {
    HTTPClient(URLSessionTransport(timeout: timeout))
  }

  /// One URLSession client for the whole process.
  public static let shared = HTTPClient.urlSession()
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

// URLSessionTransport: the core's HTTP over Foundation's URLSession (libcurl), for the tests and the fuzzing harness
// (b2c-tasks-cli uses libsoup: libcurl inflates a whole gzip answer before the delegate can refuse it).
// Sendable.

import Foundation
import Synchronization
import TasksCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends requests through an ephemeral URLSession: no cookies, no cache, redirects not followed.
public final class URLSessionTransport: HTTPTransport {
  private let session: URLSession
  private let collector: AnswerCollector
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
    // A whole exchange: a long poll's silence (`HTTPRequest.timeout`, a few minutes) and its answer fit.
    configuration.timeoutIntervalForResource = max(timeout * 2, 600)
    let collector = AnswerCollector()
    self.collector = collector
    session = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
  }

  public func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPAnswer {
    var urlRequest = URLRequest(url: request.url)
    urlRequest.httpMethod = request.method
    urlRequest.timeoutInterval = request.timeout ?? timeout
    for (name, value) in request.headers { urlRequest.addValue(value, forHTTPHeaderField: name) }
    urlRequest.httpBody = request.body
    let task = session.dataTask(with: urlRequest)
    // A cancelled request ends at once, as cancelled, whatever libcurl's driver then reports (a read of the feed
    // given up while its next page was on its way once waited for good: the driver's completion never came).
    let outcome = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        if collector.begin(task, limit: request.maxResponseBytes, continuation) { task.resume() }
      }
    } onCancel: {
      collector.cancel(task)
    }
    switch outcome {
    case .answer(let response, let data):
      guard let http = response as? HTTPURLResponse else { throw .failed("not an HTTP answer") }
      var headers: [String: String] = [:]
      for (key, value) in http.allHeaderFields { headers["\(key)".lowercased()] = "\(value)" }
      return HTTPAnswer(status: http.statusCode, body: data, headers: headers)
    case .tooLarge(let limit):
      throw .tooLarge(limit: limit)
    case .failed(let error as URLError):
      throw Self.mapped(error, host: HTTPClient.hostName(request.url))
    case .failed(let error):
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
      return .untrusted(host: host, CertificateProblem(curlMessage: error.localizedDescription) ?? .handshake)
    default:
      if let problem = CertificateProblem(curlMessage: error.localizedDescription) {
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

/// The session's delegate: follows no redirect, and collects each task's answer as it arrives, cancelling one that
/// grows past its request's limit (URLSession has already decoded a compressed body by then).
private final class AnswerCollector: NSObject, URLSessionDataDelegate, Sendable {
  /// How a task ended.
  enum Outcome: Sendable {
    case answer(URLResponse?, Data)
    case tooLarge(Int)
    case failed(any Error)
  }

  private struct Collecting {
    let limit: Int
    var data = Data()
    var response: URLResponse?
    var tooLarge = false
    let continuation: CheckedContinuation<Outcome, Never>
  }
  private struct State {
    var tasks: [Int: Collecting] = [:]
    /// Tasks cancelled before they began.
    var cancelled: Set<Int> = []
  }
  private let state = Mutex(State())

  /// Collects `task`'s answer for `continuation`; false (the continuation answered, cancelled) if it was cancelled
  /// before: then it is not to be resumed.
  func begin(_ task: URLSessionTask, limit: Int, _ continuation: CheckedContinuation<Outcome, Never>) -> Bool {
    let begun = state.withLock { state in
      guard state.cancelled.remove(task.taskIdentifier) == nil else { return false }
      state.tasks[task.taskIdentifier] = Collecting(limit: limit, continuation: continuation)
      return true
    }
    if !begun { continuation.resume(returning: .failed(URLError(.cancelled))) }
    return begun
  }

  /// Ends `task`'s wait now, as cancelled, and cancels it.
  func cancel(_ task: URLSessionTask) {
    let entry = state.withLock { state in
      guard let entry = state.tasks.removeValue(forKey: task.taskIdentifier) else {
        state.cancelled.insert(task.taskIdentifier)
        return Collecting?.none
      }
      return entry
    }
    entry?.continuation.resume(returning: .failed(URLError(.cancelled)))
    task.cancel()
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    state.withLock { $0.tasks[dataTask.taskIdentifier]?.response = response }
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let over = state.withLock { state -> Bool in
      guard var entry = state.tasks[dataTask.taskIdentifier], !entry.tooLarge else { return false }
      if entry.data.count + data.count > entry.limit {
        entry.tooLarge = true
        entry.data = Data()
      } else {
        entry.data.append(data)
      }
      state.tasks[dataTask.taskIdentifier] = entry
      return entry.tooLarge
    }
    if over { dataTask.cancel() }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    let entry = state.withLock { state in
      state.cancelled.remove(task.taskIdentifier)
      return state.tasks.removeValue(forKey: task.taskIdentifier)
    }
    guard let entry else { return }
    if entry.tooLarge {
      entry.continuation.resume(returning: .tooLarge(entry.limit))
    } else if let error {
      entry.continuation.resume(returning: .failed(error))
    } else {
      entry.continuation.resume(returning: .answer(entry.response ?? task.response, entry.data))
    }
  }
}

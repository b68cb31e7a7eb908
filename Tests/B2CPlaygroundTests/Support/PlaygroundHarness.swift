// PlaygroundHarness: a playground on a free loopback port with its own data folder, and a browser-like HTTP client.

import B2CPlayground
import Foundation
import Logging
import TasksTestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A running playground for one test; call `stop()` at the end.
struct PlaygroundHarness {
  static let clientID = PlaygroundConfiguration.appClientID
  static let tenant = "b2ctasks.onmicrosoft.com"
  static let signIn = "B2C_1_SignUpOrSignIn"
  static let reset = "B2C_1_PasswordReset"
  static let edit = "B2C_1_EditProfile"
  static let oob = "urn:ietf:wg:oauth:2.0:oob"

  let running: RunningPlayground
  let data: URL
  var base: URL { running.baseURL }

  /// Starts a playground; `adjust` changes the test configuration (fast password hashing, port 0).
  static func start(_ adjust: (inout PlaygroundConfiguration) -> Void = { _ in }) async throws -> PlaygroundHarness {
    let data = try TestDesktop.temporaryFolder("playground")
    var configuration = PlaygroundConfiguration(dataDirectory: data)
    configuration.port = 0
    configuration.passwordHashCost = 4
    adjust(&configuration)
    var logger = Logger(label: "b2c-playground-test")
    logger.logLevel = .warning
    let playground = try await Playground(configuration: configuration, logger: logger)
    return PlaygroundHarness(running: try await playground.start(), data: data)
  }

  func stop() async {
    await running.stop()
    try? FileManager.default.removeItem(at: data)
  }

  /// `http://127.0.0.1:PORT/{tenant}/{policy}/oauth2/v2.0/{endpoint}` (path form).
  func endpoint(_ endpoint: String, policy: String = signIn) -> URL {
    base.appending(path: "\(Self.tenant)/\(policy)/oauth2/v2.0/\(endpoint)")
  }

  /// `…/{tenant}/oauth2/v2.0/{endpoint}?p={policy}` (the sample's query form).
  func queryFormEndpoint(_ endpoint: String, policy: String = signIn) -> URL {
    var components = URLComponents(
      url: base.appending(path: "\(Self.tenant)/oauth2/v2.0/\(endpoint)"), resolvingAgainstBaseURL: false)!
    components.queryItems = [URLQueryItem(name: "p", value: policy)]
    return components.url!
  }
}

/// An HTTP answer.
struct HTTPAnswer {
  var status: Int
  var headers: [String: String]
  var body: Data
  var text: String { String(decoding: body, as: UTF8.self) }
  var location: String? { headers["location"] }
  func json() throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any], "not a JSON object: \(text)")
  }
}

/// A browser-like client: keeps cookies, does not follow redirects (the app's web view stops at them too).
final class Browser: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
  private var session: URLSession!
  private let lock = NSLock()
  private var cookies: [String: String] = [:]
  var acceptLanguage: String?

  override init() {
    super.init()
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpShouldSetCookies = false
    configuration.httpCookieAcceptPolicy = .never
    session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }

  func get(_ url: URL, headers: [String: String] = [:]) async throws -> HTTPAnswer {
    try await send(URLRequest(url: url), headers: headers)
  }

  func post(_ url: URL, form: [(String, String)], headers: [String: String] = [:]) async throws -> HTTPAnswer {
    var request = URLRequest(url: url)
    request.httpMethod = "POST"
    request.httpBody = Data(Browser.formEncode(form).utf8)
    var headers = headers
    headers["Content-Type"] = headers["Content-Type"] ?? "application/x-www-form-urlencoded"
    return try await send(request, headers: headers)
  }

  func send(_ request: URLRequest, headers: [String: String] = [:]) async throws -> HTTPAnswer {
    var request = request
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    if let acceptLanguage { request.setValue(acceptLanguage, forHTTPHeaderField: "Accept-Language") }
    let jar = lock.withLock { cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
    if !jar.isEmpty { request.setValue(jar, forHTTPHeaderField: "Cookie") }
    let (data, response) = try await session.data(for: request)
    let http = try #require(response as? HTTPURLResponse)
    var fields: [String: String] = [:]
    for (key, value) in http.allHeaderFields { fields["\(key)".lowercased()] = "\(value)" }
    if let setCookie = fields["set-cookie"] { remember(setCookie) }
    return HTTPAnswer(status: http.statusCode, headers: fields, body: data)
  }

  /// The names of the cookies the browser holds.
  var cookieNames: Set<String> { lock.withLock { Set(cookies.keys) } }

  private func remember(_ header: String) {
    for cookie in header.split(separator: ",") {
      let pair = cookie.split(separator: ";").first ?? ""
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard parts.count == 2 else { continue }
      let expired = cookie.lowercased().contains("max-age=0")
      lock.withLock { cookies[parts[0]] = expired || parts[1].isEmpty ? nil : parts[1] }
    }
  }

  static func formEncode(_ pairs: [(String, String)]) -> String {
    let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
    return pairs.map { name, value in
      "\(name.addingPercentEncoding(withAllowedCharacters: allowed)!)=\(value.addingPercentEncoding(withAllowedCharacters: allowed)!)"
    }.joined(separator: "&")
  }
}

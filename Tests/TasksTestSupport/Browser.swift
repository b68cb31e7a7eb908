// Browser: a browser-like HTTP client for tests (cookies kept, redirects not followed), and readers for the
// playground's pages and redirects.

import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An HTTP answer.
public struct HTTPAnswer: Sendable {
  public var status: Int
  public var headers: [String: String]
  public var body: Data
  public var text: String { String(decoding: body, as: UTF8.self) }

  public init(status: Int, headers: [String: String], body: Data) {
    self.status = status
    self.headers = headers
    self.body = body
  }
  public var location: String? { headers["location"] }
  public func json() throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any], "not a JSON object: \(text)")
  }
}

/// A browser-like client: keeps cookies, does not follow redirects (the app's web view stops at them too).
public final class Browser: @unchecked Sendable {
  private let session: URLSession
  private let lock = NSLock()
  private var cookies: [String: String] = [:]
  public var acceptLanguage: String?

  public init() {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpShouldSetCookies = false
    configuration.httpCookieAcceptPolicy = .never
    // Not the browser itself: a session holds its delegate until it is invalidated, so a browser that was its own
    // session's delegate never went, nor its connections and libcurl's handle (a whole test run held 2 500
    // descriptors, 800 of them connections the servers had closed).
    session = URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
  }

  private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
      _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
      newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
      completionHandler(nil)
    }
  }

  public func get(_ url: URL, headers: [String: String] = [:]) async throws -> HTTPAnswer {
    try await send(URLRequest(url: url), headers: headers)
  }

  public func post(_ url: URL, form: [(String, String)], headers: [String: String] = [:]) async throws -> HTTPAnswer {
    var request = URLRequest(url: url)
    request.httpMethod = "POST"
    request.httpBody = Data(Browser.formEncode(form).utf8)
    var headers = headers
    headers["Content-Type"] = headers["Content-Type"] ?? "application/x-www-form-urlencoded"
    return try await send(request, headers: headers)
  }

  public func send(_ request: URLRequest, headers: [String: String] = [:]) async throws -> HTTPAnswer {
    var request = request
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    if let acceptLanguage { request.setValue(acceptLanguage, forHTTPHeaderField: "Accept-Language") }
    let jar = lock.withLock { cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
    if !jar.isEmpty { request.setValue(jar, forHTTPHeaderField: "Cookie") }
    let (data, response): (Data, URLResponse)
    do {
      do {
        (data, response) = try await session.data(for: request)
      } catch let error as URLError where request.httpMethod ?? "GET" == "GET" && Browser.isPollFailure(error) {
        // Foundation's libcurl driver sometimes fails a request on loopback with "select/poll returned error" before
        // anything is sent (seen once in a loaded run of 957c3d3, on the authorize GET). A GET is sent once more.
        (data, response) = try await session.data(for: request)
      }
    } catch let error as URLError where error.code == .unknown {
      throw Browser.counted(error)
    }
    let http = try #require(response as? HTTPURLResponse)
    var fields: [String: String] = [:]
    for (key, value) in http.allHeaderFields { fields["\(key)".lowercased()] = "\(value)" }
    if let setCookie = fields["set-cookie"] { remember(setCookie) }
    return HTTPAnswer(status: http.statusCode, headers: fields, body: data)
  }

  /// `error` (libcurl's failure for any cause but a refusal or a timeout: a full descriptor table among them, as in
  /// a CI run of 560554c) saying how many descriptors this process holds.
  private static func counted(_ error: URLError) -> URLError {
    // Counting needs a descriptor too: none to be had is the answer.
    let open =
      (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count).map {
        "this process holds \($0) descriptors"
      } ?? "this process could not open a descriptor to count its own: its table is full"
    var info = error.userInfo
    info[NSLocalizedDescriptionKey] = "\(error.localizedDescription) (\(open))"
    return URLError(error.code, userInfo: info)
  }

  private static func isPollFailure(_ error: URLError) -> Bool {
    error.code == .unknown && error.localizedDescription.contains("select/poll")
  }

  /// The names of the cookies the browser holds.
  public var cookieNames: Set<String> { lock.withLock { Set(cookies.keys) } }

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

  public static func formEncode(_ pairs: [(String, String)]) -> String {
    let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
    return pairs.map { name, value in
      "\(name.addingPercentEncoding(withAllowedCharacters: allowed)!)=\(value.addingPercentEncoding(withAllowedCharacters: allowed)!)"
    }.joined(separator: "&")
  }
}

/// What a redirect to the app carried.
public struct RedirectResult: Sendable {
  public var target: String
  public var parameters: [String: String]
  public var code: String? { parameters["code"] }
  public var error: String? { parameters["error"] }
  public var errorDescription: String? { parameters["error_description"] }

  public init(_ location: String) {
    target = String(location.split(separator: "?", maxSplits: 1).first ?? "")
    parameters = [:]
    if let query = location.split(separator: "?", maxSplits: 1).dropFirst().first {
      for pair in query.split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1).map {
          String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
        }
        parameters[parts[0]] = parts.count > 1 ? parts[1] : ""
      }
    }
  }
}

/// Reads forms out of the playground's HTML.
public enum HTMLForm {
  /// The value of the hidden `name` input.
  public static func hidden(_ name: String, in html: String) -> String? {
    guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
    let rest = html[range.upperBound...]
    return rest.split(separator: "\"", maxSplits: 1).first.map {
      String($0).replacingOccurrences(of: "&amp;", with: "&")
    }
  }

  /// Every hidden input of the page's form, as a browser posts them (`tx`, `step`, and any other), in order.
  public static func hiddenFields(in html: String) -> [(String, String)] {
    html.components(separatedBy: "<input type=\"hidden\" name=\"").dropFirst().compactMap { rest in
      let name = rest.prefix { $0 != "\"" }
      return hidden(String(name), in: html).map { (String(name), $0) }
    }
  }

  /// The `href` of the link with `id`.
  public static func link(_ id: String, in html: String) -> String? {
    guard let range = html.range(of: "id=\"\(id)\" href=\"") else { return nil }
    return html[range.upperBound...].split(separator: "\"", maxSplits: 1).first.map {
      String($0).replacingOccurrences(of: "&amp;", with: "&")
    }
  }

  /// The text of the page-level error, if the page shows one.
  public static func error(in html: String) -> String? {
    guard let range = html.range(of: "id=\"error\" role=\"alert\">") else { return nil }
    return html[range.upperBound...].split(separator: "<", maxSplits: 1).first.map { unescape(String($0)) }
  }

  /// Text with the playground's HTML escapes undone.
  public static func unescape(_ text: String) -> String {
    text.replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&quot;", with: "\"")
      .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&amp;", with: "&")
  }

  /// The form's action.
  public static func action(in html: String) -> String? {
    guard let range = html.range(of: "method=\"post\" action=\"") else { return nil }
    return html[range.upperBound...].split(separator: "\"", maxSplits: 1).first.map(String.init)
  }
}

/// Signs in on the playground's pages the way a person in a browser does, starting from an authorize URL, and
/// answers the URL B2C's pages finally send the browser to (the app's redirect, which a web view would intercept).
public struct PageWalker: Sendable {
  /// The browser (cookies persist across walks: B2C's SSO session).
  public let browser: Browser

  /// Creates a walker with its own browser.
  public init(browser: Browser = Browser()) {
    self.browser = browser
  }

  /// Opens `url`; follows redirects within the playground's own pages; answers the final page or redirect.
  public func open(_ url: URL) async throws -> HTTPAnswer {
    try await browser.get(url)
  }

  /// Opens `url` and, if a sign-in form shows, signs in with `email` and `password`; answers the `Location` the pages
  /// redirect to.
  public func signIn(_ url: URL, email: String, password: String) async throws -> String {
    let page = try await open(url)
    if page.status == 302 { return try #require(page.location) }
    let answer = try await submit(page, at: url, [("email", email), ("password", password)])
    try #require(answer.status == 302, "sign-in answered \(answer.status): \(HTMLForm.error(in: answer.text) ?? "")")
    return try #require(answer.location)
  }

  /// Submits the form on `page` (which came from `origin`) with `fields` besides its hidden `tx` and `step`.
  public func submit(_ page: HTTPAnswer, at origin: URL, _ fields: [(String, String)]) async throws -> HTTPAnswer {
    try #require(HTMLForm.hidden("tx", in: page.text) != nil, "no form on the page: \(page.text.prefix(300))")
    let action = try #require(HTMLForm.action(in: page.text))
    let target = try #require(URL(string: action, relativeTo: origin)?.absoluteURL)
    return try await browser.post(target, form: HTMLForm.hiddenFields(in: page.text) + fields)
  }

  /// Follows the link with `id` on `page` (which came from `origin`).
  public func follow(_ id: String, on page: HTTPAnswer, at origin: URL) async throws -> HTTPAnswer {
    let href = try #require(HTMLForm.link(id, in: page.text), "no link \(id)")
    return try await browser.get(try #require(URL(string: href, relativeTo: origin)?.absoluteURL))
  }
}

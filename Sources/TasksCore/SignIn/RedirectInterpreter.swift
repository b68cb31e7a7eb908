// RedirectInterpreter: tells whether a URL a web view (or the loopback listener) sees ends a sign-in, and how.
// Value type; any thread; synchronous, so a WebKit decide-policy handler can call it directly.

import FoundationEssentials

/// What a URL means to a sign-in in progress.
public enum RedirectOutcome: Equatable, Sendable {
  /// Not our redirect URI: let the web view load it.
  case notOurs
  /// Our redirect with an authorization code and the right state.
  case code(String)
  /// Our redirect, carrying an error or something wrong.
  case failure(AuthorizationFailure)
}

/// Why a sign-in ended without a code.
public enum AuthorizationFailure: Error, Equatable, Sendable {
  /// `AADB2C90118`: the user chose "Forgot your password?".
  case forgotPassword
  /// `AADB2C90091` (B2C), or `access_denied` from another provider: the user pressed Cancel. Not an error to show.
  case cancelled
  /// The redirect's `state` is missing or is not the one this sign-in sent: it belongs to another sign-in, or
  /// someone forged it.
  case stateMismatch
  /// Our redirect with neither a code nor an error.
  case malformed
  /// Any other error B2C reported.
  case service(ServiceError)
  /// No answer came back from the system browser in time (the app stopped listening for it).
  case timedOut
  /// The one-time address that starts a sign-in in the system browser was opened a second time: another program
  /// may have taken the sign-in over, so it was stopped.
  case openedTwice
}

/// Interprets URLs against the redirect URI and state of one authorize request.
///
/// Matching is by scheme (case-insensitive) and path, never by substring: `urn:ietf:wg:oauth:2.0:oob`; a loopback
/// `http://127.0.0.1:PORT/PATH` (any port when the registered URI names none); a reverse-DNS custom scheme (WebKit
/// lower-cases schemes, so case never matters).
public struct RedirectInterpreter: Sendable {
  /// The redirect URI of the request.
  public let redirectURI: RedirectURI
  /// The `state` the request sent.
  public let expectedState: String
  /// The kind of provider: B2C's `AADB2C` codes are read only from B2C.
  public let provider: Authority.Provider

  /// Creates an interpreter for one authorize request.
  public init(redirectURI: RedirectURI, expectedState: String, provider: Authority.Provider = .b2c) {
    self.redirectURI = redirectURI
    self.expectedState = expectedState
    self.provider = provider
  }

  /// What `url` means for this sign-in.
  public func interpret(_ url: String) -> RedirectOutcome {
    guard let query = matchingQuery(url) else { return .notOurs }
    let parameters = Self.parameters(query)
    guard let state = parameters["state"], !state.isEmpty, Self.constantTimeEqual(state, expectedState) else {
      return .failure(.stateMismatch)
    }
    if let error = parameters["error"] {
      let serviceError = ServiceError(error: error, description: parameters["error_description"])
      switch (provider, serviceError.code) {
      case (.b2c, ServiceError.forgotPasswordCode): return .failure(.forgotPassword)
      case (.b2c, ServiceError.cancelledCode): return .failure(.cancelled)
      // RFC 6749 §4.1.2.1: the user (or the provider on their behalf) refused; its pages offer no other way out.
      case (.externalID, _) where error == "access_denied", (.openID, _) where error == "access_denied":
        return .failure(.cancelled)
      default: return .failure(.service(serviceError))
      }
    }
    guard let code = parameters["code"], !code.isEmpty else { return .failure(.malformed) }
    return .code(code)
  }

  /// The query of `url` when it is our redirect (empty when it has none), else nil.
  private func matchingQuery(_ url: String) -> String? {
    let withoutFragment = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    let parts = withoutFragment.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    let target = String(parts.first ?? "")
    let query = parts.count > 1 ? String(parts[1]) : ""
    switch redirectURI.kind {
    case .outOfBand:
      return target.lowercased() == RedirectURI.outOfBand.value ? query : nil
    case .loopback, .customScheme:
      guard let given = URLComponents(string: target), let registered = URLComponents(string: redirectURI.value),
        given.scheme?.lowercased() == registered.scheme?.lowercased(),
        given.host?.lowercased() == registered.host?.lowercased(), given.user == nil, given.password == nil,
        Self.path(given.path) == Self.path(registered.path)
      else { return nil }
      if redirectURI.kind == .loopback, let port = registered.port, given.port != port { return nil }
      if redirectURI.kind == .customScheme, given.port != registered.port { return nil }
      return query
    }
  }

  private static func path(_ path: String) -> String { path.isEmpty ? "/" : path }

  /// Query parameters (first value wins), `+` as space, percent-escapes decoded.
  static func parameters(_ query: String) -> [String: String] {
    var result: [String: String] = [:]
    for pair in query.split(separator: "&") {
      let pieces = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard let name = decode(pieces[0]), result[name] == nil else { continue }
      result[name] = pieces.count > 1 ? decode(pieces[1]) ?? "" : ""
    }
    return result
  }

  private static func decode(_ text: Substring) -> String? {
    String(text.replacing("+", with: " ")).percentDecoded
  }

  private static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    guard x.count == y.count else { return false }
    return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
  }
}

// B2CError: errors in the shape Azure AD B2C gives them. Value type; any thread.

import Foundation

/// An error as B2C reports it: an OAuth `error` and an `error_description` that starts with an `AADB2C` code and ends
/// with a correlation id and a timestamp.
struct B2CError: Error, Sendable {
  /// The OAuth error (`invalid_request`, `invalid_grant`, `access_denied`, …).
  var error: String
  /// The B2C code, e.g. `AADB2C90080`.
  var code: String
  /// The message after the code.
  var message: String
  /// The HTTP status of a token-endpoint answer.
  var status: Int = 400
  /// The id a user quotes to support.
  var correlationID = UUID().uuidString.lowercased()
  /// When it happened.
  var timestamp = Date()

  /// `AADB2C90080: message\r\nCorrelation ID: …\r\nTimestamp: 2026-11-22 04:13:58Z\r\n`, as B2C writes it.
  var description: String {
    // `self.code` is B2C's error code (AADB2C…), never an authorization code.
    "\(self.code): \(message)\r\nCorrelation ID: \(correlationID)\r\nTimestamp: \(B2CError.timestampFormat(timestamp))\r\n"
  }

  /// The token endpoint's JSON body.
  var json: [String: String] { ["error": error, "error_description": description] }

  static func timestampFormat(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    return String(
      format: "%04d-%02d-%02d %02d:%02d:%02dZ", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0,
      c.second ?? 0)
  }

  // MARK: The errors the playground gives

  static func missingParameter(_ name: String) -> B2CError {
    B2CError(
      error: "invalid_request", code: "AADB2C90083", message: "The request is missing required parameter: \(name).")
  }
  static func redirectNotRegistered(_ uri: String, client: String) -> B2CError {
    B2CError(
      error: "invalid_request", code: "AADB2C90006",
      message: "The redirect URI '\(uri)' provided in the request is not registered for the client ID '\(client)'.")
  }
  static func unknownClient(_ client: String, tenant: String) -> B2CError {
    B2CError(
      error: "invalid_client", code: "AADB2C90018",
      message: "The client ID '\(client)' specified in the request is not registered in tenant '\(tenant)'.")
  }
  static func clientMismatch(_ given: String, expected: String) -> B2CError {
    B2CError(
      error: "invalid_grant", code: "AADB2C90011",
      message:
        "The client ID '\(given)' provided in the request does not match client ID '\(expected)' registered in policy.")
  }
  static func unsupportedResponseType(_ type: String) -> B2CError {
    B2CError(
      error: "unsupported_response_type", code: "AADB2C90013",
      message: "The requested response type '\(type)' provided in the request is not supported.")
  }
  static func unsupportedResponseMode(_ mode: String) -> B2CError {
    B2CError(
      error: "invalid_request", code: "AADB2C90014",
      message: "The requested response mode '\(mode)' provided in the request is not supported.")
  }
  static func unsupportedScope(_ scope: String) -> B2CError {
    B2CError(
      error: "invalid_scope", code: "AADB2C90117",
      message: "The scope '\(scope)' provided in the request is not supported.")
  }
  static let scopeWithoutResource = B2CError(
    error: "invalid_request", code: "AADB2C90115",
    message:
      "When requesting the 'code' response_type, the scope parameter must include a resource or client ID for access tokens, and 'openid' for ID tokens. Additionally include 'offline_access' for refresh tokens."
  )
  static let invalidPrompt = B2CError(
    error: "invalid_request", code: "AADB2C90043",
    message:
      "The prompt included in the request contains invalid values. Expected 'none', 'login', 'consent' or 'select_account'."
  )
  static let noSessionForPromptNone = B2CError(
    error: "login_required", code: "AADB2C90077",
    message: "User does not have an existing session and request prompt parameter has a value of 'none'.")
  static let challengeRequired = B2CError(
    error: "invalid_request", code: "AADB2C99059",
    message:
      "The supplied request must present a code_challenge. Required for single-page apps using the authorization code flow."
  )
  static let unsupportedChallengeMethod = B2CError(
    error: "invalid_request", code: "AADB2C90184",
    message: "The supplied code_challenge_method is not supported. Supported values are plain or S256")
  static let verifierMismatch = B2CError(
    error: "invalid_grant", code: "AADB2C90182",
    message: "The supplied code_verifier does not match associated code_challenge")
  static let verifierInvalid = B2CError(
    error: "invalid_grant", code: "AADB2C90183", message: "The supplied code_verifier is invalid")
  static let publicClientSecret = B2CError(
    error: "invalid_request", code: "AADB2C90084",
    message: "Public clients should not send a client_secret when redeeming a publicly acquired grant.")
  static func unsupportedGrantType(_ type: String) -> B2CError {
    B2CError(
      error: "unsupported_grant_type", code: "AADB2C90086",
      message: "The supplied grant_type [\(type)] is not supported.")
  }
  static func expiredGrant(issued: Date, slidingExpiry: Date, now: Date = Date()) -> B2CError {
    B2CError(
      error: "invalid_grant", code: "AADB2C90080",
      message:
        "The provided grant has expired. Please re-authenticate and try again. Current time: \(Int(now.timeIntervalSince1970)), Grant issued time: \(Int(issued.timeIntervalSince1970)), Grant sliding window expiration time: \(Int(slidingExpiry.timeIntervalSince1970))."
    )
  }
  static let unknownGrant = B2CError(
    error: "invalid_grant", code: "AADB2C90087",
    message: "The provided grant has not been issued for this version of the protocol endpoint.")
  static func grantForOtherPolicy(actual: String, expected: String) -> B2CError {
    B2CError(
      error: "invalid_grant", code: "AADB2C90088",
      message:
        "The provided grant has not been issued for this endpoint. Actual Value : \(actual) and Expected Value : \(expected)"
    )
  }
  static let revokedGrant = B2CError(
    error: "invalid_grant", code: "AADB2C90129",
    message: "The provided grant has been revoked. Please reauthenticate and try again.")
  static let accountGone = B2CError(
    error: "invalid_grant", code: "AADB2C90128",
    message: "The account associated with this grant no longer exists. Please reauthenticate and try again.")
  static let forgotPassword = B2CError(
    error: "access_denied", code: "AADB2C90118", message: "The user has forgotten their password.")
  static let cancelled = B2CError(
    error: "access_denied", code: "AADB2C90091", message: "The user has cancelled entering self-asserted information.")
  static let stateLost = B2CError(
    error: "server_error", code: "AADB2C90046",
    message:
      "We are having trouble loading your current state. You might want to try starting your session over from the beginning."
  )
  static func invalidPostLogoutRedirect(_ uri: String) -> B2CError {
    B2CError(
      error: "invalid_request", code: "AADB2C90067",
      message:
        "The post logout redirect URI '\(uri)' has an invalid format. Specify an https based URL such as 'https://example.com/return' or for native clients use the IETF native client URI 'urn:ietf:wg:oauth:2.0:oob'."
    )
  }
  static func unknownPolicy(_ policy: String, tenant: String) -> B2CError {
    B2CError(
      error: "invalid_request", code: "AADB2C90022",
      message: "Unable to return metadata for the policy '\(policy)' in tenant '\(tenant)'.", status: 404)
  }
  static func unknownTenant(_ tenant: String) -> B2CError {
    B2CError(
      error: "invalid_tenant", code: "AADB2C90037", message: "The tenant '\(tenant)' was not found.", status: 404)
  }
  static func invalidInput(_ name: String) -> B2CError {
    B2CError(
      error: "invalid_request", code: "AADB2C90122",
      message: "Input for '\(name)' received in the request has failed HTTP request validation.")
  }
}

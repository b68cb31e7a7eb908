// TokenResponse: the token endpoint's answer, parsed strictly but tolerantly. Value type; any thread.

import FoundationEssentials

/// A successful token-endpoint answer (PROTOCOL.md §4). Numbers may arrive as JSON integers or strings.
public struct TokenResponse: Equatable, Sendable {
  /// The access token (present when a resource scope was asked for).
  public var accessToken: String?
  /// The id_token (present when `openid` was asked for).
  public var idToken: String?
  /// The refresh token (present when `offline_access` was asked for).
  public var refreshToken: String?
  /// Seconds until the access (or id) token expires.
  public var expiresIn: Int?
  /// When the access token expires, in seconds since 1970.
  public var expiresOn: Int?
  /// Seconds until the refresh token expires.
  public var refreshTokenExpiresIn: Int?
  /// The scopes granted.
  public var scope: [String]

  /// Why a token-endpoint answer could not be used.
  public enum ParseError: Error, Equatable, Sendable {
    /// The body is not a JSON object.
    case notJSON
    /// A field has the wrong type (a number where a string belongs, a negative lifetime…).
    case badField(String)
    /// `token_type` is not Bearer.
    case notBearer(String)
    /// Neither an access token nor an id_token came back.
    case noToken
  }

  /// Parses a 200 answer's body.
  public static func parse(_ data: Data) throws(ParseError) -> TokenResponse {
    guard let fields = JSONValue.object(data) else { throw .notJSON }
    if let type = try string(fields, "token_type"), type.lowercased() != "bearer" { throw .notBearer(type) }
    let response = TokenResponse(
      accessToken: try token(fields, "access_token"), idToken: try token(fields, "id_token"),
      refreshToken: try token(fields, "refresh_token"), expiresIn: try number(fields, "expires_in"),
      expiresOn: try number(fields, "expires_on"),
      refreshTokenExpiresIn: try number(fields, "refresh_token_expires_in"),
      scope: (try string(fields, "scope") ?? "").split(separator: " ").map(String.init))
    guard response.accessToken != nil || response.idToken != nil else { throw .noToken }
    return response
  }

  /// Parses an error answer's body (`error`, `error_description`); nil when it is not one.
  public static func parseError(_ data: Data) -> ServiceError? {
    guard let fields = JSONValue.object(data), let error = fields["error"]?.string, !error.isEmpty else { return nil }
    return ServiceError(error: error, description: fields["error_description"]?.string)
  }

  private static func string(_ fields: [String: JSONValue], _ key: String) throws(ParseError) -> String? {
    guard let value = fields[key], value != .null else { return nil }
    guard let text = value.string else { throw .badField(key) }
    return text
  }

  /// A non-empty token without whitespace or control characters.
  private static func token(_ fields: [String: JSONValue], _ key: String) throws(ParseError) -> String? {
    guard let text = try string(fields, key) else { return nil }
    guard !text.isEmpty, text.count < 65_536, text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
    else { throw .badField(key) }
    return text
  }

  /// An integer given as a JSON number or a string of digits; never negative.
  private static func number(_ fields: [String: JSONValue], _ key: String) throws(ParseError) -> Int? {
    guard let value = fields[key], value != .null else { return nil }
    let result = value.integer.flatMap { Int(exactly: $0) }
    guard let result, result >= 0 else { throw .badField(key) }
    return result
  }
}

// TokenEndpoint: code redemption and refresh at the provider's token endpoint. Sendable.

import FoundationEssentials

/// Talks to a policy's token endpoint: form-encoded, the policy kept in the URL, never a client secret (the app is
/// a public client).
struct TokenEndpoint: Sendable {
  let settings: AppSettings
  let http: HTTPClient

  /// Redeems `code` from `request` (with its PKCE verifier and redirect URI).
  func redeem(_ code: String, request: AuthorizationRequest) async throws(SessionError) -> TokenResponse {
    try await post(
      request.tokenEndpoint,
      [
        ("grant_type", "authorization_code"), ("client_id", settings.clientID),
        ("scope", request.scopes.joined(separator: " ")), ("code", code),
        ("redirect_uri", request.redirectURI.value), ("code_verifier", request.codeVerifier),
      ])
  }

  /// Uses `refreshToken` at the token endpoint `url` of its policy (or provider), asking for `scopes`; the answer
  /// carries a new refresh token (rotation).
  func refresh(_ refreshToken: String, at url: URL, scopes: [String]) async throws(SessionError) -> TokenResponse {
    try await post(
      url,
      [
        ("grant_type", "refresh_token"), ("client_id", settings.clientID),
        ("scope", scopes.joined(separator: " ")), ("refresh_token", refreshToken),
      ])
  }

  private func post(_ url: URL, _ fields: [(String, String)]) async throws(SessionError) -> TokenResponse {
    let answer: HTTPAnswer
    do { answer = try await http.postForm(url, fields) } catch { throw .network(error) }
    if answer.status == 200 {
      do { return try TokenResponse.parse(answer.body) } catch { throw .badResponse("token response: \(error)") }
    }
    if let error = TokenResponse.parseError(answer.body) { throw .service(error) }
    throw .badResponse("token endpoint answered HTTP \(answer.status)")
  }
}

// IDTokenValidator: checks an id_token as OpenID Connect requires. Sendable.

import FoundationEssentials
import JWTKit

/// The claims of an id_token the app reads (B2C's, External ID's and standard OpenID Connect ones).
struct IDTokenClaims: JWTPayload {
  var iss: String
  var aud: AudienceClaim
  var exp: Int
  var nbf: Int?
  var iat: Int?
  var nonce: String?
  var oid: String?
  var sub: String?
  var name: String?
  var emails: [String]?
  var email: String?
  var preferred_username: String?
  var azp: String?
  var tfp: String?
  var acr: String?

  func verify(using algorithm: some JWTAlgorithm) throws {}
}

/// Why an id_token was refused. None of these carries the token.
public enum IDTokenError: Error, Equatable, Sendable {
  /// Not a JWT, or its signature does not verify against the policy's keys (tampered, wrong key, `alg: none`).
  case badSignature
  /// `iss` is not the policy's issuer.
  case wrongIssuer
  /// `aud` does not name this app.
  case wrongAudience
  /// Expired, or not valid yet, beyond the allowed clock skew.
  case expired
  /// `nonce` is not the one this sign-in sent.
  case wrongNonce
  /// The token names no user (`oid`/`sub`).
  case noSubject
  /// The token says not when it was issued (`iat`, required by OpenID Connect Core §2).
  case noIssueTime
  /// The policy's metadata could not be had.
  case metadata(MetadataError)
}

/// Validates id_tokens: RS256 signature against the policy's JWKS (fetched again on an unknown `kid`), `iss` from
/// the discovery document, `aud` = client id, `exp`/`nbf` with ten minutes of skew, and the `nonce` when one was sent.
public struct IDTokenValidator: Sendable {
  /// The allowed clock difference.
  ///
  /// Ten minutes: a desktop whose clock is up to ten minutes off the tenant's still signs in (a fresh id_token's
  /// `nbf` is the tenant's "now"). Freshness is the nonce's job (sign-in) and TLS's (refresh), not the clock's.
  public static let clockSkew: TimeInterval = 600

  let metadata: OpenIDMetadata
  let clientID: String

  /// Creates a validator for tokens issued to `clientID`.
  public init(metadata: OpenIDMetadata, clientID: String) {
    self.metadata = metadata
    self.clientID = clientID
  }

  /// The account and expiry of a valid id_token from the provider (or B2C policy) whose discovery document is
  /// `configuration`.
  public func validate(
    _ token: String, configuration: OpenIDConfiguration, nonce expectedNonce: String?, now: Date = Date()
  ) async throws(IDTokenError) -> (account: Account, expiresOn: Date) {
    let claims = try await verifiedClaims(token, keySet: configuration.jwksURI)
    return try check(claims, issuer: configuration.issuer, nonce: expectedNonce, now: now)
  }

  /// The account and expiry of `token` if its signature verifies with `keys` (the key its header names) and its
  /// claims pass, without the network: what `validate` does once it has the policy's issuer and keys.
  public func validate(
    _ token: String, keys: (keys: JWTKeyCollection, kids: Set<String>), issuer: String, nonce expectedNonce: String?,
    now: Date = Date()
  ) async throws(IDTokenError) -> (account: Account, expiresOn: Date) {
    guard let header = Self.header(of: token), Self.mayVerify(kid: header.kid, kids: keys.kids) else {
      throw .badSignature
    }
    let claims: IDTokenClaims
    do { claims = try await keys.keys.verify(token, as: IDTokenClaims.self) } catch { throw .badSignature }
    return try check(claims, issuer: issuer, nonce: expectedNonce, now: now)
  }

  private func check(
    _ claims: IDTokenClaims, issuer: String, nonce expectedNonce: String?, now: Date
  ) throws(IDTokenError) -> (account: Account, expiresOn: Date) {
    guard claims.iss == issuer else { throw .wrongIssuer }
    let client = clientID.lowercased()
    guard claims.aud.value.contains(where: { $0.lowercased() == client }) else { throw .wrongAudience }
    // OpenID Connect Core §3.1.3.7: with several audiences the authorized party must be this app, and an azp that
    // names another app is refused in any case.
    if claims.aud.value.count > 1 || claims.azp != nil {
      guard claims.azp?.lowercased() == client else { throw .wrongAudience }
    }
    let time = now.timeIntervalSince1970
    guard time <= Double(claims.exp) + Self.clockSkew, time >= Double(claims.nbf ?? 0) - Self.clockSkew else {
      throw .expired
    }
    if let expectedNonce, claims.nonce != expectedNonce { throw .wrongNonce }
    guard let subject = claims.oid ?? claims.sub, !subject.isEmpty else { throw .noSubject }
    guard claims.iat != nil else { throw .noIssueTime }
    // B2C names mail addresses in `emails`; OpenID Connect in `email`; External ID often only in
    // `preferred_username`, which is a mail address there but may be any user name elsewhere.
    let username = claims.preferred_username.flatMap { $0.contains("@") ? $0 : nil }
    let email = claims.emails?.first ?? claims.email ?? username
    let account = Account(
      objectID: subject, displayName: claims.name ?? email ?? claims.preferred_username ?? "", email: email)
    return (account, Date(timeIntervalSince1970: TimeInterval(claims.exp)))
  }

  /// The claims of `token` once its signature verifies with the key its header names. The `kid` must be in the
  /// policy's key set: a token naming an unknown key is refused even if another key would verify it. A token naming
  /// no key is verified only when the set has exactly one (OpenID's `rp-id_token-kid-absent-single-jwks`; with
  /// several, which one is meant cannot be known). The set is fetched once more when the key is unknown or does not
  /// verify the token (the provider rotated its keys, with or without key ids).
  private func verifiedClaims(_ token: String, keySet: URL) async throws(IDTokenError) -> IDTokenClaims {
    guard let header = Self.header(of: token) else { throw .badSignature }
    for refresh in [false, true] {
      let set: (keys: JWTKeyCollection, kids: Set<String>)
      do { set = try await metadata.keys(keySet, refresh: refresh, for: header.kid) } catch { throw .metadata(error) }
      guard Self.mayVerify(kid: header.kid, kids: set.kids) else { continue }
      do {
        return try await set.keys.verify(token, as: IDTokenClaims.self)
      } catch {
        continue
      }
    }
    throw .badSignature
  }

  /// Whether a token naming `kid` (or none) may be verified with a key set naming `kids`.
  private static func mayVerify(kid: String?, kids: Set<String>) -> Bool {
    guard let kid else { return kids.count == 1 }
    return kids.contains(kid)
  }

  /// A JWT's header when it names RS256, the only algorithm accepted (never taken from the token otherwise), with
  /// its `kid` if it has one; nil for anything else.
  static func header(of token: String) -> SigningHeader? {
    guard let header = token.split(separator: ".", omittingEmptySubsequences: false).first,
      let data = Data(base64URLEncoded: String(header)),
      let fields = JSONValue.object(data), fields["alg"]?.string == "RS256"
    else { return nil }
    return SigningHeader(kid: fields["kid"]?.string)
  }

  /// What a JWT's header says about its signature, once it names RS256.
  struct SigningHeader {
    /// The key it was signed with, if it names one.
    let kid: String?
  }

}

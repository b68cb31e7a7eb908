// BearerValidator: checks the task API's bearer tokens: signature (JWKS), issuer, audience, lifetime. Sendable.

import Foundation
import JWTKit

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The claims the task API looks at; anything else in the token is ignored.
struct BearerClaims: JWTPayload {
  var iss: String
  var aud: AudienceClaim
  var exp: Int
  var nbf: Int?
  var oid: String?
  var sub: String?

  func verify(using algorithm: some JWTAlgorithm) throws {}
}

/// Validates bearer tokens as the sample's .NET TaskService did: signature against the policy's keys, `iss`,
/// `aud`, and lifetime with clock skew. Either the playground's own tokens, or a real tenant's.
struct BearerValidator: Sendable {
  enum Keys: Sendable {
    /// The playground's own key and issuer (of its flavor, at its configured origin).
    case own(SigningKeys, issuer: @Sendable () -> String, audiences: [String])
    /// A real tenant's published keys, issuer and the app's audience.
    case external(ExternalTenantKeys)
  }

  let keys: Keys
  let clockSkew: Int

  /// The owner (`oid`, else `sub`) of a valid bearer token in an `Authorization` header, or nil.
  func owner(authorization: String?) async -> String? {
    guard let authorization, authorization.count < 16_384 else { return nil }
    let parts = authorization.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    let token = String(parts[1]).trimmingCharacters(in: .whitespaces)
    do {
      let claims: BearerClaims
      switch keys {
      case .own(let signing, let issuer, let audiences):
        claims = try await signing.collection.verify(token, as: BearerClaims.self)
        guard claims.iss == issuer(),
          claims.aud.value.contains(where: { audience in audiences.contains { $0.lowercased() == audience.lowercased() }
          })
        else { return nil }
      case .external(let external):
        claims = try await external.verify(token)
      }
      let now = Int(Date().timeIntervalSince1970)
      guard now <= claims.exp + clockSkew, now >= (claims.nbf ?? 0) - clockSkew else { return nil }
      return claims.oid ?? claims.sub
    } catch {
      return nil
    }
  }
}

/// A real B2C tenant's signing keys, issuer and audience, read from its OpenID Connect metadata.
actor ExternalTenantKeys {
  private let tenant: PlaygroundConfiguration.ExternalTenant
  private var collection: JWTKeyCollection?
  private var issuer: String?
  private var lastFetch = Date.distantPast

  init(_ tenant: PlaygroundConfiguration.ExternalTenant) {
    self.tenant = tenant
  }

  /// Verifies `token`'s signature, issuer and audience; fetches the keys again (at most once a minute) when the
  /// token names an unknown key.
  func verify(_ token: String) async throws -> BearerClaims {
    if collection == nil { try await fetch() }
    do {
      return try await check(token)
    } catch {
      guard Date().timeIntervalSince(lastFetch) > 60 else { throw error }
      try await fetch()
      return try await check(token)
    }
  }

  private func check(_ token: String) async throws -> BearerClaims {
    guard let collection, let issuer else { throw JWTError.generic(identifier: "keys", reason: "no keys") }
    guard Self.headerAlgorithm(token) == "RS256" else {
      throw JWTError.generic(identifier: "alg", reason: "only RS256 is accepted")
    }
    let claims = try await collection.verify(token, as: BearerClaims.self)
    guard claims.iss == issuer, claims.aud.value.contains(tenant.audience) else {
      throw JWTError.claimVerificationFailure(failedClaim: nil, reason: "issuer or audience")
    }
    return claims
  }

  private func fetch() async throws {
    lastFetch = Date()
    let (metadata, _) = try await URLSession.shared.data(from: tenant.metadataURL)
    guard let document = try JSONSerialization.jsonObject(with: metadata) as? [String: Any],
      let issuer = document["issuer"] as? String, let jwksText = document["jwks_uri"] as? String,
      let jwksURL = URL(string: jwksText)
    else { throw JWTError.generic(identifier: "metadata", reason: "not an OpenID Connect metadata document") }
    let (jwks, _) = try await URLSession.shared.data(from: jwksURL)
    // B2C's key sets name no algorithm, and JWTKit would take it from the first token's header and keep it for the
    // key: one junk token naming PS256 made every later RS256 token fail. Every key is pinned to RS256.
    guard let set = try JSONSerialization.jsonObject(with: jwks) as? [String: Any],
      let keys = set["keys"] as? [[String: Any]]
    else { throw JWTError.generic(identifier: "jwks", reason: "not a key set") }
    let pinned = keys.filter { $0["kty"] as? String == "RSA" && ($0["alg"] as? String ?? "RS256") == "RS256" }
      .map { $0.merging(["alg": "RS256"]) { _, new in new } }
    let collection = JWTKeyCollection()
    let json = try JSONSerialization.data(withJSONObject: ["keys": pinned])
    try await collection.add(jwksJSON: String(decoding: json, as: UTF8.self))
    self.collection = collection
    self.issuer = issuer
  }

  /// The `alg` a JWT's header names, if it can be read.
  private static func headerAlgorithm(_ token: String) -> String? {
    guard let part = token.split(separator: ".", omittingEmptySubsequences: false).first else { return nil }
    var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    guard let data = Data(base64Encoded: base64),
      let header = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else { return nil }
    return header["alg"] as? String
  }
}

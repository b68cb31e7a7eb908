// TokenInspector: verifies the playground's tokens against its published JWKS, as a client would.

import Foundation
import JWTKit
import TasksTestSupport
import Testing

/// Fetches a harness's JWKS and verifies tokens with it.
struct TokenInspector {
  let harness: PlaygroundHarness

  init(_ harness: PlaygroundHarness) { self.harness = harness }

  /// The claims of `token` after verifying its RS256 signature against the tenant's JWKS.
  func claims(_ token: String) async throws -> [String: Any] {
    let jwks = try await Browser().get(
      harness.base.appending(path: "\(PlaygroundHarness.tenant)/\(PlaygroundHarness.signIn)/discovery/v2.0/keys"))
    let keys = try await JWTKeyCollection().add(jwksJSON: jwks.text)
    _ = try await keys.verify(token, as: AnyClaims.self)
    return try Self.decodePart(try #require(token.split(separator: ".").dropFirst().first))
  }

  /// The header of `token`.
  func header(_ token: String) throws -> [String: Any] {
    try Self.decodePart(try #require(token.split(separator: ".").first))
  }

  /// A base64url JSON part of a JWT.
  static func decodePart(_ part: Substring) throws -> [String: Any] {
    var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    let data = try #require(Data(base64Encoded: base64))
    let object = try JSONSerialization.jsonObject(with: data)
    return try #require(object as? [String: Any])
  }
}

/// Accepts any claims: the signature is what is verified.
struct AnyClaims: JWTPayload {
  init(from decoder: any Decoder) throws {}
  func encode(to encoder: any Encoder) throws {}
  func verify(using algorithm: some JWTAlgorithm) throws {}
}

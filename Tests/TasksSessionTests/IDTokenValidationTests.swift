// Tests of id_token validation against the playground's real JWKS: tampered, expired, wrong audience, wrong issuer,
// wrong nonce, foreign key, unknown kid.

import B2CPlayground
import Foundation
import JWTKit
import Synchronization
import TasksCore
import TasksTestSupport
import TasksURLSession
import Testing
import _CryptoExtras

/// Claims for forged id_tokens.
struct ForgedIDClaims: JWTPayload {
  var iss: String
  var aud: String
  var exp: Int
  var nbf: Int
  var iat: Int
  var nonce: String?
  var oid: String
  var name: String
  var emails: [String]
  func verify(using algorithm: some JWTAlgorithm) throws {}
}

@Suite("Session: id_token validation")
struct IDTokenValidationTests {
  /// Signs claims with the playground's own key (read from its data folder) under its published `kid`.
  private func sign(_ claims: some JWTPayload, harness: SessionHarness, foreign: Bool = false, kid: String? = nil)
    async throws -> String
  {
    let jwks = try await Browser().get(
      harness.base.appending(path: "b2ctasks.onmicrosoft.com/B2C_1_SignUpOrSignIn/discovery/v2.0/keys"))
    let published = try #require((try jwks.json()["keys"] as? [[String: Any]])?.first?["kid"] as? String)
    let key: JWTKit.Insecure.RSA.PrivateKey
    if foreign {
      key = try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
    } else {
      key = try JWTKit.Insecure.RSA.PrivateKey(
        pem: try String(contentsOf: harness.data.appending(path: "signing-key.pem"), encoding: .utf8))
    }
    let keys = JWTKeyCollection()
    let identifier = JWKIdentifier(string: kid ?? published)
    await keys.add(rsa: key, digestAlgorithm: .sha256, kid: identifier)
    return try await keys.sign(claims, kid: identifier)
  }

  private func claims(_ harness: SessionHarness, _ change: (inout ForgedIDClaims) -> Void = { _ in }) -> ForgedIDClaims
  {
    let now = Int(Date().timeIntervalSince1970)
    var claims = ForgedIDClaims(
      iss: "\(harness.base.absoluteString)/5b6e1c9a-2f4d-4e7b-9c3a-1d8f0e2b7a64/v2.0/",
      aud: PlaygroundConfiguration.appClientID,
      exp: now + 600, nbf: now - 5, iat: now - 5, nonce: "the-nonce", oid: "oid-1", name: "Forged",
      emails: ["f@example.com"])
    change(&claims)
    return claims
  }

  private func validate(_ token: String, _ harness: SessionHarness, nonce: String? = "the-nonce") async -> Result<
    Account, IDTokenError
  > {
    let validator = IDTokenValidator(
      metadata: OpenIDMetadata(http: .tests), clientID: PlaygroundConfiguration.appClientID)
    let authority = harness.settings.authority
    do throws(IDTokenError) {
      let configuration: OpenIDConfiguration
      do {
        configuration = try await OpenIDMetadata(http: .tests).configuration(
          authority.discovery(for: "B2C_1_SignUpOrSignIn"), for: authority)
      } catch {
        throw .metadata(error)
      }
      return .success(try await validator.validate(token, configuration: configuration, nonce: nonce).account)
    } catch {
      return .failure(error)
    }
  }

  @Test(
    "forged and broken id_tokens are refused",
    arguments: [
      ("valid", nil), ("expired", IDTokenError.expired), ("expired-within-skew", nil), ("not-yet-valid", .expired),
      ("tenant-clock-10-min-ahead", nil), ("tenant-clock-10-min-behind", nil),
      ("wrong-audience", .wrongAudience), ("wrong-issuer", .wrongIssuer), ("wrong-nonce", .wrongNonce),
      ("missing-nonce", .wrongNonce), ("foreign-key", .badSignature), ("unknown-kid", .badSignature),
      ("tampered", .badSignature), ("not-a-jwt", .badSignature), ("alg-none", .badSignature),
    ] as [(String, IDTokenError?)])
  func forged(kind: String, expected: IDTokenError?) async throws {
    try await SessionHarness.with { harness in
      let now = Int(Date().timeIntervalSince1970)
      var token: String
      switch kind {
      case "expired": token = try await sign(claims(harness) { $0.exp = now - 900 }, harness: harness)
      case "expired-within-skew": token = try await sign(claims(harness) { $0.exp = now - 400 }, harness: harness)
      case "not-yet-valid": token = try await sign(claims(harness) { $0.nbf = now + 900 }, harness: harness)
      // A fresh token from a tenant whose clock is (nearly) ten minutes off ours: nbf ten minutes ahead, or exp (a
      // short five-minute lifetime) already passed by nine minutes on ours: both within the skew.
      case "tenant-clock-10-min-ahead":
        token = try await sign(claims(harness) { $0.nbf = now + 590 }, harness: harness)
      case "tenant-clock-10-min-behind":
        token = try await sign(
          claims(harness) {
            // A minute inside the skew, not seconds: on a busy machine signing and validating took over 10 s here.
            $0.nbf = now - 840; $0.exp = now - 540
          }, harness: harness)
      case "wrong-audience": token = try await sign(claims(harness) { $0.aud = "someone-else" }, harness: harness)
      case "wrong-issuer":
        token = try await sign(claims(harness) { $0.iss = "https://evil.example/v2.0/" }, harness: harness)
      case "wrong-nonce": token = try await sign(claims(harness) { $0.nonce = "other" }, harness: harness)
      case "missing-nonce": token = try await sign(claims(harness) { $0.nonce = nil }, harness: harness)
      case "foreign-key": token = try await sign(claims(harness), harness: harness, foreign: true)
      case "unknown-kid": token = try await sign(claims(harness), harness: harness, kid: "no-such-key")
      case "tampered":
        let genuine = try await sign(claims(harness), harness: harness)
        let parts = genuine.split(separator: ".").map(String.init)
        let payload = try JSONSerialization.data(withJSONObject: [
          "iss": claims(harness).iss, "aud": PlaygroundConfiguration.appClientID, "exp": now + 600, "nbf": now,
          "nonce": "the-nonce", "oid": "someone-else", "name": "Mallory",
        ])
        token = [
          parts[0],
          payload.base64EncodedString().replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_"), parts[2],
        ].joined(separator: ".")
      case "not-a-jwt": token = "not.a.jwt"
      case "alg-none":
        let genuine = try await sign(claims(harness), harness: harness)
        let parts = genuine.split(separator: ".").map(String.init)
        token = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0." + parts[1] + "."
      default: token = try await sign(claims(harness), harness: harness)
      }
      switch await validate(token, harness) {
      case .success(let account):
        #expect(expected == nil, "accepted a \(kind) token")
        #expect(account.objectID == "oid-1" && account.displayName == "Forged")
      case .failure(let error):
        #expect(error == expected, "\(kind): \(error)")
      }
    }
  }

  @Test(
    "one junk token naming PS256 and a real kid does not make later valid RS256 tokens fail (key sets carry no alg)")
  func algorithmPinned() async throws {
    try await SessionHarness.with { harness in
      let authority = harness.settings.authority
      let metadata = OpenIDMetadata(http: .tests)  // one cache, as in a running app
      let configuration = try await metadata.configuration(
        authority.discovery(for: "B2C_1_SignUpOrSignIn"), for: authority)
      let validator = IDTokenValidator(metadata: metadata, clientID: PlaygroundConfiguration.appClientID)
      let genuine = try await sign(claims(harness), harness: harness)
      let parts = genuine.split(separator: ".").map(String.init)
      let header = try TokenParts.json(parts[0])
      var junkHeader = header
      junkHeader["alg"] = "PS256"
      let junk = [TokenParts.encode(junkHeader), parts[1], parts[2]].joined(separator: ".")
      await #expect(throws: IDTokenError.badSignature) {
        _ = try await validator.validate(junk, configuration: configuration, nonce: "the-nonce")
      }
      let account = try await validator.validate(genuine, configuration: configuration, nonce: "the-nonce").account
      #expect(account.objectID == "oid-1", "the valid RS256 token still verifies after the junk one")
    }
  }

  @Test(
    "several audiences: accepted only when azp names this app; an azp naming another app is refused",
    arguments: [
      ([PlaygroundConfiguration.appClientID, "other-api"], PlaygroundConfiguration.appClientID, true),
      ([PlaygroundConfiguration.appClientID, "other-api"], nil, false),
      ([PlaygroundConfiguration.appClientID, "other-api"], "other-api", false),
      ([PlaygroundConfiguration.appClientID], "another-app", false),
      ([PlaygroundConfiguration.appClientID], PlaygroundConfiguration.appClientID, true),
    ] as [([String], String?, Bool)])
  func authorizedParty(audiences: [String], azp: String?, accepted: Bool) async throws {
    struct Claims: JWTPayload {
      var iss: String, aud: [String], exp: Int, nbf: Int, iat: Int, nonce: String, oid: String, name: String
      var azp: String?
      func verify(using algorithm: some JWTAlgorithm) throws {}
    }
    try await SessionHarness.with { harness in
      let base = claims(harness)
      let token = try await sign(
        Claims(
          iss: base.iss, aud: audiences, exp: base.exp, nbf: base.nbf, iat: base.iat, nonce: "the-nonce", oid: "oid-1",
          name: "Ann",
          azp: azp), harness: harness)
      switch await validate(token, harness) {
      case .success: #expect(accepted, "accepted aud \(audiences) azp \(azp ?? "none")")
      case .failure(let error): #expect(!accepted && error == .wrongAudience, "\(error)")
      }
    }
  }

  @Test("a cached key set is used for a day, then fetched again (here: the tenant is gone, so validation says so)")
  func keySetExpires() async throws {
    let harness = try await SessionHarness.start()
    let clock = Mutex(Date())
    let metadata = OpenIDMetadata(http: .tests, now: { clock.withLock { $0 } })
    let authority = harness.settings.authority
    let configuration = try await metadata.configuration(
      authority.discovery(for: "B2C_1_SignUpOrSignIn"), for: authority)
    let validator = IDTokenValidator(metadata: metadata, clientID: PlaygroundConfiguration.appClientID)
    let token = try await sign(claims(harness), harness: harness)
    _ = try await validator.validate(token, configuration: configuration, nonce: "the-nonce")
    await harness.stop()
    clock.withLock { $0 += 23 * 3600 }
    _ = try await validator.validate(token, configuration: configuration, nonce: "the-nonce")  // from the cache
    clock.withLock { $0 += 2 * 3600 }
    await #expect {
      _ = try await validator.validate(token, configuration: configuration, nonce: "the-nonce")
    } throws: { error in
      guard case IDTokenError.metadata(.network) = error else { return false }
      return true
    }
  }

  @Test("a refreshed id_token carries no nonce and is accepted when none is expected")
  func refreshedToken() async throws {
    try await SessionHarness.with { harness in
      let token = try await sign(claims(harness) { $0.nonce = nil }, harness: harness)
      #expect(try await validate(token, harness, nonce: nil).get().objectID == "oid-1")
    }
  }
}

/// A JWT's base64url JSON parts, for tests that change a header.
enum TokenParts {
  static func json(_ part: String) throws -> [String: Any] {
    var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    let data = try #require(Data(base64Encoded: base64))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  static func encode(_ object: [String: Any]) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    return data.base64EncodedString().replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_")
  }
}

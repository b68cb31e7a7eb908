// IDTokenValidator without the network: the jwt fuzzing seeds (signed with the key of Tests/Fuzz/corpus/jwks/rsa)
// each meet the refusal they were made for, so the fuzzer starts from every branch of the check.

import Foundation
import TasksCore
import TasksURLSession
import Testing

@Suite("id_token checks against a key set")
struct IDTokenCheckTests {
  static let corpus = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appending(path: "Fuzz/corpus")

  @Test(
    "each seed token gets its answer",
    arguments: [
      ("valid", nil), ("audience-list", IDTokenError.wrongAudience), ("wrong-issuer", .wrongIssuer),
      ("expired", .expired), ("wrong-nonce", .wrongNonce), ("no-subject", .noSubject), ("alg-none", .badSignature),
      ("unknown-kid", .badSignature), ("bad-signature", .badSignature), ("not-a-jwt", .badSignature),
    ] as [(String, IDTokenError?)])
  func seed(name: String, refusal: IDTokenError?) async throws {
    let keys = try await OpenIDMetadata.keySet(Data(contentsOf: Self.corpus.appending(path: "jwks/rsa")))
    let token = try String(contentsOf: Self.corpus.appending(path: "jwt/\(name)"), encoding: .utf8)
    let validator = IDTokenValidator(metadata: OpenIDMetadata(http: .shared), clientID: "fuzz-client")
    do throws(IDTokenError) {
      let (account, _) = try await validator.validate(
        token, keys: keys, issuer: "https://fuzz.example/tenant/v2.0/", nonce: "fuzz-nonce",
        now: Date(timeIntervalSince1970: 1_800_000_000))
      #expect(refusal == nil, "accepted")
      #expect(account.objectID == "0f1e2d3c" && account.email == "ann@example.com")
    } catch {
      #expect(error == refusal)
    }
  }

  @Test("a key with private members (the crash fuzzing found) is left out; the set's public keys still verify")
  func privateKeyLeftOut() async throws {
    let rsa = try Data(contentsOf: Self.corpus.appending(path: "jwks/rsa"))
    var set = try #require(try JSONSerialization.jsonObject(with: rsa) as? [String: [[String: String]]])
    var hostile = try #require(set["keys"]?.first)
    hostile["kid"] = "private"
    hostile["d"] = "AQAB"
    hostile["n"] = ""
    set["keys"]?.append(hostile)
    let keys = try await OpenIDMetadata.keySet(JSONSerialization.data(withJSONObject: set))
    #expect(keys.kids == ["fuzz-key"])
    let token = try String(contentsOf: Self.corpus.appending(path: "jwt/valid"), encoding: .utf8)
    let validator = IDTokenValidator(metadata: OpenIDMetadata(http: .shared), clientID: "fuzz-client")
    let (account, _) = try await validator.validate(
      token, keys: keys, issuer: "https://fuzz.example/tenant/v2.0/", nonce: "fuzz-nonce",
      now: Date(timeIntervalSince1970: 1_800_000_000))
    #expect(account.objectID == "0f1e2d3c")
  }

  @Test("a key set with a broken key is a bad document, not a crash")
  func badKeySet() async throws {
    let document = try Data(contentsOf: Self.corpus.appending(path: "jwks/bad-modulus"))
    await #expect(throws: MetadataError.self) { try await OpenIDMetadata.keySet(document) }
  }
}

// SigningKeys: the tenant's RSA signing key, generated on first start and kept in the data folder. Sendable.

import Crypto
import Foundation
import JWTKit
import _CryptoExtras

/// The RSA key the playground signs tokens with (RS256), and its public half as B2C publishes it in a JWKS.
///
/// Generated on first start and written to `signing-key.pem` (mode 0600) in the data folder, so tokens stay valid
/// across restarts. The `kid` is derived from the public key.
public struct SigningKeys: Sendable {
  /// The key id put in every token header and the JWKS.
  public let kid: String
  /// The JWKS document served at `…/discovery/v2.0/keys`.
  public let jwks: [String: [[String: String]]]
  /// Signs and verifies with the key.
  let collection: JWTKeyCollection
  /// When the key was created; published as the key's `nbf`.
  let createdAt: Date

  /// Loads the key from `directory`, creating it first when there is none.
  public static func load(from directory: URL) async throws -> SigningKeys {
    let file = directory.appending(path: "signing-key.pem")
    let manager = FileManager.default
    if !manager.fileExists(atPath: file.path) {
      try PrivateFiles.createFolder(directory)
      let generated = try _RSA.Signing.PrivateKey(keySize: .bits2048)
      try PrivateFiles.write(Data(generated.pemRepresentation.utf8), to: file)
    }
    let pem = try String(contentsOf: file, encoding: .utf8)
    let key = try Insecure.RSA.PrivateKey(pem: pem)
    let created = (try? manager.attributesOfItem(atPath: file.path)[.creationDate] as? Date) ?? Date()
    let (modulus, exponent) = try key.publicKey.getKeyPrimitives()
    let kid = Data(SHA256.hash(data: modulus)).base64URLEncoded
    let collection = JWTKeyCollection()
    await collection.add(rsa: key, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
    let jwk: [String: String] = [
      "kid": kid, "use": "sig", "kty": "RSA", "e": exponent.base64URLEncoded, "n": modulus.base64URLEncoded,
      "nbf": String(Int(created.timeIntervalSince1970)),
    ]
    return SigningKeys(kid: kid, jwks: ["keys": [jwk]], collection: collection, createdAt: created)
  }
}

extension Data {
  /// Base64url without padding (RFC 7515 §2).
  var base64URLEncoded: String {
    base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }
}

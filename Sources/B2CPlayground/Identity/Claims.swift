// Claims: the contents of the playground's tokens, as PROTOCOL.md §5 lists them. Value types; any thread.

import Foundation
import JWTKit

/// The claims of an id_token or access token: B2C's (`emails`, `tfp`, `ver` 1.0), External ID's (`tid`,
/// `preferred_username`, `ver` 2.0) or plain OpenID Connect ones (`email`). Optional claims are left out of the JSON
/// when nil.
struct B2CClaims: JWTPayload, Equatable {
  var iss: String
  var sub: String
  var aud: String
  var exp: Int
  var nbf: Int
  var iat: Int
  var auth_time: Int
  var oid: String?
  var name: String
  var emails: [String]?
  var email: String?
  var preferred_username: String?
  var tfp: String?
  var tid: String?
  var ver: String?
  var nonce: String?
  var scp: String?
  var azp: String?

  /// Lifetimes, issuer and audience are checked by the caller, which knows the clock skew and the accepted issuers.
  func verify(using algorithm: some JWTAlgorithm) throws {}
}

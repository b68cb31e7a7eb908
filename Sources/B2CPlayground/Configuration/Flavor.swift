// Flavor: which identity provider the playground plays — Azure AD B2C, Microsoft Entra External ID or a plain OpenID
// Connect issuer — and the issuer its tokens name. Value type; any thread.

import Foundation

/// The kind of identity provider the playground serves.
///
/// - `b2c`: B2C's URL forms with policies (`/{tenant}/{policy}/oauth2/v2.0/…` and `?p=`), issuer
///   `http://{host}/{tenant-id}/v2.0/`.
/// - `externalID`: External ID's `/{tenant-id-or-domain}/oauth2/v2.0/…` without policies; its issuer is on another
///   host than the authority, as External ID's is (`https://{tenant-id}.ciamlogin.com/{tenant-id}/v2.0`): here
///   `http://{tenant-id}.localhost:{port}/{tenant-id}/v2.0`.
/// - `openID`: a plain issuer at the root of the host (`/.well-known/openid-configuration`, `/oauth2/…`), issuer
///   `http://{host}`, standard claims (`sub`, `email`) and opaque access tokens.
public enum Flavor: String, Sendable, CaseIterable {
  /// Azure AD B2C.
  case b2c
  /// Microsoft Entra External ID.
  case externalID = "external-id"
  /// A plain OpenID Connect provider.
  case openID = "oidc"

  /// The issuer of the playground at `origin` (`http://127.0.0.1:5995`): from its configuration, never from a
  /// request's Host header.
  public func issuer(origin: String, tenantID: String) -> String {
    switch self {
    case .b2c: return "\(origin)/\(tenantID)/v2.0/"
    case .externalID:
      let parts = URLComponents(string: origin)
      let port = parts?.port.map { ":\($0)" } ?? ""
      return "\(parts?.scheme ?? "http")://\(tenantID).localhost\(port)/\(tenantID)/v2.0"
    case .openID: return origin
    }
  }

  /// Whether the flavor runs B2C's user flows: policies, "Forgot your password?", edit profile, `AADB2C` codes.
  var hasPolicies: Bool { self == .b2c }
}

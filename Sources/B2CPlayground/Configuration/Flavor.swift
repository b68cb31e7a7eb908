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

  /// The issuer of tokens minted for a request that reached the playground as `host` (`127.0.0.1:5995`).
  public func issuer(host: String, tenantID: String) -> String {
    switch self {
    case .b2c: return "http://\(host)/\(tenantID)/v2.0/"
    case .externalID:
      let port = host.split(separator: ":").last.flatMap { Int($0) }.map { ":\($0)" } ?? ""
      return "http://\(tenantID).localhost\(port)/\(tenantID)/v2.0"
    case .openID: return "http://\(host)"
    }
  }

  /// Whether `issuer` is one this flavor mints on its port: B2C's and the plain issuer on any loopback name of the
  /// host (they follow the Host header), External ID's on `{tenant-id}.localhost`.
  func isOwnIssuer(_ issuer: String, tenantID: String, port: Int) -> Bool {
    guard let url = URLComponents(string: issuer), url.scheme == "http", let host = url.host?.lowercased(),
      (url.port ?? 80) == port, url.query == nil, url.fragment == nil
    else { return false }
    let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host)
    switch self {
    case .b2c: return loopback && url.path.lowercased() == "/\(tenantID.lowercased())/v2.0/"
    case .externalID:
      return host == "\(tenantID.lowercased()).localhost" && url.path.lowercased() == "/\(tenantID.lowercased())/v2.0"
    case .openID: return loopback && url.path.isEmpty
    }
  }

  /// Whether the flavor runs B2C's user flows: policies, "Forgot your password?", edit profile, `AADB2C` codes.
  var hasPolicies: Bool { self == .b2c }
}

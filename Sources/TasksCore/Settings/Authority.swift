// Authority: who signs the user in — a B2C tenant (in the URL forms B2C has used), a Microsoft Entra External ID
// tenant, or any OpenID Connect issuer — and where its endpoints and discovery document are. Value type; any thread.

import FoundationEssentials

/// Who signs the user in, and where that provider's endpoints are.
///
/// B2C runs user flows (policies) and its endpoints follow a convention; External ID has no policies and publishes
/// its endpoints in a discovery document under the tenant; a plain OpenID Connect issuer publishes everything in
/// `{issuer}/.well-known/openid-configuration` (OpenID Connect Discovery 1.0 §4).
public enum Authority: Sendable, Equatable {
  /// B2C: the sample's explicit endpoint URLs, with the policy in the `p` query item (PROTOCOL.md §2, 2016 form and
  /// b2clogin query form). Endpoints for other policies replace `p`.
  case endpoints(authorize: URL, token: URL)
  /// B2C: an authority base URL (`https://contoso.b2clogin.com`, or `http://127.0.0.1:PORT` for a loopback
  /// playground) and a tenant (`contoso.onmicrosoft.com`); endpoints use the b2clogin path form
  /// `{base}/{tenant}/{policy}/oauth2/v2.0/…`.
  case tenant(base: URL, tenant: String)
  /// Microsoft Entra External ID: `https://SUBDOMAIN.ciamlogin.com` (or a custom URL domain) and the tenant id or
  /// domain; endpoints `{base}/{tenant}/oauth2/v2.0/…`, discovery `{base}/{tenant}/v2.0/.well-known/…`.
  case externalID(base: URL, tenant: String)
  /// Any other OpenID Connect provider, named by its issuer.
  case openID(issuer: URL)

  /// The three kinds of provider; the raw value names them in the keyring.
  public enum Provider: String, Sendable, CaseIterable {
    /// Azure AD B2C.
    case b2c
    /// Microsoft Entra External ID.
    case externalID = "external-id"
    /// A plain OpenID Connect provider.
    case openID = "oidc"
  }

  /// The endpoints of one policy (B2C) or of the provider.
  public struct Endpoints: Sendable, Equatable {
    /// The authorize endpoint (shown in the web view).
    public var authorize: URL
    /// The token endpoint; a B2C policy stays in its URL, never the body.
    public var token: URL
    /// The logout (end-session) endpoint, if the provider has one.
    public var logout: URL?
    /// The OpenID Connect discovery document.
    public var discovery: URL
  }

  /// The kind of provider.
  public var provider: Provider {
    switch self {
    case .endpoints, .tenant: return .b2c
    case .externalID: return .externalID
    case .openID: return .openID
    }
  }

  /// Whether the provider runs B2C user flows (policies, `AADB2C` error codes).
  public var hasPolicies: Bool { provider == .b2c }

  /// The scheme, host and port the endpoints live on, e.g. `https://contoso.b2clogin.com`.
  public var origin: String {
    switch self {
    case .endpoints(let authorize, _): return authorize.origin
    case .tenant(let base, _), .externalID(let base, _): return base.origin
    case .openID(let issuer): return issuer.origin
    }
  }

  /// The tenant: the first path segment in every B2C URL form, External ID's tenant, or an issuer's path (empty for
  /// an issuer at the root of its host).
  public var tenantName: String {
    switch self {
    case .tenant(_, let tenant), .externalID(_, let tenant): return tenant
    case .endpoints(let authorize, _): return authorize.pathSegments.first ?? ""
    case .openID(let issuer): return issuer.pathSegments.joined(separator: "/")
    }
  }

  /// The discovery document of `policy` (B2C) or of the provider (the policy is ignored).
  public func discovery(for policy: String?) -> URL {
    switch self {
    case .tenant(let base, let tenant), .externalID(let base, let tenant):
      return Self.v2Endpoints(base.appending(path: tenant).appendingPolicy(policy)).discovery
    case .endpoints(let authorize, _):
      return authorize.withPath(
        "/" + (authorize.pathSegments.first ?? "") + "/v2.0/.well-known/openid-configuration"
      ).withPolicy(policy)
    case .openID(let issuer):
      // Discovery §4: the well-known path is appended to the issuer, a trailing slash of the issuer dropped.
      return issuer.withPath(
        "/" + (issuer.pathSegments + [".well-known", "openid-configuration"]).joined(separator: "/"))
    }
  }

  /// The endpoints a B2C policy or an External ID tenant has by convention; nil for a plain OpenID Connect provider,
  /// whose endpoints only its discovery document names.
  public func conventionalEndpoints(for policy: String?) -> Endpoints? {
    switch self {
    case .tenant(let base, let tenant), .externalID(let base, let tenant):
      return Self.v2Endpoints(base.appending(path: tenant).appendingPolicy(policy))
    case .endpoints(let authorize, let token):
      let authorize = authorize.foldingSlashes.withPolicy(policy)
      return Endpoints(
        authorize: authorize, token: token.foldingSlashes.withPolicy(policy),
        logout: authorize.replacingLastPathSegment(with: "logout"), discovery: discovery(for: policy))
    case .openID:
      return nil
    }
  }

  /// `{prefix}/oauth2/v2.0/{authorize,token,logout}` and `{prefix}/v2.0/.well-known/openid-configuration`.
  private static func v2Endpoints(_ prefix: URL) -> Endpoints {
    Endpoints(
      authorize: prefix.appending(path: "oauth2/v2.0/authorize"),
      token: prefix.appending(path: "oauth2/v2.0/token"),
      logout: prefix.appending(path: "oauth2/v2.0/logout"),
      discovery: prefix.appending(path: "v2.0/.well-known/openid-configuration"))
  }
}

extension URL {
  /// The non-empty path segments; a doubled `/` (as in the sample's `authURL`) yields no empty segment.
  var pathSegments: [String] {
    path(percentEncoded: false).split(separator: "/").map(String.init)
  }

  /// `scheme://host[:port]`, lower-cased; empty when the URL has no scheme or host. Built as text: URLComponents'
  /// scheme setter traps on a scheme it finds invalid (an empty one, say), and a discovery document's issuer can be
  /// any text (found by fuzzing).
  var origin: String {
    guard let scheme = scheme?.lowercased(), !scheme.isEmpty, let host = host?.lowercased(), !host.isEmpty else {
      return ""
    }
    let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    return "\(scheme)://\(bracketed)" + (port.map { ":\($0)" } ?? "")
  }

  /// This URL with its `p` query item set to `policy` (added when absent); unchanged when `policy` is nil.
  func withPolicy(_ policy: String?) -> URL {
    guard let policy, var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else { return self }
    var items = (components.queryItems ?? []).filter { $0.name.lowercased() != "p" }
    items.append(URLQueryItem(name: "p", value: policy))
    components.queryItems = items
    return components.url ?? self
  }

  /// This URL with `policy` as a further path segment (B2C's path form); unchanged when `policy` is nil.
  func appendingPolicy(_ policy: String?) -> URL {
    policy.map { appending(path: $0) } ?? self
  }

  /// This URL with its path replaced (query kept).
  func withPath(_ path: String) -> URL {
    guard var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else { return self }
    components.path = path
    return components.url ?? self
  }

  /// This URL with doubled slashes in its path folded (the sample's `authURL` has one).
  var foldingSlashes: URL {
    withPath("/" + pathSegments.joined(separator: "/"))
  }

  /// This URL without its query.
  var withoutQuery: URL {
    guard var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else { return self }
    components.query = nil
    return components.url ?? self
  }

  /// This URL with its last path segment replaced and doubled slashes folded (query kept).
  func replacingLastPathSegment(with segment: String) -> URL {
    withPath("/" + (pathSegments.dropLast() + [segment]).joined(separator: "/"))
  }
}

// Authority: where a B2C tenant's endpoints are, in the URL forms B2C has used. Value type; any thread.

import Foundation

/// Where a B2C tenant's endpoints are.
public enum Authority: Sendable, Equatable {
  /// The sample's explicit endpoint URLs, with the policy in the `p` query item (PROTOCOL.md §2, 2016 form and
  /// b2clogin query form). Endpoints for other policies replace `p`.
  case endpoints(authorize: URL, token: URL)
  /// An authority base URL (`https://contoso.b2clogin.com`, or `http://127.0.0.1:PORT` for a loopback playground)
  /// and a tenant (`contoso.onmicrosoft.com`); endpoints use the b2clogin path form
  /// `{base}/{tenant}/{policy}/oauth2/v2.0/…`.
  case tenant(base: URL, tenant: String)

  /// The endpoints of one policy.
  public struct Endpoints: Sendable, Equatable {
    /// The authorize endpoint (shown in the web view).
    public var authorize: URL
    /// The token endpoint; the policy stays in its URL, never the body.
    public var token: URL
    /// The logout endpoint.
    public var logout: URL
    /// The OpenID Connect discovery document.
    public var discovery: URL
  }

  /// The scheme, host and port the endpoints live on, e.g. `https://contoso.b2clogin.com`.
  public var origin: String {
    let url: URL
    switch self {
    case .endpoints(let authorize, _): url = authorize
    case .tenant(let base, _): url = base
    }
    var components = URLComponents()
    components.scheme = url.scheme?.lowercased()
    components.host = url.host?.lowercased()
    components.port = url.port
    return components.string ?? ""
  }

  /// The tenant named in the endpoints: the first path segment in every B2C URL form.
  public var tenantName: String {
    switch self {
    case .tenant(_, let tenant): return tenant
    case .endpoints(let authorize, _): return authorize.pathSegments.first ?? ""
    }
  }

  /// The endpoints of `policy`.
  public func endpoints(for policy: String) -> Endpoints {
    switch self {
    case .tenant(let base, let tenant):
      let policyBase = base.appending(path: tenant).appending(path: policy)
      return Endpoints(
        authorize: policyBase.appending(path: "oauth2/v2.0/authorize"),
        token: policyBase.appending(path: "oauth2/v2.0/token"),
        logout: policyBase.appending(path: "oauth2/v2.0/logout"),
        discovery: policyBase.appending(path: "v2.0/.well-known/openid-configuration"))
    case .endpoints(let authorize, let token):
      let authorize = authorize.foldingSlashes.withPolicy(policy)
      return Endpoints(
        authorize: authorize,
        token: token.foldingSlashes.withPolicy(policy),
        logout: authorize.replacingLastPathSegment(with: "logout"),
        discovery: authorize.withPath(
          "/" + (authorize.pathSegments.first ?? "") + "/v2.0/.well-known/openid-configuration"))
    }
  }
}

extension URL {
  /// The non-empty path segments; a doubled `/` (as in the sample's `authURL`) yields no empty segment.
  var pathSegments: [String] {
    path(percentEncoded: false).split(separator: "/").map(String.init)
  }

  /// This URL with its `p` query item set to `policy` (added when absent).
  func withPolicy(_ policy: String) -> URL {
    guard var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else { return self }
    var items = (components.queryItems ?? []).filter { $0.name.lowercased() != "p" }
    items.append(URLQueryItem(name: "p", value: policy))
    components.queryItems = items
    return components.url ?? self
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

// Authority+Issuer: which issuer a provider's discovery document may name. Value type; any thread.

import FoundationEssentials

extension Authority {
  /// Whether a discovery document fetched for this authority may name `issuer` (tokens must then carry it).
  ///
  /// - B2C: any issuer; B2C's is `https://HOST/TENANT-GUID/v2.0/`, which the settings do not name (PROTOCOL.md §2).
  /// - OpenID Connect: exactly the authority (Discovery §4.3), a trailing slash aside.
  /// - External ID: an issuer on the authority's own origin, or the one other shape External ID uses (MSAL's rule):
  ///   `https://TENANT-GUID.ciamlogin.com/TENANT-GUID/v2.0`, the same GUID in host and path. For a development
  ///   authority on loopback over http, `TENANT-GUID.localhost` on the same port stands for that host (the
  ///   playground's External ID flavor); no other mismatch is accepted.
  public func accepts(issuer: String) -> Bool {
    switch self {
    case .endpoints, .tenant:
      return true
    case .openID(let expected):
      return Self.trimmingSlash(issuer) == Self.trimmingSlash(expected.absoluteString)
    case .externalID(let base, _):
      guard let url = URL(string: issuer), url.host != nil else { return false }
      if !url.origin.isEmpty, url.origin == base.origin { return true }
      let segments = url.pathSegments
      guard segments.count == 2, segments[1] == "v2.0", let tenantID = UUID(uuidString: segments[0]),
        let host = url.host?.lowercased(), url.user == nil, url.query == nil, url.fragment == nil
      else { return false }
      let guid = tenantID.uuidString.lowercased()
      if url.scheme == "https", url.port == nil, host == "\(guid).ciamlogin.com" { return true }
      return url.scheme == "http" && base.scheme == "http" && LoopbackHost.contains(base.host ?? "")
        && host == "\(guid).localhost" && url.port == base.port
    }
  }

  private static func trimmingSlash(_ text: String) -> String {
    text.hasSuffix("/") ? String(text.dropLast()) : text
  }
}

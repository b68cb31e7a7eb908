// RedirectURI: the three redirect forms a native B2C client may register. Value type; any thread.

import FoundationEssentials

/// Where B2C sends the browser when a sign-in ends; a navigation to it ends the sign-in.
///
/// Three forms exist (PROTOCOL.md §7): B2C's own `urn:ietf:wg:oauth:2.0:oob`, a loopback URL
/// (`http://127.0.0.1:PORT/…`, `http://localhost…`, `http://[::1]…`) and a reverse-DNS custom scheme
/// (`com.onmicrosoft.contoso.tasks://oauth/redirect`).
public struct RedirectURI: Sendable, Hashable, CustomStringConvertible {
  /// The form of a redirect URI.
  public enum Kind: Sendable, Hashable {
    /// `urn:ietf:wg:oauth:2.0:oob`.
    case outOfBand
    /// An `http` URL on a loopback host; the port may vary between sign-ins.
    case loopback
    /// A private-use scheme in reverse-DNS form.
    case customScheme
  }

  /// The value exactly as registered; it is sent as-is in authorize and token requests.
  public let value: String
  /// Which form it has.
  public let kind: Kind

  /// The out-of-band redirect B2C's own pages use.
  public static let outOfBand = RedirectURI(checked: "urn:ietf:wg:oauth:2.0:oob", kind: .outOfBand)

  /// The loopback redirect on any port (RFC 8252 §7.3): the web view catches it, the browser flow listens on it.
  public static let anyLoopbackPort = RedirectURI(checked: "http://127.0.0.1/", kind: .loopback)

  /// The redirect used when the settings name none: the iOS sample's `urn:ietf:wg:oauth:2.0:oob` for B2C, whose
  /// native registrations offer it; for External ID and other OpenID Connect providers `http://127.0.0.1/` on any
  /// port, which RFC 8252 asks every provider to accept for native apps.
  public static func `default`(for provider: Authority.Provider) -> RedirectURI {
    provider == .b2c ? outOfBand : anyLoopbackPort
  }

  private init(checked value: String, kind: Kind) {
    self.value = value
    self.kind = kind
  }

  /// Parses a redirect URI, or returns `nil` when it is none of the three forms.
  public init?(_ value: String) {
    let trimmed = value.trimmed(newlines: false)
    guard !trimmed.isEmpty, trimmed == value else { return nil }
    if value.lowercased() == Self.outOfBand.value {
      self.init(checked: value, kind: .outOfBand)
      return
    }
    guard let components = URLComponents(string: value), let scheme = components.scheme?.lowercased()
    else { return nil }
    if scheme == "http" {
      guard let host = components.host, LoopbackHost.contains(host), components.fragment == nil else {
        return nil
      }
      self.init(checked: value, kind: .loopback)
    } else if Self.isReverseDNSScheme(scheme) {
      self.init(checked: value, kind: .customScheme)
    } else {
      return nil
    }
  }

  /// A private-use scheme per RFC 8252 §7.1: at least two dot-separated labels, and not a web scheme.
  private static func isReverseDNSScheme(_ scheme: String) -> Bool {
    let labels = scheme.split(separator: ".", omittingEmptySubsequences: false)
    guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty }) else { return false }
    return !["http", "https", "file", "about", "data", "javascript"].contains(scheme)
  }

  /// The registered value.
  public var description: String { value }
}

/// Host names that always mean this machine.
public enum LoopbackHost {
  /// Whether `host` is `localhost`, an address in 127.0.0.0/8 or `::1` (with or without brackets).
  public static func contains(_ host: String) -> Bool {
    let host = host.lowercased().trimmed { $0 == "[" || $0 == "]" }
    if host == "localhost" || host == "::1" { return true }
    let octets = host.split(separator: ".", omittingEmptySubsequences: false)
    guard octets.count == 4, octets.first == "127" else { return false }
    return octets.allSatisfy { UInt8($0) != nil }
  }

  /// The rule for every URL the app talks to, from settings or from a discovery document: https, or http to a
  /// loopback host (a local playground or development tenant).
  public static func permitsTransport(of url: URL) -> Bool {
    switch url.scheme?.lowercased() {
    case "https": return !(url.host ?? "").isEmpty
    case "http": return contains(url.host ?? "")
    default: return false
    }
  }
}

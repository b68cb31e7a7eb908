// ServerOrigin: the playground's public origin (which its issuer and endpoints name) and the Host values it answers.
// Sendable; set once the port is bound.

import Foundation
import Synchronization

/// Where the playground is reached: `--public-url`, else `http(s)://HOST:PORT` of the address it listens on (loopback
/// for a wildcard address). The issuer and every endpoint it publishes derive from it, never from a request's `Host`
/// header, which any client can set.
final class ServerOrigin: Sendable {
  private let value: Mutex<String>
  private let fixed: Bool
  private let scheme: String
  private let displayHost: String
  private let names: Set<String>

  init(_ configuration: PlaygroundConfiguration) {
    scheme = configuration.tls == nil ? "http" : "https"
    let host = configuration.host
    let shown = ["0.0.0.0", "::", ""].contains(host) ? "127.0.0.1" : host
    displayHost = shown.contains(":") ? "[\(shown)]" : shown
    if let url = configuration.publicURL, let origin = Self.origin(of: url) {
      value = Mutex(origin)
      fixed = true
    } else {
      value = Mutex("\(scheme)://\(displayHost):\(configuration.port)")
      fixed = false
    }
    var names = Set(configuration.allowedHosts.map { $0.lowercased() })
    names.insert(Self.bare(host.lowercased()))
    if let publicHost = configuration.publicURL?.host { names.insert(Self.bare(publicHost.lowercased())) }
    self.names = names
  }

  /// `scheme://host[:port]`.
  var current: String { value.withLock { $0 } }

  /// Records the bound port (for port 0), unless a public URL was given.
  func bound(port: Int) {
    guard !fixed else { return }
    value.withLock { $0 = "\(scheme)://\(displayHost):\(port)" }
  }

  /// Whether a request whose `Host` (authority) is `authority` is for this server: loopback names, `*.localhost`
  /// (RFC 6761), the address listened on, the public URL's host and `--allowed-host` names. Anything else is another
  /// site's name pointing here (DNS rebinding) and is refused. A request without a Host is no browser's.
  func allows(authority: String?) -> Bool {
    guard let authority else { return true }
    var host = authority.lowercased()
    if host.hasPrefix("[") {
      host = String(host.dropFirst().prefix { $0 != "]" })
    } else if let colon = host.lastIndex(of: ":") {
      host = String(host[..<colon])
    }
    if ["localhost", "127.0.0.1", "::1"].contains(host) || host.hasSuffix(".localhost") { return true }
    return names.contains(host)
  }

  private static func bare(_ host: String) -> String {
    host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
  }

  private static func origin(of url: URL) -> String? {
    guard let scheme = url.scheme?.lowercased(), let host = url.host else { return nil }
    let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    return "\(scheme)://\(shownHost)" + (url.port.map { ":\($0)" } ?? "")
  }
}

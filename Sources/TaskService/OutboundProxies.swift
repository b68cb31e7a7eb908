// OutboundProxies: the proxies b2c-tasks-api's own reads (its issuers' metadata and key sets) go through, named by
// the environment as libcurl read them when it made those reads.

import Foundation

/// The proxies the environment names for the service's reads of its issuers' metadata and keys, read as libcurl
/// (which made those reads before AsyncHTTPClient) read them: `https_proxy` (or `HTTPS_PROXY`) for https URLs,
/// `http_proxy` for http ones (lower case only: a CGI request's `Proxy:` header arrives as `HTTP_PROXY`), `all_proxy`
/// (or `ALL_PROXY`) for either when its own is not set, and `no_proxy` (or `NO_PROXY`) for the hosts reached
/// directly. A proxy is `[http://][user:password@]host[:port]` (port 1080 when none is named, as libcurl's) or
/// `socks5://host[:port]` and `socks5h://` (the proxy resolves the name either way). TLS to the proxy (`https://`) and
/// SOCKS 4 are refused with the variable's name: AsyncHTTPClient does neither. Loopback hosts are no exception of
/// their own: name them in `no_proxy`, as with curl.
public struct OutboundProxies: Sendable, Equatable {
  /// A proxy: where it listens, and its kind.
  public struct Proxy: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
      /// HTTP `CONNECT` (for https and http URLs alike), with Basic authentication when `credentials` are given.
      case http
      case socks5
    }

    public let kind: Kind
    public let host: String
    public let port: Int
    /// The user and password of the proxy's Basic authentication, percent-decoded; never written anywhere.
    let credentials: Credentials?
  }

  /// A proxy's user and password: kept out of every description, debugging's and `dump`'s too.
  struct Credentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let user: String
    let password: String
    var description: String { "(credentials)" }
    var debugDescription: String { description }
    var customMirror: Mirror { Mirror(self, children: [:]) }
  }

  let https: Proxy?
  let http: Proxy?
  /// The hosts `no_proxy` names (lower case, without leading or trailing dots), and its address ranges.
  let directHosts: [String]
  let directRanges: [AddressRange]
  /// `no_proxy` is `*`: nothing goes through a proxy.
  let allDirect: Bool

  /// No proxy: every read direct.
  public static let none = OutboundProxies(https: nil, http: nil, directHosts: [], directRanges: [], allDirect: false)

  private init(https: Proxy?, http: Proxy?, directHosts: [String], directRanges: [AddressRange], allDirect: Bool) {
    (self.https, self.http, self.directHosts, self.directRanges, self.allDirect) =
      (https, http, directHosts, directRanges, allDirect)
  }

  /// Reads `environment` (the process's, as a program starts); a variable that names no proxy it can use is an
  /// error naming the variable and never its value (which may hold a password).
  public init(environment: [String: String]) throws(OutboundProxyError) {
    func value(_ names: String...) -> (name: String, value: String)? {
      for name in names {
        if let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty { return (name, value) }
      }
      return nil
    }
    func proxy(_ named: (name: String, value: String)?) throws(OutboundProxyError) -> Proxy? {
      guard let named else { return nil }
      return try Self.proxy(named.value, variable: named.name)
    }
    let all = try proxy(value("all_proxy", "ALL_PROXY"))
    https = try proxy(value("https_proxy", "HTTPS_PROXY")) ?? all
    http = try proxy(value("http_proxy")) ?? all
    var hosts: [String] = []
    var ranges: [AddressRange] = []
    var star = false
    if let exceptions = value("no_proxy", "NO_PROXY") {
      for entry in exceptions.value.split(separator: ",") {
        let entry = entry.trimmingCharacters(in: .whitespaces).lowercased()
        if entry.isEmpty { continue }
        if entry == "*" {
          star = true
        } else if let range = AddressRange(entry) {
          ranges.append(range)
        } else {
          let name = entry.trimmingCharacters(in: CharacterSet(charactersIn: "."))
          guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
            throw OutboundProxyError(variable: exceptions.name, problem: .notAHost)
          }
          hosts.append(name)
        }
      }
    }
    (directHosts, directRanges, allDirect) = (hosts, ranges, star)
  }

  /// The proxy a read of `url` goes through; nil: directly.
  public func proxy(for url: URL) -> Proxy? {
    let scheme = url.scheme?.lowercased()
    guard let proxy = scheme == "https" ? https : scheme == "http" ? http : nil else { return nil }
    guard !allDirect, var host = url.host(percentEncoded: false)?.lowercased() else { return allDirect ? nil : proxy }
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    if host.hasSuffix(".") { host.removeLast() }
    if let address = AddressRange.address(host) {
      return directRanges.contains { $0.contains(address) } ? nil : proxy
    }
    return directHosts.contains { host == $0 || host.hasSuffix("." + $0) } ? nil : proxy
  }

  /// `value` as a proxy, or why it is none (named by `variable`).
  private static func proxy(_ value: String, variable: String) throws(OutboundProxyError) -> Proxy {
    let text = value.contains("://") ? value : "http://" + value
    guard let parts = URLComponents(string: text), let scheme = parts.scheme?.lowercased() else {
      throw OutboundProxyError(variable: variable, problem: .notAnAddress)
    }
    let kind: Proxy.Kind
    switch scheme {
    case "http": kind = .http
    case "socks5", "socks5h": kind = .socks5
    default: throw OutboundProxyError(variable: variable, problem: .unsupportedKind(scheme))
    }
    var host = parts.host ?? ""
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || "-_.:".contains($0) }),
      parts.query == nil, parts.fragment == nil, ["", "/"].contains(parts.percentEncodedPath)
    else { throw OutboundProxyError(variable: variable, problem: .notAnAddress) }
    let port = parts.port ?? 1080
    guard (1...65535).contains(port) else { throw OutboundProxyError(variable: variable, problem: .badPort) }
    var credentials: Credentials?
    if parts.percentEncodedUser != nil || parts.percentEncodedPassword != nil {
      guard kind == .http else { throw OutboundProxyError(variable: variable, problem: .unsupportedKind(scheme)) }
      guard let user = parts.user, !user.isEmpty else {
        throw OutboundProxyError(variable: variable, problem: .badCredentials)
      }
      credentials = Credentials(user: user, password: parts.password ?? "")
    }
    return Proxy(kind: kind, host: host, port: port, credentials: credentials)
  }
}

/// An address or a range of them (`10.0.0.0/8`, `fd00::/8`) `no_proxy` names: a read of a URL naming an address in
/// it goes direct. A name is never resolved to be matched (libcurl's rule).
struct AddressRange: Sendable, Equatable {
  let network: [UInt8]
  let bits: Int

  init?(_ text: String) {
    let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
    var address = String(parts[0])
    if address.hasPrefix("["), address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
    guard let network = Self.address(address) else { return nil }
    let bits = parts.count == 2 ? Int(parts[1]) : network.count * 8
    guard let bits, (0...network.count * 8).contains(bits) else { return nil }
    (self.network, self.bits) = (network, bits)
  }

  /// `text`'s bytes when it is an IPv4 or IPv6 address.
  static func address(_ text: String) -> [UInt8]? {
    var four = in_addr()
    if inet_pton(AF_INET, text, &four) == 1 { return withUnsafeBytes(of: &four) { Array($0) } }
    var six = in6_addr()
    if inet_pton(AF_INET6, text, &six) == 1 { return withUnsafeBytes(of: &six) { Array($0) } }
    return nil
  }

  func contains(_ address: [UInt8]) -> Bool {
    guard address.count == network.count else { return false }
    for bit in stride(from: 0, to: bits, by: 8) {
      let mask: UInt8 = bits - bit >= 8 ? 0xFF : ~(0xFF >> UInt8(bits - bit))
      if address[bit / 8] & mask != network[bit / 8] & mask { return false }
    }
    return true
  }
}

/// Why a proxy variable cannot be used: named by the variable, never by its value.
public struct OutboundProxyError: Error, Equatable, CustomStringConvertible {
  public enum Problem: Sendable, Equatable {
    case notAnAddress
    case unsupportedKind(String)
    case badPort
    case badCredentials
    case notAHost
  }

  public let variable: String
  public let problem: Problem

  public var description: String {
    switch problem {
    case .notAnAddress: "\(variable) is not a proxy's address ([http://][user:password@]host[:port])."
    case .unsupportedKind(let scheme):
      "\(variable) names a \(scheme):// proxy\(scheme.hasPrefix("socks") ? " with a password" : ""); "
        + "an http:// proxy (with or without a password) or a socks5:// one can be used."
    case .badPort: "\(variable) names a port that is not 1 to 65535."
    case .badCredentials: "\(variable) names a password without a user."
    case .notAHost: "\(variable) holds an entry that is not a host, a domain or an address range."
    }
  }
}

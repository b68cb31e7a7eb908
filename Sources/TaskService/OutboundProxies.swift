// OutboundProxies: the proxy b2c-tasks-api's own reads (its issuers' metadata and key sets) go through, named by the
// environment as libcurl read it when it made those reads.

import Foundation

/// The proxy the environment names for the service's reads of its issuers' metadata and keys, read as libcurl (which
/// made those reads before AsyncHTTPClient) read it for https: `https_proxy` (or `HTTPS_PROXY`), else `all_proxy`
/// (or `ALL_PROXY`), except for the hosts `no_proxy` (or `NO_PROXY`) names. A proxy is
/// `[http://][user:password@]host[:port][/]` (port 1080 when none is named, as libcurl's) or `socks5h://host[:port]`
/// and `socks5://` (the proxy resolves the name either way). TLS to the proxy (`https://`), SOCKS 4 and a SOCKS
/// password are refused, naming the variable: AsyncHTTPClient does none of them. Plain http URLs are always read
/// directly (`http_proxy` is not read): the keys are taken over plain http only from this machine's loopback, which a
/// proxy's loopback is not, and the proxy would carry them in the clear.
public struct OutboundProxies: Sendable, Equatable {
  /// A proxy: where it listens, and its kind.
  public struct Proxy: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
      /// HTTP `CONNECT`, with Basic authentication when `credentials` are given.
      case http
      /// SOCKS 5, the name resolved by the proxy.
      case socks5
    }

    public let kind: Kind
    public let host: String
    public let port: Int
    /// The user and password of the proxy's Basic authentication, percent-decoded; never written anywhere.
    let credentials: Credentials?

    /// Where it listens (`host:port`); never its credentials.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
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
  /// The hosts `no_proxy` names (lower case, without leading or trailing dots), and its address ranges.
  let directHosts: [String]
  let directRanges: [AddressRange]
  /// `no_proxy` is `*`: nothing goes through a proxy.
  let allDirect: Bool
  /// The entries of `no_proxy` that name no host, domain or range (`host:port`, `<local>`): left out, as libcurl
  /// leaves them, and said at start.
  public let ignoredExceptions: [String]

  /// No proxy: every read direct.
  public static let none = OutboundProxies(
    https: nil, directHosts: [], directRanges: [], allDirect: false, ignoredExceptions: [])

  private init(
    https: Proxy?, directHosts: [String], directRanges: [AddressRange], allDirect: Bool, ignoredExceptions: [String]
  ) {
    (self.https, self.directHosts, self.directRanges, self.allDirect, self.ignoredExceptions) =
      (https, directHosts, directRanges, allDirect, ignoredExceptions)
  }

  /// Reads `environment` (the process's, as a program starts). The proxy variable in use that names no proxy it can
  /// use is an error naming the variable and never its value (which may hold a password); a variable not in use
  /// (`all_proxy` beside `https_proxy`) is not read.
  public init(environment: [String: String]) throws(OutboundProxyError) {
    func value(_ names: String...) -> (name: String, value: String)? {
      for name in names {
        if let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty { return (name, value) }
      }
      return nil
    }
    if let named = value("https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY") {
      https = try Self.proxy(named.value, variable: named.name)
    } else {
      https = nil
    }
    var hosts: [String] = []
    var ranges: [AddressRange] = []
    var ignored: [String] = []
    let exceptions = value("no_proxy", "NO_PROXY")?.value ?? ""
    allDirect = exceptions == "*"
    for entry in exceptions.split(whereSeparator: { $0 == "," || $0.isWhitespace }) where !allDirect {
      let entry = entry.lowercased()
      if let range = AddressRange(entry) {
        ranges.append(range)
        continue
      }
      // A domain (`example.com`, `.example.com` and `*.example.com`: it and its subdomains) or a host.
      var name = Substring(entry)
      if name.hasPrefix("*.") { name = name.dropFirst() }
      name = name.drop { $0 == "." }
      while name.hasSuffix(".") { name = name.dropLast() }
      guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
        ignored.append(entry)
        continue
      }
      hosts.append(String(name))
    }
    (directHosts, directRanges, ignoredExceptions) = (hosts, ranges, ignored)
  }

  /// The proxy a read of `url` goes through; nil: directly.
  public func proxy(for url: URL) -> Proxy? {
    guard url.scheme?.lowercased() == "https", let https, !allDirect else { return nil }
    guard var host = url.host(percentEncoded: false).map({ AddressRange.unbracketed($0.lowercased()) }) else {
      return https
    }
    if host.hasSuffix(".") { host.removeLast() }
    if let address = AddressRange.address(host) {
      return directRanges.contains { $0.contains(address) } ? nil : https
    }
    return directHosts.contains { host == $0 || host.hasSuffix("." + $0) } ? nil : https
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
    let host = AddressRange.unbracketed(parts.host ?? "")
    guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || "-_.:".contains($0) }),
      parts.query == nil, parts.fragment == nil
    else { throw OutboundProxyError(variable: variable, problem: .notAnAddress) }
    let port = parts.port ?? 1080
    guard (1...65535).contains(port) else { throw OutboundProxyError(variable: variable, problem: .badPort) }
    var credentials: Credentials?
    if parts.percentEncodedUser != nil || parts.percentEncodedPassword != nil {
      guard kind == .http else { throw OutboundProxyError(variable: variable, problem: .socksPassword) }
      guard let user = parts.user, !user.isEmpty else {
        throw OutboundProxyError(variable: variable, problem: .badCredentials)
      }
      credentials = Credentials(user: user, password: parts.password ?? "")
    }
    return Proxy(kind: kind, host: host, port: port, credentials: credentials)
  }
}

/// An address or a range of them (`10.0.0.0/8`, `fd00::/8`; IPv6 ones in brackets too, which libcurl 7.88 did not
/// match) `no_proxy` names: a read of a URL naming an address in it goes direct. A name is never resolved to be
/// matched (libcurl's rule), and a range of no bits (`/0`) is no range.
struct AddressRange: Sendable, Equatable {
  let network: [UInt8]
  let bits: Int

  init?(_ text: String) {
    let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
    guard let network = Self.address(Self.unbracketed(String(parts[0]))) else { return nil }
    let bits = parts.count == 2 ? Int(parts[1]) : network.count * 8
    guard let bits, (1...network.count * 8).contains(bits) else { return nil }
    (self.network, self.bits) = (network, bits)
  }

  /// `text` without the brackets an IPv6 address is written in within a URL.
  static func unbracketed(_ text: String) -> String {
    text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
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
    case socksPassword
    case badPort
    case badCredentials
  }

  public let variable: String
  public let problem: Problem

  public var description: String {
    let usable = "an http:// proxy (with or without a password) or a socks5:// one (without) can be used."
    return switch problem {
    case .notAnAddress: "\(variable) is not a proxy's address ([http://][user:password@]host[:port])."
    case .unsupportedKind(let scheme): "\(variable) names a proxy of the kind \(scheme)://; \(usable)"
    case .socksPassword: "\(variable) names a SOCKS proxy with a password; \(usable)"
    case .badPort: "\(variable) names a port that is not 1 to 65535."
    case .badCredentials: "\(variable) names a password without a user."
    }
  }
}

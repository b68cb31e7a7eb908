// OpenIDMetadata: a provider's (or B2C policy's) discovery document and signing keys, fetched once and cached.
// Actor.

import FoundationEssentials
import JWTKit

/// The parts of a provider's (or B2C policy's) OpenID Connect discovery document the app uses.
public struct OpenIDConfiguration: Sendable, Equatable {
  /// The issuer every token names (B2C's and External ID's differ from the discovery URL).
  public var issuer: String
  /// The JWKS URL.
  public var jwksURI: URL
  /// The end-session endpoint, when published.
  public var endSessionEndpoint: URL?
  /// The authorize endpoint, when published.
  public var authorizationEndpoint: URL?
  /// The token endpoint, when published.
  public var tokenEndpoint: URL?
  /// The scopes the provider lists, when it lists them.
  public var scopesSupported: [String]?

  /// Reads a discovery document of `authority`: the issuer must be one `authority` accepts, and every endpoint must
  /// be https (http on loopback only), as settings must. A plain OpenID Connect provider must name its authorize and
  /// token endpoints; B2C and External ID have conventional ones.
  public static func parse(_ document: Data, for authority: Authority) throws(MetadataError) -> OpenIDConfiguration {
    guard let fields = JSONValue.object(document) else {
      throw .badDocument("not a discovery document")
    }
    guard let issuer = fields["issuer"]?.string, !issuer.isEmpty else { throw .badDocument("no issuer") }
    guard authority.accepts(issuer: issuer) else { throw .untrustedIssuer(issuer) }
    func endpoint(_ name: String, required: Bool = false) throws(MetadataError) -> URL? {
      guard let value = fields[name] else {
        if required { throw .badDocument("no \(name)") }
        return nil
      }
      guard let text = value.string, let url = URL(string: text) else {
        throw .badDocument("\(name) is not a URL")
      }
      guard LoopbackHost.permitsTransport(of: url) else { throw .insecureEndpoint(name) }
      return url
    }
    let openID = authority.provider == .openID
    guard let jwks = try endpoint("jwks_uri", required: true) else { throw .badDocument("no jwks_uri") }
    var scopes: [String]?
    if let listed = fields["scopes_supported"] {
      guard let elements = listed.array, case let strings = elements.compactMap(\.string),
        strings.count == elements.count
      else { throw .badDocument("scopes_supported is not a list") }
      scopes = strings
    }
    return OpenIDConfiguration(
      issuer: issuer, jwksURI: jwks, endSessionEndpoint: try endpoint("end_session_endpoint"),
      authorizationEndpoint: try endpoint("authorization_endpoint", required: openID),
      tokenEndpoint: try endpoint("token_endpoint", required: openID), scopesSupported: scopes)
  }
}

/// Why a policy's metadata could not be had.
public enum MetadataError: Error, Equatable, Sendable {
  /// The network failed.
  case network(NetworkError)
  /// The server answered, but not with a discovery document or key set.
  case badDocument(String)
  /// The discovery document names an issuer the configured authority does not vouch for.
  case untrustedIssuer(String)
  /// The discovery document names an endpoint that is neither https nor on loopback.
  case insecureEndpoint(String)
}

/// Fetches and caches discovery documents and key sets per policy. Both are fetched again once they are a day old;
/// keys also when a token names an unknown `kid` or its key does not verify it (key rollover), at most once a minute
/// for each key a token names (so a rollover right after a fetch is still seen, and junk costs one fetch a minute).
public actor OpenIDMetadata {
  /// How long a discovery document or key set is used before it is fetched again.
  public static let lifetime: TimeInterval = 86400
  private let http: HTTPClient
  private let now: @Sendable () -> Date
  private var configurations: [URL: (configuration: OpenIDConfiguration, fetched: Date)] = [:]
  private var keySets: [URL: (keys: JWTKeyCollection, kids: Set<String>, fetched: Date)] = [:]
  private var keyFetches: [URL: Task<Result<KeySet, MetadataError>, Never>] = [:]
  /// When a key set was last fetched again for a key a token named ("" for none).
  private var refetches: [URL: [String: Date]] = [:]

  /// Creates an empty cache; `now` is the clock its ages are measured with.
  public init(http: HTTPClient, now: @escaping @Sendable () -> Date = { Date() }) {
    self.http = http
    self.now = now
  }

  /// The discovery document of `authority` at `url`.
  public func configuration(_ url: URL, for authority: Authority) async throws(MetadataError) -> OpenIDConfiguration {
    if let cached = configurations[url], now().timeIntervalSince(cached.fetched) < Self.lifetime {
      return cached.configuration
    }
    let answer: HTTPAnswer
    do { answer = try await http.get(url) } catch { throw .network(error) }
    guard answer.status == 200 else { throw .badDocument("discovery answered HTTP \(answer.status)") }
    let configuration = try OpenIDConfiguration.parse(answer.body, for: authority)
    configurations[url] = (configuration, now())
    return configuration
  }

  /// The key set at `url` and the key ids it holds: fetched again when it is a day old, or with `refresh` (for a
  /// token naming `kid`) unless it was fetched again for that key within the last minute.
  func keys(_ url: URL, refresh: Bool = false, for kid: String? = nil) async throws(MetadataError) -> (
    keys: JWTKeyCollection, kids: Set<String>
  ) {
    if let cached = keySets[url] {
      let fresh = now().timeIntervalSince(cached.fetched) < Self.lifetime
      if !refresh && fresh { return (cached.keys, cached.kids) }
      if refresh, let last = refetches[url]?[kid ?? ""], now().timeIntervalSince(last) < 60 {
        return (cached.keys, cached.kids)
      }
    }
    if refresh {
      if (refetches[url]?.count ?? 0) >= 100 { refetches[url] = [:] }
      refetches[url, default: [:]][kid ?? ""] = now()
    }
    // One fetch at a time per key set: a sign-in's early fetch (while the user types) and its token check share it.
    let fetch: Task<Result<KeySet, MetadataError>, Never>
    if let running = keyFetches[url] {
      fetch = running
    } else {
      let http = self.http
      fetch = Task {
        do throws(MetadataError) {
          let answer: HTTPAnswer
          do throws(NetworkError) { answer = try await http.get(url) } catch { throw .network(error) }
          guard answer.status == 200 else { throw .badDocument("key set answered \(answer.status)") }
          return .success(try await Self.keySet(answer.body))
        } catch {
          return .failure(error)
        }
      }
      keyFetches[url] = fetch
    }
    let result = await fetch.value
    if keyFetches[url] == fetch {
      keyFetches[url] = nil
      if case .success(let set) = result { keySets[url] = (set.keys, set.kids, now()) }
    }
    return try result.get()
  }

  /// A key set's keys and the key ids it names.
  typealias KeySet = (keys: JWTKeyCollection, kids: Set<String>)

  /// A JWKS document's keys and the key ids it names; any other bytes are a `.badDocument`.
  public static func keySet(_ document: Data) async throws(MetadataError) -> (
    keys: JWTKeyCollection, kids: Set<String>
  ) {
    guard let keys = JSONValue.object(document)?["keys"]?.array, case let entries = keys.compactMap(\.object),
      entries.count == keys.count
    else { throw .badDocument("not a key set") }
    // Keys for checking signatures are public. A key with private members is left out: JWTKit would build a
    // private key from it, and swift-crypto traps (a crash, not an error) on a malformed one — found by fuzzing.
    // The signature algorithm is pinned to RS256 on every key: B2C's key sets name none, and JWTKit would take it
    // from the first token's header and keep it for the key — one junk token naming PS256 with a real kid made every
    // later valid RS256 token fail. Keys for another algorithm are left out.
    // A key without a `kid` gets one of its own making (JWTKit refuses keys without; a token can only be checked
    // against such a key when the set has no other, `IDTokenValidator`).
    let publicKeys = entries.filter { Set($0.keys).isDisjoint(with: Self.privateMembers) }
      .filter { $0["kty"]?.string == "RSA" && ($0["alg"]?.string ?? "RS256") == "RS256" }
      .enumerated().map { index, key in
        key.merging(["alg": .string("RS256"), "kid": key["kid"] ?? .string("unnamed key \(index)")]) { _, set in set }
      }
    let collection = JWTKeyCollection()
    do {
      let json = try JSONEncoder().encode(["keys": publicKeys])
      _ = try await collection.add(jwksJSON: String(decoding: json, as: UTF8.self))
    } catch {
      throw .badDocument("not a key set")
    }
    return (collection, Set(publicKeys.compactMap { $0["kid"]?.string }))
  }

  /// The members of a JWK that only a private or symmetric key has (RFC 7518, section 6).
  private static let privateMembers: Set<String> = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]
}

// OpenIDMetadata: a policy's discovery document and signing keys, fetched once and cached. Actor.

import Foundation
import JWTKit

/// The parts of a policy's OpenID Connect discovery document the app uses.
public struct OpenIDConfiguration: Sendable, Equatable {
  /// The issuer every token of the policy names (B2C's differs from the discovery URL).
  public var issuer: String
  /// The JWKS URL.
  public var jwksURI: URL
  /// The end-session endpoint, when published.
  public var endSessionEndpoint: URL?
  /// The authorize endpoint, when published.
  public var authorizationEndpoint: URL?
  /// The token endpoint, when published.
  public var tokenEndpoint: URL?
}

/// Why a policy's metadata could not be had.
public enum MetadataError: Error, Equatable, Sendable {
  /// The network failed.
  case network(NetworkError)
  /// The server answered, but not with a discovery document or key set.
  case badDocument(String)
}

/// Fetches and caches discovery documents and key sets per policy. Keys are fetched again when a token names an
/// unknown `kid` (key rollover), at most once a minute per key set.
public actor OpenIDMetadata {
  private let http: HTTPClient
  private var configurations: [URL: OpenIDConfiguration] = [:]
  private var keySets: [URL: (keys: JWTKeyCollection, kids: Set<String>, fetched: Date)] = [:]

  /// Creates an empty cache.
  public init(http: HTTPClient = .shared) {
    self.http = http
  }

  /// The discovery document at `url`.
  public func configuration(_ url: URL) async throws(MetadataError) -> OpenIDConfiguration {
    if let cached = configurations[url] { return cached }
    let answer: HTTPAnswer
    do { answer = try await http.get(url) } catch { throw .network(error) }
    guard answer.status == 200, let object = try? JSONSerialization.jsonObject(with: answer.body),
      let fields = object as? [String: Any], let issuer = fields["issuer"] as? String, !issuer.isEmpty,
      let jwks = (fields["jwks_uri"] as? String).flatMap(URL.init(string:))
    else { throw .badDocument("discovery answered \(answer.status) without issuer and jwks_uri") }
    let configuration = OpenIDConfiguration(
      issuer: issuer, jwksURI: jwks,
      endSessionEndpoint: (fields["end_session_endpoint"] as? String).flatMap(URL.init(string:)),
      authorizationEndpoint: (fields["authorization_endpoint"] as? String).flatMap(URL.init(string:)),
      tokenEndpoint: (fields["token_endpoint"] as? String).flatMap(URL.init(string:)))
    configurations[url] = configuration
    return configuration
  }

  /// The key set at `url` and the key ids it holds; `refresh` fetches it again unless it was fetched within the last
  /// minute.
  func keys(_ url: URL, refresh: Bool = false) async throws(MetadataError) -> (
    keys: JWTKeyCollection, kids: Set<String>
  ) {
    if let cached = keySets[url], !refresh || Date().timeIntervalSince(cached.fetched) < 60 {
      return (cached.keys, cached.kids)
    }
    let answer: HTTPAnswer
    do { answer = try await http.get(url) } catch { throw .network(error) }
    guard answer.status == 200 else { throw .badDocument("key set answered \(answer.status)") }
    let set = try await Self.keySet(answer.body)
    keySets[url] = (set.keys, set.kids, Date())
    return set
  }

  /// A JWKS document's keys and the key ids it names; any other bytes are a `.badDocument`.
  public static func keySet(_ document: Data) async throws(MetadataError) -> (
    keys: JWTKeyCollection, kids: Set<String>
  ) {
    guard let object = (try? JSONSerialization.jsonObject(with: document)) as? [String: Any],
      let entries = object["keys"] as? [[String: Any]]
    else { throw .badDocument("not a key set") }
    // Keys for checking signatures are public. A key with private members is left out: JWTKit would build a
    // private key from it, and swift-crypto traps (a crash, not an error) on a malformed one — found by fuzzing.
    let publicKeys = entries.filter { Set($0.keys).isDisjoint(with: Self.privateMembers) }
    let collection = JWTKeyCollection()
    do {
      let json = try JSONSerialization.data(withJSONObject: ["keys": publicKeys])
      _ = try await collection.add(jwksJSON: String(decoding: json, as: UTF8.self))
    } catch {
      throw .badDocument("not a key set")
    }
    return (collection, Set(publicKeys.compactMap { $0["kid"] as? String }))
  }

  /// The members of a JWK that only a private or symmetric key has (RFC 7518, section 6).
  private static let privateMembers: Set<String> = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]
}

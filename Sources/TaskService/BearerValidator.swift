// BearerValidator: checks the task API's bearer tokens: signature (JWKS), issuer, audience, lifetime. Sendable.

import AsyncHTTPClient
import Crypto
import Foundation
import JWTKit
import NIOCore
import NIOSSL
import Synchronization

/// The claims the task API looks at; anything else in the token is ignored.
struct BearerClaims: JWTPayload {
  var iss: String
  var aud: AudienceClaim
  var exp: Int
  var nbf: Int?
  var oid: String?
  var sub: String?
  /// The user's name (shown to the members of a list they share); never an e-mail address the token lacks.
  var name: String?

  func verify(using algorithm: some JWTAlgorithm) throws {}
}

/// Validates bearer tokens as the sample's .NET TaskService did: signature against the issuer's keys, `iss`, `aud`,
/// and lifetime with clock skew. The keys are either a local key collection (the playground's own) or those of one
/// or more OpenID Connect issuers (B2C policies, Entra External ID, any OpenID Connect provider), read from their
/// metadata documents.
///
/// A token that passed is remembered, by the SHA-256 of its text, until it expires: a client calls with the same
/// access token for an hour, and checking an RS256 signature is most of what a request would otherwise cost.
public struct BearerValidator: Sendable {
  public enum Keys: Sendable {
    /// A key collection and the issuer its tokens name (asked each time: it may depend on the bound port).
    case local(JWTKeyCollection, issuer: @Sendable () -> String)
    /// The issuers whose metadata documents are at these URLs.
    case issuers([IssuerKeys])
  }

  let keys: Keys
  let audiences: [String]
  let clockSkew: Int
  private let cache = VerifiedTokens()

  /// A validator accepting tokens signed with `keys` for any of `audiences` (compared ignoring case).
  public init(keys: Keys, audiences: [String], clockSkew: Int) {
    self.keys = keys
    self.audiences = audiences.map { $0.lowercased() }
    self.clockSkew = clockSkew
  }

  /// The owner of a valid bearer token in an `Authorization` header (`TaskOwner.key`: its issuer and its `oid`,
  /// else `sub`), or nil.
  public func owner(authorization: String?) async -> String? {
    await caller(authorization: authorization)?.key
  }

  /// The owner of a valid bearer token and the name it gives (`name`, at most 200 characters), or nil.
  public func caller(authorization: String?) async -> PlannerCaller? {
    guard let authorization, authorization.utf8.count < 16_384 else { return nil }
    let parts = authorization.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    // Spaces and tabs around the token (not Foundation's trimming: bridging through NSString cost most of this
    // function's time per request).
    let bytes = parts[1].utf8
    let start = bytes.firstIndex { $0 != 0x20 && $0 != 0x09 } ?? bytes.endIndex
    let end = bytes.lastIndex { $0 != 0x20 && $0 != 0x09 }.map { bytes.index(after: $0) } ?? start
    let token = String(Substring(bytes[start..<end]))
    let now = Int(Date().timeIntervalSince1970)
    let digest = Data(SHA256.hash(data: Data(token.utf8)))
    if let owner = cache.owner(of: digest, at: now) { return owner }
    do {
      let claims: BearerClaims
      let ownerIssuer: String
      var signer: VerifiedTokens.Signer?
      switch keys {
      case .local(let collection, let issuer):
        claims = try await collection.verify(token, as: BearerClaims.self)
        guard claims.iss == issuer() else { return nil }
        ownerIssuer = TaskOwner.localIssuer
      case .issuers(let issuers):
        let verified = try await Self.verify(token, with: issuers)
        claims = verified.claims
        signer = verified.signer
        ownerIssuer = claims.iss
      }
      guard claims.aud.value.contains(where: { audiences.contains($0.lowercased()) }) else { return nil }
      guard now <= claims.exp + clockSkew, now >= (claims.nbf ?? 0) - clockSkew else { return nil }
      guard let subject = claims.oid ?? claims.sub, !subject.isEmpty else { return nil }
      let name = claims.name.flatMap { name -> String? in
        let trimmed = TaskRoutes.trimmedText(name)
        return trimmed.isEmpty || trimmed.unicodeScalars.count > 200 || TaskRoutes.textProblem(trimmed) != nil
          ? nil : trimmed
      }
      let owner = PlannerCaller(key: TaskOwner(issuer: ownerIssuer, subject: subject).key, displayName: name)
      cache.remember(digest, owner: owner, signer: signer, until: claims.exp + clockSkew, now: now)
      return owner
    } catch {
      return nil
    }
  }

  /// Verifies `token` with the issuer it names (read, unverified, from its payload only to pick the keys); answers
  /// its claims and the key that signed it.
  private static func verify(_ token: String, with issuers: [IssuerKeys]) async throws -> (
    claims: BearerClaims, signer: VerifiedTokens.Signer
  ) {
    let named = IssuerKeys.payloadIssuer(token)
    var lastError: any Error = JWTError.generic(identifier: "iss", reason: "no trusted issuer")
    for issuer in issuers {
      do {
        let claims = try await issuer.verify(token, naming: named)
        // Owners are per `iss`: were another trusted document to declare this one's `iss` too, whoever holds its keys
        // would own this issuer's users' tasks. One of another origin is never taken, nor is either until the
        // operator removes one. One provider's documents may share it (a B2C tenant's policies all declare the
        // tenant's issuer), as long as they publish the same keys: the key that signed the token must be published
        // by every document declaring its `iss` (one that lacks it is read again, at most once a minute).
        let key = await issuer.published(kid: IssuerKeys.keyID(token))
        for other in issuers where other !== issuer {
          guard (try? await other.name()) == claims.iss else { continue }
          guard other.origin == issuer.origin, let key, await other.publishes(key) else {
            throw JWTError.claimVerificationFailure(failedClaim: nil, reason: "two trusted issuers name this iss")
          }
        }
        return (claims, VerifiedTokens.Signer(keys: issuer, kid: IssuerKeys.keyID(token)))
      } catch {
        lastError = error
      }
    }
    throw lastError
  }

  /// What the trusted documents declare, each read once (now): the issuer each names, from its address or not.
  public struct Declarations: Sendable {
    /// The documents that declare an issuer their address does not name.
    public var misnamed: [IssuerKeys.NotItsIssuer] = []
    /// The `iss` values declared by documents of more than one origin, or by documents that publish different keys,
    /// with the metadata URLs declaring each.
    public var shared: [String: [URL]] = [:]
    /// The documents that cannot be read now, with why (their tokens are refused until they can).
    public var unreadable: [(metadataURL: URL, reason: String)] = []
  }

  /// Reads the name each of `issuers` declares (issuers that cannot be read now are left out of the names).
  public static func declarations(_ issuers: [IssuerKeys]) async -> Declarations {
    var declared: [String: [IssuerKeys]] = [:]
    var result = Declarations()
    await withTaskGroup(of: (IssuerKeys, Result<String, any Error>).self) { group in
      for issuer in issuers {
        group.addTask {
          do { return (issuer, .success(try await issuer.name())) } catch { return (issuer, .failure(error)) }
        }
      }
      for await (issuer, name) in group {
        switch name {
        case .success(let name): declared[name, default: []].append(issuer)
        case .failure(let error as IssuerKeys.NotItsIssuer): result.misnamed.append(error)
        case .failure(let error): result.unreadable.append((issuer.metadataURL, "\(error)"))
        }
      }
    }
    for (name, documents) in declared where documents.count > 1 {
      var keySets: [Set<String>] = []
      for document in documents { keySets.append(await document.publishedKeys()) }
      if Set(documents.map(\.origin)).count > 1 || Set(keySets).count > 1 {
        result.shared[name] = documents.map(\.metadataURL)
      }
    }
    return result
  }
}

/// Tokens verified before, by their SHA-256, with their owner, the key that signed them and the time they stop being
/// accepted. A remembered token counts only while its issuer's key set is fresh and still holds its key: a key the
/// issuer withdrew stops being trusted once the set is read again (`IssuerKeys.maxAge`), remembered tokens included.
/// Bounded: past `limit`, expired entries go, and if none had expired, all of them.
final class VerifiedTokens: Sendable {
  /// The issuer's keys and the key id a token was verified with.
  struct Signer: Sendable {
    let keys: IssuerKeys
    let kid: String?
  }

  private struct Entry {
    let owner: PlannerCaller
    let signer: Signer?
    let until: Int
  }
  private let entries = Mutex<[Data: Entry]>([:])
  private let limit = 10_000

  func owner(of digest: Data, at now: Int) -> PlannerCaller? {
    entries.withLock { entries in
      guard let entry = entries[digest] else { return nil }
      if now > entry.until || entry.signer.map({ !$0.keys.stillTrusts(kid: $0.kid) }) == true {
        entries[digest] = nil
        return nil
      }
      return entry.owner
    }
  }

  func remember(_ digest: Data, owner: PlannerCaller, signer: Signer?, until: Int, now: Int) {
    entries.withLock { entries in
      if entries.count >= limit {
        entries = entries.filter { $0.value.until >= now }
        if entries.count >= limit { entries.removeAll() }
      }
      entries[digest] = Entry(owner: owner, signer: signer, until: until)
    }
  }
}

/// One OpenID Connect issuer's signing keys and issuer name, read from its metadata document (a B2C policy's, an
/// External ID tenant's, any provider's `/.well-known/openid-configuration`).
///
/// Read with no redirects followed, and only from https (or http on loopback) addresses, the key set's included: the
/// keys decide who may use the task API. Requests that need the keys while they are being read share one read; after
/// a failed read, requests are refused without another for a while (1 s, doubling to a minute), so junk or a cold
/// start's herd never becomes as many requests to the issuer.
public actor IssuerKeys {
  public let metadataURL: URL
  /// The scheme, host and port of `metadataURL`: one provider's documents share it.
  nonisolated let origin: String
  /// How long a key set is used before it is read again (a key the issuer withdrew is then no longer trusted).
  public let maxAge: TimeInterval
  /// The key ids of the set in use and when it was read: what remembered tokens are checked against without a hop
  /// onto the actor.
  private nonisolated let current = Mutex<(kids: Set<String>, readAt: Date)>(([], .distantPast))
  private var collection: JWTKeyCollection?
  /// The keys of the set in use, each as its id and RSA modulus and exponent (`kid n e`): what twins compare.
  private var keys: Set<String> = []
  private var issuer: String?
  private var lastFetch = Date.distantPast
  /// When the key set in use was read.
  private var lastRead = Date.distantPast
  /// The read under way, shared by everyone who needs it.
  private var reading: Task<Void, any Error>?
  /// After a failed read: no new read before this time.
  private var retryAfter = Date.distantPast
  private var failures = 0

  /// How long the first failed read keeps the next one away; each failure in a row doubles it (up to a minute, or
  /// this if longer).
  private let firstBackOff: TimeInterval
  /// How long one read of the metadata or the key set may take, from its connection to its body's end.
  private let readTimeout: Duration
  /// What reads them (through the proxies it was given, or directly).
  private let fetcher: KeyFetcher

  public init(
    metadataURL: URL, maxAge: TimeInterval = 86400, firstBackOff: TimeInterval = 1,
    readTimeout: Duration = KeyFetcher.timeout, fetcher: KeyFetcher = .shared
  ) {
    self.metadataURL = metadataURL
    self.readTimeout = readTimeout
    self.fetcher = fetcher
    let parts = URLComponents(url: metadataURL, resolvingAgainstBaseURL: false)
    origin = "\(parts?.scheme?.lowercased() ?? "")://\(parts?.host?.lowercased() ?? ""):\(parts?.port ?? -1)"
    self.maxAge = maxAge
    self.firstBackOff = firstBackOff
  }

  /// Whether a token verified with key `kid` may still be taken without verifying it again: the key set is younger
  /// than `maxAge` and still holds the key.
  nonisolated func stillTrusts(kid: String?) -> Bool {
    current.withLock { current in
      -current.readAt.timeIntervalSinceNow < maxAge
        && (kid.map { current.kids.contains($0) } ?? (current.kids.count == 1))
    }
  }

  /// Whether `text` is a place keys may be read from: an https URL, or http on a loopback address (the keys decide
  /// who may use the task API).
  public nonisolated static func isTrustworthy(_ text: String) -> Bool {
    guard let url = URLComponents(string: text), let host = url.host?.lowercased(), !host.isEmpty else { return false }
    if url.scheme == "https" { return true }
    return url.scheme == "http" && ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host)
  }

  /// The keys the issuer publishes (`kid n e`; empty when it cannot be read).
  func publishedKeys() async -> Set<String> {
    if collection == nil { try? await fetch() }
    return keys
  }

  /// The published key `kid` names (the only key when none is named), as `publishedKeys` writes it.
  func published(kid: String?) -> String? {
    guard let kid else { return keys.count == 1 ? keys.first : nil }
    return keys.first { $0.hasPrefix(kid + " ") }
  }

  /// Whether the issuer publishes `key`; when it does not, its keys are read again (at most once a minute) and
  /// asked once more.
  func publishes(_ key: String) async -> Bool {
    if collection == nil { try? await fetch() }
    if keys.contains(key) { return true }
    guard Date().timeIntervalSince(lastFetch) > 60 else { return false }
    try? await fetch()
    return keys.contains(key)
  }

  /// The issuer's name (`iss`), from its metadata document (read now if it has not been).
  public func name() async throws -> String {
    if issuer == nil { try await fetch() }
    guard let issuer else { throw JWTError.generic(identifier: "metadata", reason: "no issuer") }
    return issuer
  }

  /// Verifies `token`'s signature and that it names this issuer; fetches the keys again (at most once a minute)
  /// when the token names an unknown key. `named` is the issuer the token claims, to skip other issuers' tokens.
  func verify(_ token: String, naming named: String?) async throws -> BearerClaims {
    if collection == nil {
      try await fetch()
    } else if -lastRead.timeIntervalSinceNow >= maxAge {
      // Read again: a withdrawn key goes. While the issuer cannot be read, the keys it last published stay.
      try? await fetch()
    }
    if let issuer, let named, issuer != named {
      throw JWTError.claimVerificationFailure(failedClaim: nil, reason: "another issuer")
    }
    do {
      return try await check(token)
    } catch {
      guard Date().timeIntervalSince(lastFetch) > 60 else { throw error }
      try await fetch()
      return try await check(token)
    }
  }

  private func check(_ token: String) async throws -> BearerClaims {
    guard let collection, let issuer else { throw JWTError.generic(identifier: "keys", reason: "no keys") }
    guard Self.header(token)?["alg"] as? String == "RS256" else {
      throw JWTError.generic(identifier: "alg", reason: "only RS256 is accepted")
    }
    let claims = try await collection.verify(token, as: BearerClaims.self)
    guard claims.iss == issuer else {
      throw JWTError.claimVerificationFailure(failedClaim: nil, reason: "issuer")
    }
    return claims
  }

  /// Reads the metadata and keys, or waits for the read under way; refuses at once while backing off.
  private func fetch() async throws {
    if let reading { return try await reading.value }
    guard Date() >= retryAfter else { throw JWTError.generic(identifier: "metadata", reason: "backing off") }
    let read = Task { try await readAndKeep() }
    reading = read
    try await read.value
  }

  /// One read, its outcome kept (on the actor, like the callers that share it).
  private func readAndKeep() async throws {
    defer { reading = nil }
    lastFetch = Date()
    do {
      let (issuer, collection, keys) = try await Self.read(metadataURL: metadataURL, within: readTimeout, by: fetcher)
      self.collection = collection
      self.issuer = issuer
      self.keys = keys
      let kids = Set(keys.map { String($0.prefix { $0 != " " }) }.filter { !$0.isEmpty })
      let now = Date()
      lastRead = now
      current.withLock { $0 = (kids, now) }
      failures = 0
    } catch {
      failures += 1
      retryAfter = Date().addingTimeInterval(min(max(60, firstBackOff), firstBackOff * pow(2, Double(failures - 1))))
      throw error
    }
  }

  /// A metadata document that declares an issuer its address does not name: its keys are not trusted.
  public struct NotItsIssuer: Error, CustomStringConvertible {
    public let issuer: String
    public let metadataURL: URL
    public var description: String {
      "the metadata document \(metadataURL.absoluteString) declares the issuer \(issuer), which its address does not "
        + "name (OpenID Connect Discovery §4.3): its tokens are not accepted"
    }
  }

  /// Whether the document at `metadataURL` may declare `issuer` (OpenID Connect Discovery §4.3: a document's issuer is
  /// the address it was read from, less `/.well-known/openid-configuration`), as far as the providers served allow:
  /// - exactly so (any OpenID Connect provider);
  /// - on the same origin (Azure AD B2C: the document is a policy's, `/TENANT.onmicrosoft.com/POLICY/v2.0/…`, and its
  ///   issuer `/TENANT-ID/v2.0/` on the same host, custom domains included);
  /// - Microsoft Entra External ID: a document on a `*.ciamlogin.com` host declares
  ///   `https://TENANT-ID.ciamlogin.com/TENANT-ID/v2.0` (and the tests' playground, standing in for it on loopback,
  ///   `TENANT-ID.localhost` on its own port).
  /// Another origin is refused: a document must not declare an issuer that is someone else's.
  public static func mayDeclare(_ issuer: String, at metadataURL: URL) -> Bool {
    guard let named = URLComponents(string: issuer),
      let address = URLComponents(
        url: metadataURL,
        resolvingAgainstBaseURL: false), let host = named.host?.lowercased(), let from = address.host?.lowercased()
    else { return false }
    let trimmed = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
    if address.query == nil, trimmed + "/.well-known/openid-configuration" == metadataURL.absoluteString { return true }
    if named.scheme?.lowercased() == address.scheme?.lowercased(), host == from, named.port == address.port {
      return true
    }
    // External ID: the tenant's own host on ciamlogin.com, from a document on ciamlogin.com; or, for the tests'
    // playground, which stands in for it on loopback, TENANT-ID.localhost (RFC 6761: loopback) from a loopback
    // document on the same port.
    let tenant = host.split(separator: ".", maxSplits: 1).first.map(String.init) ?? ""
    let parent = String(host.dropFirst(tenant.count))
    guard !tenant.isEmpty, named.path.lowercased().split(separator: "/").first.map(String.init) == tenant else {
      return false
    }
    switch parent {
    case ".ciamlogin.com":
      return named.scheme == "https" && address.scheme == "https" && named.port == nil && from.hasSuffix(parent)
    case ".localhost":
      return named.scheme == address.scheme && named.port == address.port
        && ["127.0.0.1", "localhost", "::1", "[::1]"].contains(from)
    default:
      return false
    }
  }

  /// The issuer's name and RS256 keys, from its metadata document and key set.
  /// The key set's keys are answered as `kid n e`.
  private static func read(metadataURL: URL, within timeout: Duration, by fetcher: KeyFetcher) async throws -> (
    String, JWTKeyCollection, Set<String>
  ) {
    let metadata = try await fetcher.get(metadataURL, within: timeout)
    guard let document = try JSONSerialization.jsonObject(with: metadata) as? [String: Any],
      let issuer = document["issuer"] as? String, let jwksText = document["jwks_uri"] as? String,
      isTrustworthy(jwksText), let jwksURL = URL(string: jwksText)
    else { throw JWTError.generic(identifier: "metadata", reason: "not an OpenID Connect metadata document") }
    guard mayDeclare(issuer, at: metadataURL) else {
      throw NotItsIssuer(issuer: issuer, metadataURL: metadataURL)
    }
    let jwks = try await fetcher.get(jwksURL, within: timeout)
    // B2C's key sets name no algorithm, and JWTKit would take it from the first token's header and keep it for the
    // key: one junk token naming PS256 made every later RS256 token fail. Every key is pinned to RS256.
    guard let set = try JSONSerialization.jsonObject(with: jwks) as? [String: Any],
      let keys = set["keys"] as? [[String: Any]]
    else { throw JWTError.generic(identifier: "jwks", reason: "not a key set") }
    let pinned = keys.filter { $0["kty"] as? String == "RSA" && ($0["alg"] as? String ?? "RS256") == "RS256" }
      .map { $0.merging(["alg": "RS256"]) { _, new in new } }
    let collection = JWTKeyCollection()
    let json = try JSONSerialization.data(withJSONObject: ["keys": pinned])
    try await collection.add(jwksJSON: String(decoding: json, as: UTF8.self))
    return (
      issuer, collection,
      Set(pinned.map { "\($0["kid"] as? String ?? "") \($0["n"] as? String ?? "") \($0["e"] as? String ?? "")" })
    )
  }

  /// The `iss` a JWT's payload names, unverified (only to choose whose keys verify it).
  nonisolated static func payloadIssuer(_ token: String) -> String? {
    part(token, 1)?["iss"] as? String
  }

  /// The `kid` a JWT's header names, if any.
  nonisolated static func keyID(_ token: String) -> String? {
    part(token, 0)?["kid"] as? String
  }

  /// A JWT's header, if it can be read.
  private static func header(_ token: String) -> [String: Any]? { part(token, 0) }

  private nonisolated static func part(_ token: String, _ index: Int) -> [String: Any]? {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return nil }
    var base64 = parts[index].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    guard let data = Data(base64Encoded: base64) else { return nil }
    return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
  }
}

/// The HTTP client that reads issuers' metadata and keys (AsyncHTTPClient, on the service's event loops): follows no
/// redirect (a redirect is a failed read, as in the app's discovery), answers only 200, reads at most `maxBytes` of a
/// body, and gives a read a deadline for the whole of it (AsyncHTTPClient's own timeouts end at the head, or wait for
/// silence: a body trickled a byte at a time would hold every request waiting for the issuer's keys). A hostile
/// issuer's length, size or pace is a failed read: FoundationNetworking's URLSession, used before, ended the whole
/// service on a `Content-Length` of 2⁶³ − 1 (libcurl's length made a Double and back) and read any body whole into
/// memory (IssuerKeysTests.hostileSizes). TLS 1.2 at least, as the system's OpenSSL asked before. Through the proxy
/// `proxies` names (b2c-tasks-api: the environment's, as libcurl read it); `shared` reads directly.
public final class KeyFetcher: Sendable {
  public static let shared = KeyFetcher(proxies: .none)
  /// The most a metadata document or key set may hold (B2C's and Entra's are a few KiB).
  static let maxBytes = 1 << 20
  /// How long a read may take, from its connection to its body's end.
  public static let timeout = Duration.seconds(15)
  let proxies: OutboundProxies

  public init(proxies: OutboundProxies) {
    self.proxies = proxies
  }

  /// One client for each proxy (nil: direct), made at its first read and never shut down: it lives as long as the
  /// process.
  private static let clients = Mutex<[OutboundProxies.Proxy?: HTTPClient]>([:])

  private static func client(through proxy: OutboundProxies.Proxy?) -> HTTPClient {
    clients.withLock { clients in
      if let client = clients[proxy] { return client }
      var tls = TLSConfiguration.makeClientConfiguration()
      tls.minimumTLSVersion = .tlsv12
      let seconds = TimeAmount.seconds(timeout.components.seconds)
      var configuration = HTTPClient.Configuration(
        tlsConfiguration: tls, redirectConfiguration: .disallow, timeout: .init(connect: seconds, read: seconds))
      configuration.proxy = proxy.map { proxy in
        switch proxy.kind {
        case .socks5: .socksServer(host: proxy.host, port: proxy.port)
        case .http:
          .server(
            host: proxy.host, port: proxy.port,
            authorization: proxy.credentials.map { .basic(username: $0.user, password: $0.password) })
        }
      }
      let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
      clients[proxy] = client
      return client
    }
  }

  /// The body of a 200 answer to GET `url`, whole within `timeout`.
  func get(_ url: URL, within timeout: Duration) async throws -> Data {
    try await withThrowingTaskGroup(of: Data.self) { group in
      group.addTask {
        // A connection that cannot be made (the issuer or the proxy away, the proxy's password refused) fails a
        // little before `timeout`, with AsyncHTTPClient's reason; its deadline ends at the head, and the whole read
        // at `timeout` (below).
        let (seconds, attoseconds) = (timeout * 0.9).components
        let deadline = NIODeadline.now() + .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        let response = try await Self.client(through: self.proxies.proxy(for: url)).execute(
          HTTPClientRequest(url: url.absoluteString), deadline: deadline)
        guard response.status == .ok else {
          throw JWTError.generic(identifier: "metadata", reason: "not a 200 answer")
        }
        return Data(buffer: try await response.body.collect(upTo: Self.maxBytes))
      }
      group.addTask {
        try await Task.sleep(for: timeout)
        throw JWTError.generic(identifier: "metadata", reason: "not read within \(timeout)")
      }
      defer { group.cancelAll() }
      return try await group.next()!
    }
  }
}

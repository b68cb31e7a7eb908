// HostileProvider: an OpenID Connect provider of the tests' own that plays the OpenID Foundation's relying-party test
// cases (rp-…) against the app's session and CLI: each case sends one thing wrong (or one unusual thing right).
// Written here, with JWTs put together by hand: it shares nothing with TasksCore or the playground. Sendable.

import Crypto
import Foundation
import Hummingbird
import Logging
import Synchronization
import TaskService
import TasksTestSupport
import Testing
import _CryptoExtras

/// The relying-party test cases that apply to a native app using the code flow with PKCE, by their OpenID Foundation
/// ids (`rp-…`, and the refresh profile's `refresh-token-…`).
enum RPCase: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case issuerMismatch = "rp-id_token-issuer-mismatch"
  case audience = "rp-id_token-aud"
  case subject = "rp-id_token-sub"
  case issuedAt = "rp-id_token-iat"
  case badSignatureRS256 = "rp-id_token-bad-sig-rs256"
  case badSignatureHS256 = "rp-id_token-bad-sig-hs256"
  case signatureNone = "rp-id_token-sig-none"
  case kidAbsentSingleKey = "rp-id_token-kid-absent-single-jwks"
  case kidAbsentSeveralKeys = "rp-id_token-kid-absent-multiple-jwks"
  case nonceInvalid = "rp-nonce-invalid"
  case discoveryIssuerMismatch = "rp-discovery-issuer-not-matching-config"
  case keyRotation = "rp-key-rotation-op-sign-key"
  case keyRotationNative = "rp-key-rotation-op-sign-key-native"
  case refreshInvalidIssuer = "refresh-token-invalid-issuer"
  case refreshInvalidSubject = "refresh-token-invalid-sub"

  var testDescription: String { rawValue }

  /// Whether a conforming relying party signs in (and, for the refresh and rotation cases, refreshes) successfully.
  var accepted: Bool {
    switch self {
    case .kidAbsentSingleKey, .keyRotation, .keyRotationNative: return true
    default: return false
    }
  }

  /// Whether the case is about the refresh (the sign-in itself is good).
  var isAboutRefresh: Bool {
    [.keyRotation, .keyRotationNative, .refreshInvalidIssuer, .refreshInvalidSubject].contains(self)
  }
}

/// A provider on a free loopback port playing one `RPCase`: discovery, keys, an authorize endpoint that answers at
/// once with a code (no page), a token endpoint with rotating refresh tokens, and `/api/tasks` answering `[]`.
final class HostileProvider: Sendable {
  let base: URL
  let rpCase: RPCase
  private let server: BackgroundServer
  private let routes: RouteContext

  /// The provider's keys and what it has handed out.
  struct ProviderState {
    /// Signs tokens now; rotated by `rotateKeys()`.
    var signing: SigningKey
    /// Published in the key set.
    var published: [SigningKey]
    /// Codes handed out, with the nonce they were asked with.
    var codes: [String: String] = [:]
    /// The refresh token that works now, and every one used (a replay of a spent one shows here).
    var refreshToken: String?
    var spentRefreshTokens: [String] = []
    var refreshes = 0
  }

  /// An RSA key with the `kid` it is published under (nil: none).
  struct SigningKey: Sendable {
    let key: _RSA.Signing.PrivateKey
    let kid: String?
  }

  private init(base: URL, rpCase: RPCase, server: BackgroundServer, routes: RouteContext) {
    self.base = base
    self.rpCase = rpCase
    self.server = server
    self.routes = routes
  }

  static func start(_ rpCase: RPCase) async throws -> HostileProvider {
    // "Native" keys: published without a kid (and so tokens name none).
    let native = rpCase == .keyRotationNative
    let first = SigningKey(key: try _RSA.Signing.PrivateKey(keySize: .bits2048), kid: native ? nil : "key-1")
    var published = [first]
    if rpCase == .kidAbsentSeveralKeys {
      published.append(SigningKey(key: try _RSA.Signing.PrivateKey(keySize: .bits2048), kid: "key-2"))
    }
    let routes = RouteContext(rpCase: rpCase, state: ProviderState(signing: first, published: published))
    let router = Router()
    routes.register(on: router)
    let (base, server) = try await serveOnLoopback(router, label: "hostile-provider")
    routes.origin.withLock { $0 = base.absoluteString }
    return HostileProvider(base: base, rpCase: rpCase, server: server, routes: routes)
  }

  /// The provider starts signing with a new key and publishes only that one (the rotation cases).
  func rotateKeys() throws {
    let native = rpCase == .keyRotationNative
    let next = SigningKey(key: try _RSA.Signing.PrivateKey(keySize: .bits2048), kid: native ? nil : "key-rotated")
    routes.state.withLock {
      $0.signing = next
      $0.published = [next]
    }
  }

  /// How many refreshes the token endpoint answered, and the spent refresh tokens sent again (reuse).
  var refreshes: (count: Int, replayed: Int) {
    routes.state.withLock { state in
      (state.refreshes, state.spentRefreshTokens.count - Set(state.spentRefreshTokens).count)
    }
  }

  /// App settings naming this provider as an OpenID Connect authority.
  func settings(keychain: String, redirect: String = "urn:ietf:wg:oauth:2.0:oob") -> String {
    SettingsFile([
      "clientID": HostileProvider.clientID, "authority": base.absoluteString, "redirectURI": redirect,
      "keychain": keychain, "taskAPI": base.absoluteString,
    ]).xml
  }

  static let clientID = "rp-test-client"
  static let subject = "user-1"

  func stop() async {
    await server.stop()
  }
}

/// The provider's routes; what they answer depends on the case.
private final class RouteContext: Sendable {
  let rpCase: RPCase
  let state: Mutex<HostileProvider.ProviderState>
  let origin = Mutex("")

  init(rpCase: RPCase, state: HostileProvider.ProviderState) {
    self.rpCase = rpCase
    self.state = Mutex(state)
  }

  func register(on router: Router<BasicRequestContext>) {
    router.get("/.well-known/openid-configuration") { _, _ in
      let base = self.origin.withLock { $0 }
      return jsonAnswer([
        "issuer": self.rpCase == .discoveryIssuerMismatch ? "https://issuer.example.com" : base,
        "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token", "jwks_uri": base + "/keys",
        "scopes_supported": ["openid", "offline_access", "profile"], "response_types_supported": ["code"],
        "subject_types_supported": ["public"], "id_token_signing_alg_values_supported": ["RS256"],
      ])
    }
    router.get("/keys") { _, _ in
      let keys = self.state.withLock { $0.published }
      return jsonAnswer(["keys": try keys.map(Self.jwk)])
    }
    router.get("/authorize") { request, _ in
      let query = request.uri.queryParameters
      guard let redirect = query["redirect_uri"].map(String.init), let requestState = query["state"].map(String.init)
      else { return Response(status: .badRequest) }
      let code = "code-" + UUID().uuidString
      let nonce = query["nonce"].map(String.init) ?? ""
      self.state.withLock { $0.codes[code] = nonce }
      var location = URLComponents(string: redirect)
      location?.queryItems = [
        URLQueryItem(name: "code", value: code), URLQueryItem(name: "state", value: requestState),
      ]
      return Response(status: .found, headers: [.location: location?.string ?? redirect])
    }
    router.post("/token") { request, _ in
      let body = try await request.body.collect(upTo: 64 * 1024)
      let form = Self.form(String(buffer: body))
      switch form["grant_type"] {
      case "authorization_code":
        guard let code = form["code"], let nonce = self.state.withLock({ $0.codes.removeValue(forKey: code) }) else {
          return jsonAnswer(["error": "invalid_grant"], status: .badRequest)
        }
        return try self.tokens(nonce: nonce, refresh: false)
      case "refresh_token":
        let presented = form["refresh_token"] ?? ""
        let valid = self.state.withLock { state -> Bool in
          state.spentRefreshTokens.append(presented)
          return presented == state.refreshToken
        }
        guard valid else { return jsonAnswer(["error": "invalid_grant"], status: .badRequest) }
        return try self.tokens(nonce: nil, refresh: true)
      default:
        return jsonAnswer(["error": "unsupported_grant_type"], status: .badRequest)
      }
    }
    router.get("/api/tasks") { _, _ in jsonAnswer([Any]()) }
  }

  /// A token response: an opaque access token, an id_token as the case has it, a new refresh token (rotation).
  private func tokens(nonce: String?, refresh: Bool) throws -> Response {
    let base = origin.withLock { $0 }
    let now = Int(Date().timeIntervalSince1970)
    let refreshToken = "refresh-" + UUID().uuidString
    let signing = state.withLock { state -> HostileProvider.SigningKey in
      state.refreshToken = refreshToken
      if refresh { state.refreshes += 1 }
      return state.signing
    }
    var claims: [String: Any] = [
      "iss": base, "aud": HostileProvider.clientID, "sub": HostileProvider.subject, "exp": now + 120, "iat": now,
      "name": "RP Tester",
    ]
    if let nonce { claims["nonce"] = nonce }
    // What is wrong in the sign-in's id_token, or (the refresh cases) in the refreshed one.
    let wrongNow = refresh == rpCase.isAboutRefresh
    if wrongNow {
      switch rpCase {
      case .issuerMismatch, .refreshInvalidIssuer: claims["iss"] = "https://issuer.example.com"
      case .audience: claims["aud"] = "another-client"
      case .subject: claims["sub"] = nil
      case .refreshInvalidSubject: claims["sub"] = "user-2"
      case .issuedAt: claims["iat"] = nil
      case .nonceInvalid: claims["nonce"] = "not-the-nonce"
      default: break
      }
    }
    let idToken: String
    switch rpCase {
    case .badSignatureRS256 where wrongNow:
      idToken = try Self.sign(
        claims, with: .init(key: try _RSA.Signing.PrivateKey(keySize: .bits2048), kid: signing.kid))
    case .badSignatureHS256 where wrongNow:
      // Algorithm confusion: HMAC keyed with the provider's public key, as a verifier that takes the algorithm
      // from the token would check it.
      let secret = SymmetricKey(data: Data(signing.key.publicKey.pemRepresentation.utf8))
      var header: [String: Any] = ["alg": "HS256", "typ": "JWT"]
      if let kid = signing.kid { header["kid"] = kid }
      let input = Self.encode(header) + "." + Self.encode(claims)
      let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: secret)
      idToken = input + "." + Self.base64URL(Data(mac))
    case .signatureNone where wrongNow:
      idToken = Self.encode(["alg": "none", "typ": "JWT"]) + "." + Self.encode(claims) + "."
    case .kidAbsentSingleKey, .kidAbsentSeveralKeys:
      // The key is published with its kid; the token names none.
      idToken = try Self.sign(claims, with: .init(key: signing.key, kid: nil))
    default:
      idToken = try Self.sign(claims, with: signing)
    }
    return jsonAnswer([
      "token_type": "Bearer", "access_token": "opaque-" + UUID().uuidString, "expires_in": 60,
      "id_token": idToken, "refresh_token": refreshToken, "scope": "openid offline_access",
    ])
  }

  // MARK: JWTs by hand

  static func sign(_ claims: [String: Any], with key: HostileProvider.SigningKey) throws -> String {
    var header: [String: Any] = ["alg": "RS256", "typ": "JWT"]
    if let kid = key.kid { header["kid"] = kid }
    let input = encode(header) + "." + encode(claims)
    let signature = try key.key.signature(for: SHA256.hash(data: Data(input.utf8)), padding: .insecurePKCS1v1_5)
    return input + "." + base64URL(signature.rawRepresentation)
  }

  static func jwk(_ key: HostileProvider.SigningKey) throws -> [String: Any] {
    let primitives = try key.key.publicKey.getKeyPrimitives()
    var jwk: [String: Any] = [
      "kty": "RSA", "use": "sig", "n": base64URL(primitives.modulus), "e": base64URL(primitives.publicExponent),
    ]
    if let kid = key.kid { jwk["kid"] = kid }
    return jwk
  }

  static func encode(_ object: [String: Any]) -> String {
    base64URL((try? JSONSerialization.data(withJSONObject: object)) ?? Data())
  }

  static func base64URL(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  static func form(_ body: String) -> [String: String] {
    var fields: [String: String] = [:]
    for pair in body.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1).map {
        String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
      }
      if parts.count == 2 { fields[parts[0]] = parts[1] }
    }
    return fields
  }
}

/// A JSON answer.
private func jsonAnswer(_ object: Any, status: HTTPResponse.Status = .ok) -> Response {
  let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
  return Response(
    status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
    body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
}

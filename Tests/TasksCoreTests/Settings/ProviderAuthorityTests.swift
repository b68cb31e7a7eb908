// Tests of the `authority` key: External ID and OpenID Connect authorities, their discovery URLs, issuer rules, the
// discovery document's endpoint rule and the scopes each provider is asked for.

import Foundation
import Testing

@testable import TasksCore

@Suite("Provider authorities: External ID and OpenID Connect")
struct ProviderAuthorityTests {
  static let tenantID = "5b6e1c9a-2f4d-4e7b-9c3a-1d8f0e2b7a64"

  /// Settings with `authority` and the keys every provider needs, plus `extra` (raw plist fragments).
  private func settings(_ authority: String, extra: String = "") -> Result<AppSettings, SettingsError> {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict>
        <key>clientID</key><string>0f4c6b1e-1111-4a2b-9c3d-222233334444</string>
        <key>authority</key><string>\(authority)</string>
        <key>redirectURI</key><string>http://127.0.0.1/</string>
        <key>keychain</key><string>com.contoso.sso</string>
        <key>taskAPI</key><string>https://tasks.contoso.com</string>
        \(extra)
      </dict></plist>
      """
    return Result { () throws(SettingsError) in try AppSettings.parse(Data(text.utf8), file: "test.plist") }
  }

  private func authority(_ text: String) throws -> Authority {
    try settings(text).get().authority
  }

  @Test("a ciamlogin.com authority is External ID; its tenant defaults to SUBDOMAIN.onmicrosoft.com")
  func externalIDDefaultTenant() throws {
    let authority = try authority("https://contoso.ciamlogin.com")
    #expect(
      authority == .externalID(base: URL(string: "https://contoso.ciamlogin.com")!, tenant: "contoso.onmicrosoft.com"))
    #expect(authority.provider == .externalID && !authority.hasPolicies)
    #expect(
      authority.discovery(for: nil).absoluteString
        == "https://contoso.ciamlogin.com/contoso.onmicrosoft.com/v2.0/.well-known/openid-configuration")
    let endpoints = try #require(authority.conventionalEndpoints(for: nil))
    #expect(
      endpoints.authorize.absoluteString
        == "https://contoso.ciamlogin.com/contoso.onmicrosoft.com/oauth2/v2.0/authorize")
    #expect(endpoints.token.absoluteString == "https://contoso.ciamlogin.com/contoso.onmicrosoft.com/oauth2/v2.0/token")
  }

  @Test(
    "an External ID tenant may follow the host: its id or its domain; a custom URL domain with a tenant id too",
    arguments: [
      ("https://contoso.ciamlogin.com/\(tenantID)", "https://contoso.ciamlogin.com", tenantID),
      (
        "https://contoso.ciamlogin.com/contoso.onmicrosoft.com/", "https://contoso.ciamlogin.com",
        "contoso.onmicrosoft.com"
      ),
      ("https://login.contoso.com/\(tenantID)", "https://login.contoso.com", tenantID),
      ("http://127.0.0.1:5995/\(tenantID)", "http://127.0.0.1:5995", tenantID),
    ])
  func externalIDTenant(authority text: String, base: String, tenant: String) throws {
    let authority = try authority(text)
    #expect(authority == .externalID(base: URL(string: base)!, tenant: tenant))
    #expect(
      authority.discovery(for: nil).absoluteString == "\(base)/\(tenant)/v2.0/.well-known/openid-configuration")
  }

  @Test(
    "any other URL is an OpenID Connect issuer, discovered at ISSUER/.well-known/openid-configuration",
    arguments: [
      ("https://id.example.com", "https://id.example.com/.well-known/openid-configuration"),
      ("https://sso.example.com/realms/tasks", "https://sso.example.com/realms/tasks/.well-known/openid-configuration"),
      (
        "https://auth.example.com/application/o/tasks/",
        "https://auth.example.com/application/o/tasks/.well-known/openid-configuration"
      ),
      ("http://localhost:8080", "http://localhost:8080/.well-known/openid-configuration"),
    ])
  func openIDIssuer(authority text: String, discovery: String) throws {
    let authority = try authority(text)
    #expect(authority.provider == .openID)
    #expect(authority.discovery(for: nil).absoluteString == discovery)
    #expect(authority.conventionalEndpoints(for: nil) == nil, "only the discovery document names its endpoints")
  }

  @Test(
    "bad authorities are refused, naming the key",
    arguments: [
      ("http://id.example.com", "not an https URL"),
      ("ftp://id.example.com", "not an https URL"),
      ("id.example.com", "not a URL"),
      ("https://id.example.com/?tenant=x", "not a URL without query"),
      ("https://contoso.ciamlogin.com/a/b", "an External ID authority is"),
    ])
  func badAuthority(authority text: String, reason: String) throws {
    guard case .failure(let error) = settings(text) else {
      Issue.record("\(text) was accepted")
      return
    }
    #expect(error.key == "authority")
    #expect(error.reason.contains(reason), "\(error)")
  }

  @Test("authority with B2C keys, or B2C policies with another provider, are mistakes worth naming")
  func mixedShapes() throws {
    let both = settings(
      "https://id.example.com", extra: "<key>authorityHost</key><string>contoso.b2clogin.com</string>")
    #expect(throws: SettingsError.self) { try both.get() }
    if case .failure(let error) = both { #expect(error.key == "authority" && error.reason.contains("authorityHost")) }
    let policy = settings("https://id.example.com", extra: "<key>signInPolicy</key><string>B2C_1_SignIn</string>")
    if case .failure(let error) = policy {
      #expect(error.key == "signInPolicy" && error.reason.contains("only Azure AD B2C has policies"))
    } else {
      Issue.record("a policy with an OpenID Connect authority was accepted")
    }
  }

  @Test("without authority, authURL or authorityHost the error names the new key")
  func missingAuthority() throws {
    let text = """
      <plist version="1.0"><dict><key>clientID</key><string>x</string>
      <key>redirectURI</key><string>urn:ietf:wg:oauth:2.0:oob</string>
      <key>taskAPI</key><string>https://tasks.contoso.com</string></dict></plist>
      """
    #expect(throws: SettingsError(.missingKey, file: "t", key: "authority", reason: "")) {
      do throws(SettingsError) {
        _ = try AppSettings.parse(Data(text.utf8), file: "t")
      } catch {
        throw SettingsError(error.code, file: "t", key: error.key, reason: "")
      }
    }
  }

  @Test("scopes: B2C asks for its client id; others for openid, offline_access where offered, and the extras")
  func scopes() throws {
    let oidc = try settings(
      "https://id.example.com", extra: "<key>scopes</key><string>tasks.read openid</string>"
    ).get()
    #expect(oidc.scopes(offlineAccess: false) == ["openid", "tasks.read"])
    #expect(oidc.scopes(offlineAccess: true) == ["openid", "offline_access", "tasks.read"])
    #expect(oidc.bearerToken == .idToken, "a plain provider's access token is not for us")
    let b2c = try SettingsLocator(environment: ["HOME": "/nonexistent"]).load(.builtIn)
    #expect(b2c.scopes(offlineAccess: false) == ["openid", "offline_access", b2c.clientID])
    #expect(b2c.bearerToken == .accessToken)
    let explicit = try settings(
      "https://id.example.com", extra: "<key>bearerToken</key><string>access_token</string>"
    ).get()
    #expect(explicit.bearerToken == .accessToken)
  }

  @Test(
    "four keys sign in anywhere: External ID and other providers get http://127.0.0.1/ (any port) and profile email; without keychain the app's own group",
    arguments: ["https://contoso.ciamlogin.com", "https://login.contoso.com/\(tenantID)", "https://id.example.com"])
  func fourKeys(authority: String) throws {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict>
        <key>clientID</key><string>0f4c6b1e-1111-4a2b-9c3d-222233334444</string>
        <key>authority</key><string>\(authority)</string>
        <key>keychain</key><string>com.contoso.sso</string>
        <key>taskAPI</key><string>https://tasks.contoso.com</string>
      </dict></plist>
      """
    let settings = try AppSettings.parse(Data(text.utf8), file: "four.plist")
    #expect(settings.redirectURI == .anyLoopbackPort)
    #expect(settings.redirectURI.value == "http://127.0.0.1/" && settings.redirectURI.kind == .loopback)
    #expect(settings.scopes(offlineAccess: true) == ["openid", "offline_access", "profile", "email"])
    // The defaults go only where the provider's document lists them (django-oauth-toolkit set up with only openid,
    // offline_access and its own scope refuses the request with invalid_scope otherwise).
    #expect(
      settings.scopes(offlineAccess: true, supported: ["openid", "offline_access", "read"]) == [
        "openid", "offline_access",
      ])
    #expect(settings.scopes(offlineAccess: false, supported: ["openid", "email"]) == ["openid", "email"])
    #expect(settings.bearerToken == .idToken && settings.keychainGroup == "com.contoso.sso")
    let three = text.replacingOccurrences(of: "<key>keychain</key><string>com.contoso.sso</string>", with: "")
    #expect(try AppSettings.parse(Data(three.utf8), file: "three.plist").keychainGroup == AppIdentity.appID)
  }

  @Test("a B2C file without bhh or redirectURI keeps the sample's urn:ietf:wg:oauth:2.0:oob; scopes given are kept")
  func defaultsKeepWhatIsGiven() throws {
    let b2c = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict>
        <key>clientID</key><string>0f4c6b1e-1111-4a2b-9c3d-222233334444</string>
        <key>authorityHost</key><string>contoso.b2clogin.com</string>
        <key>tenant</key><string>contoso.onmicrosoft.com</string>
        <key>signInPolicy</key><string>B2C_1_SignUpOrSignIn</string>
        <key>taskAPI</key><string>https://tasks.contoso.com</string>
      </dict></plist>
      """
    let settings = try AppSettings.parse(Data(b2c.utf8), file: "b2c.plist")
    #expect(settings.redirectURI == .outOfBand)
    #expect(settings.scopes(offlineAccess: false) == ["openid", "offline_access", settings.clientID])
    // Scopes and a redirect the file names are taken as they are: no profile or email added to them.
    let given = try self.settings(
      "https://id.example.com", extra: "<key>scopes</key><string>tasks.read</string>"
    ).get()
    #expect(given.scopes(offlineAccess: false) == ["openid", "tasks.read"])
    #expect(given.scopes(offlineAccess: false, supported: ["openid"]) == ["openid", "tasks.read"], "named: asked for")
    #expect(given.redirectURI.value == "http://127.0.0.1/")
  }

  @Test("the issuer an OpenID Connect document names must be the authority (a trailing slash aside)")
  func openIDIssuerRule() throws {
    let authority = try authority("https://sso.example.com/realms/tasks")
    #expect(authority.accepts(issuer: "https://sso.example.com/realms/tasks"))
    #expect(authority.accepts(issuer: "https://sso.example.com/realms/tasks/"))
    #expect(!authority.accepts(issuer: "https://sso.example.com/realms/other"))
    #expect(!authority.accepts(issuer: "https://evil.example.com/realms/tasks"))
    #expect(!authority.accepts(issuer: "http://sso.example.com/realms/tasks"))
  }

  @Test("External ID: the authority's origin, or exactly https://GUID.ciamlogin.com/GUID/v2.0 — nothing else")
  func externalIDIssuerRule() throws {
    let id = Self.tenantID
    let authority = try authority("https://contoso.ciamlogin.com")
    #expect(authority.accepts(issuer: "https://\(id).ciamlogin.com/\(id)/v2.0"))
    #expect(authority.accepts(issuer: "https://\(id).ciamlogin.com/\(id)/v2.0/"))
    #expect(authority.accepts(issuer: "https://contoso.ciamlogin.com/\(id)/v2.0"))
    let other = "0b7c4f10-93b4-4c1e-9a57-2d8e0b7c4f10"
    for refused in [
      "https://\(id).ciamlogin.com/\(other)/v2.0",  // host and path name different tenants
      "http://\(id).ciamlogin.com/\(id)/v2.0",  // not https
      "https://\(id).ciamlogin.com:8443/\(id)/v2.0",  // another port
      "https://\(id).evil.com/\(id)/v2.0",  // not ciamlogin.com
      "https://\(id).ciamlogin.com.evil.com/\(id)/v2.0",
      "https://contoso.ciamlogin.com.evil.com/\(id)/v2.0",
      "https://\(id).ciamlogin.com/\(id)/v1.0",
      "https://\(id).ciamlogin.com/\(id)/v2.0/extra",
      "https://login.microsoftonline.com/\(id)/v2.0",
      "https://not-a-guid.ciamlogin.com/not-a-guid/v2.0",
      "",
      "://127.0.0.1:5995/x",  // no scheme: URLComponents trapped on it (found by fuzzing)
    ] {
      #expect(!authority.accepts(issuer: refused), "\(refused)")
    }
    // A development authority on loopback: GUID.localhost on the same port stands for GUID.ciamlogin.com.
    let local = try self.authority("http://127.0.0.1:5995/\(id)")
    #expect(local.accepts(issuer: "http://\(id).localhost:5995/\(id)/v2.0"))
    #expect(local.accepts(issuer: "http://127.0.0.1:5995/\(id)/v2.0"))
    #expect(!local.accepts(issuer: "http://\(id).localhost:5996/\(id)/v2.0"))
    #expect(!local.accepts(issuer: "http://localhost:5995/\(id)/v2.0"))
    #expect(!authority.accepts(issuer: "http://\(id).localhost:5995/\(id)/v2.0"), "only for a loopback authority")
  }

  @Test("a discovery document's endpoints must be https (http on loopback only); OIDC must name its endpoints")
  func discoveryDocument() throws {
    let authority = try authority("https://id.example.com")
    func document(_ fields: [String: Any]) throws -> Data {
      var all: [String: Any] = [
        "issuer": "https://id.example.com", "jwks_uri": "https://id.example.com/keys",
        "authorization_endpoint": "https://id.example.com/authorize", "token_endpoint": "https://id.example.com/token",
      ]
      all.merge(fields) { $1 }
      return try JSONSerialization.data(withJSONObject: all.filter { !($0.value is NSNull) })
    }
    let good = try OpenIDConfiguration.parse(
      document(["scopes_supported": ["openid", "offline_access"]]), for: authority)
    #expect(good.tokenEndpoint?.absoluteString == "https://id.example.com/token")
    #expect(good.scopesSupported == ["openid", "offline_access"])
    #expect(good.endSessionEndpoint == nil)
    for (name, value) in [
      ("token_endpoint", "http://id.example.com/token"), ("authorization_endpoint", "javascript:alert(1)"),
      ("jwks_uri", "http://10.0.0.1/keys"), ("end_session_endpoint", "file:///etc/passwd"),
    ] {
      #expect(throws: MetadataError.insecureEndpoint(name)) {
        try OpenIDConfiguration.parse(document([name: value]), for: authority)
      }
    }
    #expect(throws: MetadataError.badDocument("no token_endpoint")) {
      try OpenIDConfiguration.parse(document(["token_endpoint": NSNull()]), for: authority)
    }
    #expect(throws: MetadataError.untrustedIssuer("https://other.example.com")) {
      try OpenIDConfiguration.parse(document(["issuer": "https://other.example.com"]), for: authority)
    }
    #expect(throws: MetadataError.self) { try OpenIDConfiguration.parse(Data("<html>".utf8), for: authority) }
    #expect(throws: MetadataError.self) {
      try OpenIDConfiguration.parse(document(["scopes_supported": "openid"]), for: authority)
    }
    let loopback = try OpenIDConfiguration.parse(
      document(["token_endpoint": "http://127.0.0.1:8080/token"]), for: authority)
    #expect(loopback.tokenEndpoint?.port == 8080)
  }

  @Test("AADB2C codes mean something only from B2C; another provider's access_denied is the user's cancel")
  func providerErrors() {
    let redirect = "urn:ietf:wg:oauth:2.0:oob?error=access_denied&error_description=AADB2C90118%3a+x&state=s"
    #expect(
      RedirectInterpreter(redirectURI: .outOfBand, expectedState: "s", provider: .b2c).interpret(redirect)
        == .failure(.forgotPassword))
    #expect(
      RedirectInterpreter(redirectURI: .outOfBand, expectedState: "s", provider: .openID).interpret(redirect)
        == .failure(.cancelled))
    let other = "urn:ietf:wg:oauth:2.0:oob?error=invalid_scope&error_description=AADB2C90091&state=s"
    guard
      case .failure(.service(let error)) = RedirectInterpreter(
        redirectURI: .outOfBand, expectedState: "s", provider: .externalID
      ).interpret(other)
    else {
      Issue.record("an External ID error was not shown as one")
      return
    }
    #expect(error.error == "invalid_scope")
  }

  @Test("sessions of different providers have different keys; a B2C key names its policy, others none")
  func sessionKeys() throws {
    let oidc = SessionKey(try settings("https://id.example.com/realms/Tasks").get())
    #expect(oidc.provider == .openID && oidc.policy == nil && oidc.tenant == "realms/Tasks")
    let external = SessionKey(try settings("https://contoso.ciamlogin.com").get())
    #expect(external.provider == .externalID && external.tenant == "contoso.onmicrosoft.com")
    #expect(oidc.digest != external.digest)
    let b2c = SessionKey(try SettingsLocator(environment: ["HOME": "/nonexistent"]).load(.builtIn))
    #expect(b2c.provider == .b2c && b2c.policy == "b2c_1_signuporsignin")
  }
}

@Suite("README settings examples")
struct ReadmeSettingsTests {
  @Test("the README's B2C, External ID and OpenID Connect settings files are valid and name those providers")
  func examples() throws {
    let readme = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appending(path: "README.md")
    let text = try String(contentsOf: readme, encoding: .utf8)
    let blocks = text.components(separatedBy: "```xml\n").dropFirst().compactMap {
      $0.components(separatedBy: "```").first
    }
    let providers = try blocks.map { block in
      try AppSettings.parse(Data(block.utf8), file: "README.md").authority.provider
    }
    #expect(providers == [.b2c, .externalID, .openID])
  }
}

// Tests of the playground's other flavors: Microsoft Entra External ID's endpoints without policies and an issuer on
// another host, and a plain OpenID Connect issuer at the root; the task API takes each flavor's tokens.

import B2CPlayground
import Foundation
import TasksTestSupport
import Testing

@Suite("Playground flavors: External ID and OpenID Connect")
struct FlavorTests {
  private let tenantID = PlaygroundConfiguration(dataDirectory: URL(filePath: "/")).tenantID

  /// The discovery document at `path` under the harness.
  private func discovery(_ harness: PlaygroundHarness, _ path: String) async throws -> [String: Any] {
    let answer = try await Browser().get(harness.base.appending(path: path))
    try #require(answer.status == 200, "\(path) answered \(answer.status)")
    return try answer.json()
  }

  /// Signs in as Ann on the flavor's pages and redeems the code at the document's token endpoint.
  private func tokens(_ harness: PlaygroundHarness, _ document: [String: Any]) async throws -> [String: Any] {
    let driver = SignInDriver(harness)
    var parameters = AuthorizeParameters()
    parameters.scope = "openid offline_access"
    let authorizeText = try #require(document["authorization_endpoint"] as? String)
    let authorize = try #require(URL(string: authorizeText))
    let page = try await driver.browser.get(parameters.url(authorize))
    try #require(page.status == 200, "authorize answered \(page.status): \(page.text.prefix(300))")
    #expect(!page.text.contains("forgotPassword"), "no B2C password-reset policy here")
    let answer = try await driver.submit(page, [("email", "ann@example.com"), ("password", "Tasks-Demo-1")])
    let redirect = RedirectResult(try #require(answer.location))
    let tokenText = try #require(document["token_endpoint"] as? String)
    let token = try #require(URL(string: tokenText))
    let redeemed = try await driver.browser.post(
      token,
      form: [
        ("grant_type", "authorization_code"), ("client_id", parameters.clientID),
        ("code", try #require(redirect.code)), ("redirect_uri", parameters.redirectURI),
        ("code_verifier", parameters.verifier), ("scope", parameters.scope),
      ])
    try #require(redeemed.status == 200, "token endpoint answered \(redeemed.status): \(redeemed.text)")
    return try redeemed.json()
  }

  private func tasksStatus(_ harness: PlaygroundHarness, bearer: String) async throws -> Int {
    try await Browser().get(harness.base.appending(path: "api/tasks"), headers: ["Authorization": "Bearer \(bearer)"])
      .status
  }

  @Test("External ID: /{tenant}/… without policies, by tenant id or domain; the issuer is on another host")
  func externalID() async throws {
    try await PlaygroundHarness.with({ $0.flavor = .externalID }) { harness in
      let byDomain = try await discovery(harness, "\(PlaygroundHarness.tenant)/v2.0/.well-known/openid-configuration")
      let document = try await discovery(harness, "\(tenantID)/v2.0/.well-known/openid-configuration")
      let port = try #require(harness.base.port)
      let issuer = "http://\(tenantID).localhost:\(port)/\(tenantID)/v2.0"
      #expect(document["issuer"] as? String == issuer && byDomain["issuer"] as? String == issuer)
      let authorize = try #require(document["authorization_endpoint"] as? String)
      #expect(authorize == harness.base.appending(path: "\(tenantID)/oauth2/v2.0/authorize").absoluteString)
      #expect(!authorize.contains("p="))
      let policyForm = try await Browser().get(
        harness.base.appending(path: "\(PlaygroundHarness.tenant)/\(PlaygroundHarness.signIn)/oauth2/v2.0/authorize"))
      #expect(policyForm.status == 404, "External ID has no policies")
      let otherTenant = try await Browser().get(
        harness.base.appending(path: "contoso.onmicrosoft.com/v2.0/.well-known/openid-configuration"))
      #expect(otherTenant.status >= 400)

      let tokens = try await tokens(harness, document)
      let idToken = try #require(tokens["id_token"] as? String)
      let claims = try TokenInspector.decodePart(try #require(idToken.split(separator: ".").dropFirst().first))
      #expect(claims["iss"] as? String == issuer && claims["tid"] as? String == tenantID)
      #expect(claims["preferred_username"] as? String == "ann@example.com" && claims["ver"] as? String == "2.0")
      #expect(claims["tfp"] == nil && claims["emails"] == nil)
      #expect(tokens["refresh_token"] is String && tokens["profile_info"] == nil)
      #expect(try await tasksStatus(harness, bearer: idToken) == 200, "the task API takes External ID's id_token")
    }
  }

  @Test("OpenID Connect: discovery at the root, the issuer is the host, standard claims, opaque access tokens")
  func openID() async throws {
    try await PlaygroundHarness.with({ $0.flavor = .openID }) { harness in
      let document = try await discovery(harness, ".well-known/openid-configuration")
      #expect(document["issuer"] as? String == harness.base.absoluteString)
      #expect((document["scopes_supported"] as? [String])?.contains("offline_access") == true)
      for key in ["authorization_endpoint", "token_endpoint", "end_session_endpoint", "jwks_uri"] {
        #expect((document[key] as? String)?.hasPrefix(harness.base.absoluteString) == true, "\(key)")
      }
      let b2cForm = try await Browser().get(
        harness.base.appending(path: "\(PlaygroundHarness.tenant)/v2.0/.well-known/openid-configuration"))
      #expect(b2cForm.status == 404)

      let tokens = try await tokens(harness, document)
      let idToken = try #require(tokens["id_token"] as? String)
      let claims = try TokenInspector.decodePart(try #require(idToken.split(separator: ".").dropFirst().first))
      #expect(
        claims["iss"] as? String == harness.base.absoluteString && claims["email"] as? String == "ann@example.com")
      #expect(claims["oid"] == nil && claims["tfp"] == nil && claims["emails"] == nil)
      let access = try #require(tokens["access_token"] as? String)
      #expect(access.split(separator: ".").count != 3, "an opaque access token, for the provider's own use")
      #expect(try await tasksStatus(harness, bearer: access) == 401)
      #expect(try await tasksStatus(harness, bearer: idToken) == 200, "the task API takes the id_token (PROTOCOL §9)")
    }
  }
}

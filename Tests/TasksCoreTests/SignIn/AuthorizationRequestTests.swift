// Tests of the authorize URL an app sends.

import Crypto
import Foundation
import Testing

@testable import TasksCore

@Suite("Authorize request")
struct AuthorizationRequestTests {
  private func settings() throws -> AppSettings {
    try SettingsLocator(environment: ["HOME": "/nonexistent"]).load(.builtIn)
  }

  @Test("the URL carries client, code flow, scopes, PKCE S256, state, nonce and the desktop language")
  func url() throws {
    let settings = try settings()
    let endpoints = try #require(settings.authority.conventionalEndpoints(for: settings.signInPolicy))
    let request = AuthorizationRequest(
      settings: settings, authorizeEndpoint: endpoints.authorize, tokenEndpoint: endpoints.token,
      policy: settings.signInPolicy, prompt: "login",
      loginHint: "ann+tasks@example.com", uiLocales: "de-DE")
    let items = Dictionary(
      uniqueKeysWithValues: (URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map {
        ($0.name, $0.value ?? "")
      })
    #expect(items["client_id"] == settings.clientID)
    #expect(items["response_type"] == "code" && items["response_mode"] == "query")
    #expect(items["redirect_uri"] == "urn:ietf:wg:oauth:2.0:oob")
    #expect(items["scope"] == "openid offline_access \(settings.clientID)")
    #expect(items["state"] == request.state && items["nonce"] == request.nonce && request.state != request.nonce)
    #expect(items["code_challenge_method"] == "S256")
    let expected = Data(SHA256.hash(data: Data(request.codeVerifier.utf8))).base64URLEncodedString()
    #expect(items["code_challenge"] == expected)
    #expect(request.codeVerifier.count == 43)
    #expect(items["prompt"] == "login" && items["ui_locales"] == "de-DE")
    #expect(items["login_hint"] == "ann+tasks@example.com")
    #expect(
      request.url.absoluteString.contains("ann%2Btasks%40example.com")
        || request.url.absoluteString.contains("ann%2Btasks@example.com"))
    #expect(!request.url.absoluteString.contains(request.codeVerifier), "the verifier never leaves the app")
    let another = AuthorizationRequest(
      settings: settings, authorizeEndpoint: endpoints.authorize, tokenEndpoint: endpoints.token,
      policy: settings.signInPolicy)
    #expect(another.state != request.state && another.codeVerifier != request.codeVerifier)
  }

  @Test("the sample's query-form authority keeps the policy in p=")
  func queryForm() throws {
    let settings = try AppSettings.load(
      from: try #require(Bundle.module.url(forResource: "Fixtures/sample-settings", withExtension: "plist")))
    let endpoints = try #require(settings.authority.conventionalEndpoints(for: "b2c_1_sign_in"))
    let request = AuthorizationRequest(
      settings: settings, authorizeEndpoint: endpoints.authorize, tokenEndpoint: endpoints.token,
      policy: "b2c_1_sign_in", uiLocales: nil)
    #expect(
      request.url.absoluteString.hasPrefix(
        "https://login.microsoftonline.com/fabrikamb2c.onmicrosoft.com/oauth2/v2.0/authorize?p=b2c_1_sign_in&client_id="
      ))
    #expect(!request.url.absoluteString.contains("ui_locales"))
  }

  @Test(
    "ui_locales from the environment",
    arguments: [
      (["LANGUAGE": "de_DE:en"], "de-DE"), (["LANG": "zh_CN.UTF-8"], "zh-CN"),
      (["LC_ALL": "fi_FI.UTF-8@euro"], "fi-FI"),
      (["LANG": "C.UTF-8"], nil), ([:], nil), (["LANGUAGE": "", "LANG": "it_IT.UTF-8"], "it-IT"),
    ] as [([String: String], String?)])
  func uiLocales(environment: [String: String], expected: String?) {
    #expect(UILocales.fromEnvironment(environment) == expected)
  }
}

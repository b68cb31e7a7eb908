// Response modes and client_info, as B2C and External ID answer what MSAL sends: the authorize answer in the query,
// the fragment or a posted form; client_info in the token response when asked for; unknown modes refused in B2C's
// shape.

import B2CPlayground
import Foundation
import TasksTestSupport
import Testing

@Suite("Playground: response modes and client_info")
struct ResponseModeTests {
  @Test("form_post: a page whose form posts code and state to the redirect URI; the code redeems; nothing cached")
  func formPost() async throws {
    try await PlaygroundHarness.with { harness in
      let driver = SignInDriver(harness)
      var parameters = AuthorizeParameters()
      parameters.redirectURI = "http://localhost:51234"
      // A state a hostile page could have chosen: it must stay a value, never become markup.
      parameters.state = #"x"><script>alert(1)</script>&y='z"#
      parameters.extra = [("response_mode", "form_post")]
      let page = try await driver.open(parameters)
      let answer = try await driver.submit(page, [("email", "ann@example.com"), ("password", "Tasks-Demo-1")])
      #expect(answer.status == 200 && answer.location == nil)
      #expect(answer.headers["content-type"]?.hasPrefix("text/html") == true)
      #expect(answer.headers["cache-control"]?.contains("no-store") == true)
      #expect(!answer.text.contains("<script>"), "the state was written as markup: \(answer.text)")
      #expect(answer.text.contains(#"<body onload="document.forms[0].submit()">"#))
      #expect(HTMLForm.action(in: answer.text) == "http://localhost:51234")
      let fields = Dictionary(
        HTMLForm.hiddenFields(in: answer.text).map { ($0, HTMLForm.unescape($1)) }, uniquingKeysWith: { a, _ in a })
      #expect(fields["state"] == parameters.state)
      #expect(Set(fields.keys) == ["code", "state"], "\(fields.keys)")
      let tokens = try await driver.redeem(try #require(fields["code"]), parameters: parameters)
      #expect(tokens.status == 200, "\(tokens.text)")
    }
  }

  @Test("fragment: a 302 with code and state after '#'")
  func fragment() async throws {
    try await PlaygroundHarness.with { harness in
      let driver = SignInDriver(harness)
      var parameters = AuthorizeParameters()
      parameters.extra = [("response_mode", "fragment")]
      let page = try await driver.open(parameters)
      let answer = try await driver.submit(page, [("email", "ann@example.com"), ("password", "Tasks-Demo-1")])
      #expect(answer.status == 302)
      let location = try #require(answer.location)
      #expect(location.hasPrefix(PlaygroundHarness.oob + "#code="), "\(location)")
      #expect(!location.contains("?"))
      let redirect = RedirectResult(location.replacingOccurrences(of: "#", with: "?"))
      #expect(redirect.parameters["state"] == parameters.state)
    }
  }

  @Test("errors travel in the mode asked for: prompt=none without a session, posted in a form")
  func errorInFormPost() async throws {
    try await PlaygroundHarness.with { harness in
      var parameters = AuthorizeParameters()
      parameters.extra = [("response_mode", "form_post"), ("prompt", "none")]
      let answer = try await SignInDriver(harness).open(parameters)
      #expect(answer.status == 200 && answer.location == nil)
      let fields = Dictionary(HTMLForm.hiddenFields(in: answer.text), uniquingKeysWith: { a, _ in a })
      #expect(fields["error"] == "login_required")
      #expect(fields["error_description"]?.hasPrefix("AADB2C90077") == true)
      #expect(fields["state"] == parameters.state)
    }
  }

  @Test("a mode B2C does not have is refused with AADB2C90014, in the query", arguments: ["web_message", "query.jwt"])
  func unknownMode(mode: String) async throws {
    try await PlaygroundHarness.with { harness in
      var parameters = AuthorizeParameters()
      parameters.extra = [("response_mode", mode)]
      let answer = try await SignInDriver(harness).open(parameters)
      #expect(answer.status == 302)
      let redirect = RedirectResult(try #require(answer.location))
      #expect(redirect.target == PlaygroundHarness.oob)
      #expect(redirect.error == "invalid_request")
      #expect(redirect.errorDescription?.hasPrefix("AADB2C90014: ") == true, "\(redirect.parameters)")
    }
  }

  @Test("the discovery document lists the three response modes", arguments: Flavor.allCases)
  func discovery(flavor: Flavor) async throws {
    try await PlaygroundHarness.with({ $0.flavor = flavor }) { harness in
      let path =
        switch flavor {
        case .b2c: "\(PlaygroundHarness.tenant)/\(PlaygroundHarness.signIn)/v2.0/.well-known/openid-configuration"
        case .externalID:
          "\(PlaygroundConfiguration(dataDirectory: harness.data).tenantID)/v2.0/.well-known/openid-configuration"
        case .openID: ".well-known/openid-configuration"
        }
      let document = try await Browser().get(harness.base.appending(path: path)).json()
      #expect(document["response_modes_supported"] as? [String] == ["query", "fragment", "form_post"])
    }
  }

  @Test("prompt=create (MSAL's Prompt.CREATE): External ID opens its sign-up page; B2C refuses it with AADB2C90043")
  func promptCreate() async throws {
    var parameters = AuthorizeParameters()
    parameters.extra = [("prompt", "create")]
    let external = try await PlaygroundHarness.start { $0.flavor = .externalID }
    let tenantID = PlaygroundConfiguration(dataDirectory: external.data).tenantID
    let page = try await Browser().get(
      parameters.url(external.base.appending(path: "\(tenantID)/oauth2/v2.0/authorize")))
    await external.stop()
    #expect(page.status == 200 && HTMLForm.hidden("step", in: page.text) == "signup", "\(page.text.prefix(400))")

    let b2c = try await PlaygroundHarness.start()
    try await withTeardown({ await b2c.stop() }) {
      let answer = try await SignInDriver(b2c).open(parameters)
      let redirect = RedirectResult(try #require(answer.location))
      #expect(redirect.error == "invalid_request" && redirect.errorDescription?.hasPrefix("AADB2C90043") == true)
    }
  }

  @Test("client_info=1: uid and utid in the token response, for the code and for a refresh; not without asking")
  func clientInfo() async throws {
    try await PlaygroundHarness.with { harness in
      let driver = SignInDriver(harness)
      let parameters = AuthorizeParameters()
      let redirect = try await driver.signIn("ann@example.com", "Tasks-Demo-1", parameters: parameters)
      let tokens = try await driver.redeem(
        try #require(redirect.code), parameters: parameters, extra: [("client_info", "1")]
      ).json()
      let idToken = try #require(tokens["id_token"] as? String)
      let oid = try #require(try await TokenInspector(harness).claims(idToken)["oid"] as? String)
      let tenantID = PlaygroundConfiguration(dataDirectory: harness.data).tenantID
      #expect(try Self.clientInfo(tokens) == ["uid": "\(oid)-b2c_1_signuporsignin", "utid": tenantID])
      let refreshed = try await driver.refresh(
        try #require(tokens["refresh_token"] as? String), extra: [("client_info", "1")]
      ).json()
      #expect(try Self.clientInfo(refreshed) == ["uid": "\(oid)-b2c_1_signuporsignin", "utid": tenantID])
      let plain = try await driver.refresh(try #require(refreshed["refresh_token"] as? String)).json()
      #expect(plain["client_info"] == nil && plain["access_token"] is String)
    }
  }

  private static func clientInfo(_ tokens: [String: Any]) throws -> [String: String] {
    let encoded = try #require(tokens["client_info"] as? String, "no client_info in \(tokens.keys)")
    return try TokenInspector.decodePart(Substring(encoded)).compactMapValues { $0 as? String }
  }
}

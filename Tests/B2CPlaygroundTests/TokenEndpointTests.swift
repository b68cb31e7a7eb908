// Tests of the token endpoint: codes (single use, lifetime, binding to client, redirect, policy and PKCE verifier),
// refresh-token rotation, B2C error bodies, claims, and the password-reset and edit-profile policies.

import Foundation
import TasksTestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Playground: token endpoint")
struct TokenEndpointTests {
  /// Checks an error answer's shape: HTTP 400, `error`, and a description that starts with the B2C code and ends
  /// with correlation id and timestamp.
  private func expectError(
    _ answer: HTTPAnswer, _ error: String, _ code: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    #expect(answer.status == 400, sourceLocation: sourceLocation)
    let body = try answer.json()
    #expect(body["error"] as? String == error, sourceLocation: sourceLocation)
    let description = body["error_description"] as? String ?? ""
    #expect(description.hasPrefix(code + ": "), "\(description)", sourceLocation: sourceLocation)
    #expect(
      description.contains("\r\nCorrelation ID: ") && description.hasSuffix("Z\r\n"), sourceLocation: sourceLocation)
  }

  @Test("the id_token and access token carry B2C's claims, signed RS256 with the JWKS key")
  func claims() async throws {
    try await PlaygroundHarness.with { harness in
      let parameters = AuthorizeParameters()
      let tokens = try await SignInDriver(harness).tokens(parameters: parameters)
      let inspector = TokenInspector(harness)
      let idToken = try #require(tokens["id_token"] as? String)
      let id = try await inspector.claims(idToken)
      let header = try inspector.header(idToken)
      #expect(header["alg"] as? String == "RS256" && header["kid"] is String)
      #expect(id["iss"] as? String == "\(harness.base.absoluteString)/5b6e1c9a-2f4d-4e7b-9c3a-1d8f0e2b7a64/v2.0/")
      #expect(id["aud"] as? String == PlaygroundHarness.clientID)
      #expect(id["nonce"] as? String == parameters.nonce)
      #expect(id["tfp"] as? String == "B2C_1_SignUpOrSignIn")
      #expect(id["ver"] as? String == "1.0")
      #expect(id["name"] as? String == "Ann Example")
      #expect(id["emails"] as? [String] == ["ann@example.com"])
      #expect(id["oid"] as? String != nil && id["sub"] as? String == id["oid"] as? String)
      for claim in ["exp", "nbf", "iat", "auth_time"] { #expect(id[claim] is Int, "\(claim)") }
      let access = try await inspector.claims(try #require(tokens["access_token"] as? String))
      #expect(
        access["aud"] as? String == PlaygroundHarness.clientID && access["oid"] as? String == id["oid"] as? String)
      let profile = try TokenInspector.decodePart(Substring(try #require(tokens["profile_info"] as? String)))
      #expect(profile["oid"] as? String == id["oid"] as? String)
    }
  }

  @Test("scopes decide which tokens come back: no offline_access, no refresh token; no client id, no access token")
  func scopeDecidesTokens() async throws {
    try await PlaygroundHarness.with { harness in
      var onlyOpenID = AuthorizeParameters()
      onlyOpenID.scope = "openid"
      let first = try await SignInDriver(harness).tokens(parameters: onlyOpenID)
      #expect(first["id_token"] is String && first["access_token"] == nil && first["refresh_token"] == nil)
      var noOpenID = AuthorizeParameters()
      noOpenID.scope = PlaygroundHarness.clientID
      let second = try await SignInDriver(harness).tokens(parameters: noOpenID)
      #expect(second["access_token"] is String && second["id_token"] == nil && second["refresh_token"] == nil)
    }
  }

  @Test("numbers come as strings when the playground is told so (clients must read both)")
  func numbersAsStrings() async throws {
    try await PlaygroundHarness.with({ $0.numbersAsStrings = true }) { harness in
      let tokens = try await SignInDriver(harness).tokens()
      #expect(tokens["expires_in"] as? String == "3600")
      #expect(tokens["not_before"] is String && tokens["refresh_token_expires_in"] is String)
    }
  }

  @Test("a code is single use")
  func codeSingleUse() async throws {
    try await PlaygroundHarness.with { harness in
      let driver = SignInDriver(harness)
      let parameters = AuthorizeParameters()
      let code = try #require(try await driver.signIn("ann@example.com", "Tasks-Demo-1", parameters: parameters).code)
      #expect(try await driver.redeem(code, parameters: parameters).status == 200)
      try expectError(try await driver.redeem(code, parameters: parameters), "invalid_grant", "AADB2C90129")
    }
  }

  @Test("an expired code is refused with AADB2C90080")
  func codeExpired() async throws {
    try await PlaygroundHarness.with({ $0.lifetimes.authorizationCode = 0 }) { harness in
      let driver = SignInDriver(harness)
      let parameters = AuthorizeParameters()
      let code = try #require(try await driver.signIn("ann@example.com", "Tasks-Demo-1", parameters: parameters).code)
      try expectError(try await driver.redeem(code, parameters: parameters), "invalid_grant", "AADB2C90080")
    }
  }

  @Test(
    "a code is bound to its policy, client, redirect URI and PKCE verifier",
    arguments: [
      "policy", "client", "redirect", "verifier-mismatch", "verifier-missing", "verifier-malformed", "garbage",
    ])
  func codeBinding(change: String) async throws {
    let harness = try await PlaygroundHarness.start {
      $0.clients.append(.init(id: "11111111-2222-3333-4444-555555555555", redirectURIs: ["urn:ietf:wg:oauth:2.0:oob"]))
    }
    try await withTeardown({ await harness.stop() }) {
      let driver = SignInDriver(harness)
      var parameters = AuthorizeParameters()
      var code = try #require(try await driver.signIn("ann@example.com", "Tasks-Demo-1", parameters: parameters).code)
      var policy = PlaygroundHarness.signIn
      switch change {
      case "policy": policy = PlaygroundHarness.edit
      case "client": parameters.clientID = "11111111-2222-3333-4444-555555555555"
      case "redirect": parameters.redirectURI = "http://127.0.0.1:9/"
      case "verifier-mismatch": parameters.verifier = String(repeating: "a", count: 64)
      case "verifier-missing": parameters.verifier = ""
      case "verifier-malformed": parameters.verifier = "short"
      default: code = "not-a-code"
      }
      let answer = try await driver.redeem(code, parameters: parameters, policy: policy)
      switch change {
      case "policy": try expectError(answer, "invalid_grant", "AADB2C90088")
      case "client": try expectError(answer, "invalid_grant", "AADB2C90011")
      case "redirect": try expectError(answer, "invalid_request", "AADB2C90006")
      case "verifier-mismatch": try expectError(answer, "invalid_grant", "AADB2C90182")
      case "verifier-missing", "verifier-malformed": try expectError(answer, "invalid_grant", "AADB2C90183")
      default: try expectError(answer, "invalid_grant", "AADB2C90087")
      }
    }
  }

  @Test("a code_verifier for a code asked without a challenge is refused (RFC 9700 §2.1.1: no PKCE downgrade)")
  func verifierWithoutChallenge() async throws {
    try await PlaygroundHarness.with { harness in
      let driver = SignInDriver(harness)
      var parameters = AuthorizeParameters()
      parameters.challengeMethod = nil
      let code = try #require(try await driver.signIn("ann@example.com", "Tasks-Demo-1", parameters: parameters).code)
      try expectError(try await driver.redeem(code, parameters: parameters), "invalid_grant", "AADB2C90183")
    }
  }

  @Test("PKCE plain works too")
  func pkcePlain() async throws {
    try await PlaygroundHarness.with { harness in
      var parameters = AuthorizeParameters()
      parameters.challengeMethod = "plain"
      let tokens = try await SignInDriver(harness).tokens(parameters: parameters)
      #expect(tokens["access_token"] is String)
    }
  }

  @Test("request errors: a public client's secret, missing and unsupported grant types, unknown client")
  func requestErrors() async throws {
    try await PlaygroundHarness.with { harness in
      let browser = Browser()
      let token = harness.endpoint("token")
      let client = ("client_id", PlaygroundHarness.clientID)
      try expectError(
        try await browser.post(
          token, form: [("grant_type", "refresh_token"), client, ("client_secret", "x"), ("refresh_token", "r")]),
        "invalid_request", "AADB2C90084")
      try expectError(try await browser.post(token, form: [client]), "invalid_request", "AADB2C90083")
      try expectError(
        try await browser.post(token, form: [("grant_type", "password"), client]), "unsupported_grant_type",
        "AADB2C90086"
      )
      try expectError(
        try await browser.post(token, form: [("grant_type", "refresh_token"), ("client_id", "nobody")]),
        "invalid_client",
        "AADB2C90018")
      try expectError(
        try await browser.post(token, form: [("grant_type", "refresh_token"), client]), "invalid_request", "AADB2C90083"
      )
      let garbage = try await browser.send(
        {
          var request = URLRequest(url: token)
          request.httpMethod = "POST"
          request.httpBody = Data([0xFF, 0x00, 0x26, 0x3D, 0x25, 0x5A])
          return request
        }(), headers: ["Content-Type": "application/x-www-form-urlencoded"])
      try expectError(garbage, "invalid_request", "AADB2C90083")
    }
  }

  @Test(
    "refresh tokens rotate on every use; a used one fails with AADB2C90129 and revokes its family (RFC 9700), not others"
  )
  func refreshRotation() async throws {
    try await PlaygroundHarness.with { harness in
      let driver = SignInDriver(harness)
      let first = try #require(try await driver.tokens()["refresh_token"] as? String)
      let otherSignIn = try #require(try await SignInDriver(harness).tokens()["refresh_token"] as? String)
      let answer = try await driver.refresh(first)
      #expect(answer.status == 200)
      let body = try answer.json()
      let second = try #require(body["refresh_token"] as? String)
      #expect(second != first)
      #expect(body["access_token"] is String && body["id_token"] is String)
      try expectError(try await driver.refresh(first), "invalid_grant", "AADB2C90129")
      // The replay shows the token leaked: its live successor is revoked too; another sign-in's chain is not.
      try expectError(try await driver.refresh(second), "invalid_grant", "AADB2C90129")
      #expect(try await driver.refresh(otherSignIn).status == 200)
    }
  }

  @Test("two uses of one refresh token at once: exactly one succeeds")
  func refreshRace() async throws {
    try await PlaygroundHarness.with { harness in
      let driver = SignInDriver(harness)
      let token = try #require(try await driver.tokens()["refresh_token"] as? String)
      async let one = driver.refresh(token)
      async let two = driver.refresh(token)
      let statuses = try await [one.status, two.status].sorted()
      #expect(statuses == [200, 400])
    }
  }

  @Test("a refresh token used at another policy fails with AADB2C90088 and stays usable")
  func refreshOtherPolicy() async throws {
    try await PlaygroundHarness.with { harness in
      let driver = SignInDriver(harness)
      let token = try #require(try await driver.tokens()["refresh_token"] as? String)
      try expectError(try await driver.refresh(token, policy: PlaygroundHarness.reset), "invalid_grant", "AADB2C90088")
      #expect(try await driver.refresh(token).status == 200)
    }
  }

  @Test("an expired refresh token fails with AADB2C90080; so does one past the sliding window")
  func refreshExpired() async throws {
    for lifetimes in [(0, 3600), (3600, 0)] {
      let harness = try await PlaygroundHarness.start {
        $0.lifetimes.refreshToken = lifetimes.0
        $0.lifetimes.refreshSlidingWindow = lifetimes.1
      }
      let driver = SignInDriver(harness)
      let token = try #require(try await driver.tokens()["refresh_token"] as? String)
      try expectError(try await driver.refresh(token), "invalid_grant", "AADB2C90080")
      await harness.stop()
    }
  }

  @Test("password reset really resets the password and revokes the refresh tokens")
  func passwordReset() async throws {
    let mailbox = Mailbox()
    try await PlaygroundHarness.with({ $0.mailbox = mailbox.deliver }) { harness in
      let driver = SignInDriver(harness)
      let refresh = try #require(try await driver.tokens("bob@example.com", "Tasks-Demo-2")["refresh_token"] as? String)
      let parameters = AuthorizeParameters()
      let page = try await driver.open(parameters, policy: PlaygroundHarness.reset)
      #expect(page.text.contains("Reset your password"))
      let codePage = try await driver.submit(page, [("email", "bob@example.com")])
      let code = try #require(mailbox.latestCode(for: "bob@example.com"))
      let mismatch = try await driver.submit(
        codePage, [("verificationCode", code), ("newPassword", "N3w-password"), ("reenterPassword", "other")])
      #expect(HTMLForm.error(in: mismatch.text)?.hasPrefix("The password entry fields do not match") == true)
      let done = try await driver.submit(
        mismatch,
        [("verificationCode", code), ("newPassword", "N3w-password"), ("reenterPassword", "N3w-password")])
      let redirect = RedirectResult(try #require(done.location))
      let tokens = try await driver.redeem(
        try #require(redirect.code), parameters: parameters, policy: PlaygroundHarness.reset
      ).json()
      let claims = try await TokenInspector(harness).claims(try #require(tokens["id_token"] as? String))
      #expect(claims["tfp"] as? String == "B2C_1_PasswordReset")
      try expectError(try await driver.refresh(refresh), "invalid_grant", "AADB2C90129")
      let fresh = SignInDriver(harness)
      let old = try await fresh.submit(
        try await fresh.open(AuthorizeParameters()), [("email", "bob@example.com"), ("password", "Tasks-Demo-2")])
      #expect(HTMLForm.error(in: old.text) == "Your password is incorrect.")
      #expect(try await fresh.signIn("bob@example.com", "N3w-password").code != nil)
    }
  }

  @Test("edit profile changes the display name of the same account")
  func editProfile() async throws {
    try await PlaygroundHarness.with { harness in
      let driver = SignInDriver(harness)
      let before = try await TokenInspector(harness).claims(
        try #require(try await driver.tokens()["id_token"] as? String))
      let parameters = AuthorizeParameters()
      let page = try await driver.open(parameters, policy: PlaygroundHarness.edit)
      #expect(page.text.contains("id=\"displayName\""), "signed in already: the profile form at once")
      let done = try await driver.submit(page, [("displayName", "Ann Renamed")])
      let location = try #require(done.location)
      let code = try #require(RedirectResult(location).code)
      let tokens = try await driver.redeem(code, parameters: parameters, policy: PlaygroundHarness.edit).json()
      let after = try await TokenInspector(harness).claims(try #require(tokens["id_token"] as? String))
      #expect(after["name"] as? String == "Ann Renamed")
      #expect(after["oid"] as? String == before["oid"] as? String)
      #expect(after["tfp"] as? String == "B2C_1_EditProfile")
      // Without a session the profile flow asks to sign in first.
      let other = SignInDriver(harness)
      let signIn = try await other.open(AuthorizeParameters(), policy: PlaygroundHarness.edit)
      let profile = try await other.submit(signIn, [("email", "ann@example.com"), ("password", "Tasks-Demo-1")])
      #expect(profile.text.contains("value=\"Ann Renamed\""))
    }
  }
}

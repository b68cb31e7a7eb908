// Tests of the authorize endpoint and its pages, acting as the browser: code flow with PKCE, every URL form, the
// pages' links (forgot password, cancel, sign up), SSO, prompt=login and refusals.

import Foundation
import JWTKit
import TasksTestSupport
import Testing

@Suite("Playground: authorize and sign-in pages")
struct AuthorizeFlowTests {
  @Test("full code flow with PKCE S256: sign in on the page, 302 to the redirect with code and state, tokens")
  func codeFlow() async throws {
    try await PlaygroundHarness.with { harness in
      let driver = SignInDriver(harness)
      let parameters = AuthorizeParameters()
      let redirect = try await driver.signIn("ann@example.com", "Tasks-Demo-1", parameters: parameters)
      #expect(redirect.target == PlaygroundHarness.oob)
      #expect(redirect.parameters["state"] == parameters.state)
      let tokens = try await driver.redeem(try #require(redirect.code), parameters: parameters).json()
      #expect(tokens["token_type"] as? String == "Bearer")
      #expect(tokens["access_token"] is String && tokens["id_token"] is String && tokens["refresh_token"] is String)
      #expect(tokens["expires_in"] as? Int == 3600)
      #expect(
        (tokens["scope"] as? String)?.split(separator: " ").sorted() == [
          "6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f10", "offline_access", "openid",
        ])
    }
  }

  @Test(
    "every URL form reaches the same tenant; policy names are case-insensitive",
    arguments: ["path", "query", "path-lowercase", "tenant-id"])
  func urlForms(form: String) async throws {
    try await PlaygroundHarness.with { harness in
      let endpoint: URL
      switch form {
      case "path": endpoint = harness.endpoint("authorize")
      case "query": endpoint = harness.queryFormEndpoint("authorize")
      case "path-lowercase": endpoint = harness.endpoint("authorize", policy: "b2c_1_signuporsignin")
      default:
        endpoint = harness.base.appending(path: "5b6e1c9a-2f4d-4e7b-9c3a-1d8f0e2b7a64/oauth2/v2.0/authorize")
          .appending(queryItems: [URLQueryItem(name: "p", value: "B2C_1_SIGNUPORSIGNIN")])
      }
      let page = try await Browser().get(AuthorizeParameters().url(endpoint))
      #expect(page.status == 200)
      #expect(page.text.contains("id=\"localAccountForm\""))
    }
  }

  @Test("an unregistered redirect URI or an unknown client gets an error page and no redirect")
  func untrustedRedirect() async throws {
    try await PlaygroundHarness.with { harness in
      var parameters = AuthorizeParameters()
      parameters.redirectURI = "https://evil.example/steal"
      let page = try await SignInDriver(harness).open(parameters)
      #expect(page.status == 400)
      #expect(page.location == nil)
      #expect(page.text.contains("AADB2C90006"))

      var unknown = AuthorizeParameters()
      unknown.clientID = "00000000-0000-0000-0000-000000000000"
      let second = try await SignInDriver(harness).open(unknown)
      #expect(second.status == 400 && second.location == nil && second.text.contains("AADB2C90018"))

      var missing = AuthorizeParameters()
      missing.redirectURI = ""
      let third = try await SignInDriver(harness).open(missing)
      #expect(third.status == 400 && third.location == nil && third.text.contains("AADB2C90083"))
    }
  }

  @Test(
    "registered redirect forms: loopback on any port, custom scheme with any case of its scheme",
    arguments: [
      ("http://127.0.0.1:49152/", true), ("http://localhost:8123/", true), ("http://127.0.0.1:49152/other", false),
      ("io.github.b2ctasks.b2ctasks://oauth/redirect", true), ("IO.GITHUB.B2CTASKS.B2CTASKS://oauth/redirect", true),
      ("io.github.b2ctasks.b2ctasks://oauth/other", false), ("urn:ietf:wg:oauth:2.0:oob", true),
    ])
  func redirectMatching(uri: String, accepted: Bool) async throws {
    try await PlaygroundHarness.with { harness in
      var parameters = AuthorizeParameters()
      parameters.redirectURI = uri
      let page = try await SignInDriver(harness).open(parameters)
      #expect((page.status == 200) == accepted)
    }
  }

  @Test(
    "errors after the redirect is trusted go back to the app with state",
    arguments: [
      ("response_type", "token", "unsupported_response_type", "AADB2C90013"),
      ("scope", "openid https://graph.microsoft.com/User.Read", "invalid_scope", "AADB2C90117"),
      ("scope", "offline_access", "invalid_request", "AADB2C90115"),
      ("prompt", "sometimes", "invalid_request", "AADB2C90043"),
      ("prompt", "none", "login_required", "AADB2C90077"),
      ("code_challenge_method", "S512", "invalid_request", "AADB2C90184"),
    ])
  func redirectedErrors(name: String, value: String, error: String, code: String) async throws {
    try await PlaygroundHarness.with { harness in
      var parameters = AuthorizeParameters()
      switch name {
      case "response_type": parameters.responseType = value
      case "scope": parameters.scope = value
      case "code_challenge_method": parameters.challengeMethod = value
      default: parameters.extra = [(name, value)]
      }
      let answer = try await SignInDriver(harness).open(parameters)
      #expect(answer.status == 302)
      let redirect = RedirectResult(try #require(answer.location))
      #expect(redirect.target == PlaygroundHarness.oob)
      #expect(redirect.error == error)
      #expect(redirect.errorDescription?.hasPrefix(code + ": ") == true)
      #expect(redirect.parameters["state"] == parameters.state)
    }
  }

  @Test("PKCE can be required: a request without code_challenge is refused with AADB2C99059")
  func pkceRequired() async throws {
    try await PlaygroundHarness.with({ $0.requirePKCE = true }) { harness in
      var parameters = AuthorizeParameters()
      parameters.challengeMethod = nil
      let answer = try await SignInDriver(harness).open(parameters)
      #expect(RedirectResult(try #require(answer.location)).errorDescription?.hasPrefix("AADB2C99059") == true)
    }
  }

  @Test("'Forgot your password?' redirects with AADB2C90118 exactly as B2C's pages do")
  func forgotPassword() async throws {
    try await PlaygroundHarness.with { harness in
      let driver = SignInDriver(harness)
      let parameters = AuthorizeParameters()
      let page = try await driver.open(parameters)
      let answer = try await driver.follow("forgotPassword", on: page)
      #expect(answer.status == 302)
      let location = try #require(answer.location)
      #expect(
        location.hasPrefix(
          "urn:ietf:wg:oauth:2.0:oob?error=access_denied&error_description=AADB2C90118%3a+The+user+has+forgotten+their+password.%0d%0aCorrelation+ID%3a+"
        )
          || location.hasPrefix(
            "urn:ietf:wg:oauth:2.0:oob?error=access_denied&error_description=AADB2C90118%3A+The+user+has+forgotten+their+password.%0D%0ACorrelation+ID%3A+"
          ))
      let redirect = RedirectResult(location)
      #expect(redirect.error == "access_denied")
      #expect(redirect.errorDescription?.contains("\r\nTimestamp: ") == true)
      #expect(redirect.parameters["state"] == parameters.state)
    }
  }

  @Test("Cancel redirects with AADB2C90091")
  func cancel() async throws {
    try await PlaygroundHarness.with { harness in
      let driver = SignInDriver(harness)
      let parameters = AuthorizeParameters()
      let answer = try await driver.follow("cancel", on: try await driver.open(parameters))
      let redirect = RedirectResult(try #require(answer.location))
      #expect(redirect.error == "access_denied")
      #expect(redirect.errorDescription?.hasPrefix("AADB2C90091: ") == true)
      #expect(redirect.parameters["state"] == parameters.state)
    }
  }

  @Test("a wrong password and an unknown account are shown on the page, which keeps the email")
  func wrongPassword() async throws {
    try await PlaygroundHarness.with { harness in
      let driver = SignInDriver(harness)
      let page = try await driver.open(AuthorizeParameters())
      let wrong = try await driver.submit(page, [("email", "ann@example.com"), ("password", "nope")])
      #expect(wrong.status == 200)
      #expect(HTMLForm.error(in: wrong.text) == "Your password is incorrect.")
      #expect(wrong.text.contains("value=\"ann@example.com\""))
      let unknown = try await driver.submit(wrong, [("email", "nobody@example.com"), ("password", "Tasks-Demo-1")])
      #expect(HTMLForm.error(in: unknown.text) == "We can't seem to find your account.")
    }
  }

  @Test("sign-up creates an account with the display name asked for, and signs in")
  func signUp() async throws {
    try await PlaygroundHarness.with { harness in
      let driver = SignInDriver(harness)
      let parameters = AuthorizeParameters()
      let signUpPage = try await driver.follow("createAccount", on: try await driver.open(parameters))
      let weak = try await driver.submit(
        signUpPage,
        [
          ("email", "cleo@example.com"), ("newPassword", "short"), ("reenterPassword", "short"),
          ("displayName", "Cleo"),
        ])
      #expect(HTMLForm.error(in: weak.text)?.hasPrefix("The password must be") == true)
      let taken = try await driver.submit(
        weak,
        [
          ("email", "ANN@example.com"), ("newPassword", "Str0ng-pass"), ("reenterPassword", "Str0ng-pass"),
          ("displayName", "A"),
        ])
      #expect(HTMLForm.error(in: taken.text)?.hasPrefix("A user with the specified ID already exists") == true)
      let created = try await driver.submit(
        taken,
        [
          ("email", "cleo@example.com"), ("newPassword", "Str0ng-pass"), ("reenterPassword", "Str0ng-pass"),
          ("displayName", "Cleo Example"),
        ])
      let redirect = RedirectResult(try #require(created.location))
      let tokens = try await driver.redeem(try #require(redirect.code), parameters: parameters).json()
      let claims = try await TokenInspector(harness).claims(try #require(tokens["id_token"] as? String))
      #expect(claims["name"] as? String == "Cleo Example")
      #expect(claims["emails"] as? [String] == ["cleo@example.com"])
      // The new account signs in with its password from now on.
      let again = try await SignInDriver(harness).signIn("cleo@example.com", "Str0ng-pass")
      #expect(again.code != nil)
    }
  }

  @Test("the SSO cookie skips the form on a second authorize, unless prompt=login")
  func singleSignOn() async throws {
    try await PlaygroundHarness.with { harness in
      let driver = SignInDriver(harness)
      _ = try await driver.signIn("ann@example.com", "Tasks-Demo-1")
      #expect(driver.browser.cookieNames.contains("x-ms-cpim-sso"))
      let second = AuthorizeParameters()
      let silent = try await driver.open(second)
      #expect(silent.status == 302)
      let redirect = RedirectResult(try #require(silent.location))
      #expect(redirect.code != nil && redirect.parameters["state"] == second.state)

      var forced = AuthorizeParameters()
      forced.extra = [("prompt", "login")]
      let page = try await driver.open(forced)
      #expect(page.status == 200 && page.text.contains("localAccountForm"))

      // Another browser has no session.
      #expect(try await SignInDriver(harness).open(AuthorizeParameters()).status == 200)
    }
  }

  @Test("login_hint fills in the email; ui_locales and Accept-Language choose the page language")
  func hintsAndLanguage() async throws {
    try await PlaygroundHarness.with { harness in
      var parameters = AuthorizeParameters()
      parameters.extra = [("login_hint", "bob@example.com"), ("ui_locales", "de-DE")]
      let page = try await SignInDriver(harness).open(parameters)
      #expect(page.text.contains("value=\"bob@example.com\""))
      #expect(page.text.contains("<html lang=\"de\">"))
      #expect(page.text.contains("Passwort vergessen?"))
      let browser = Browser()
      browser.acceptLanguage = "fi-FI, en;q=0.5"
      let finnish = try await SignInDriver(harness, browser: browser).open(AuthorizeParameters())
      #expect(finnish.text.contains("<html lang=\"fi\">"))
      #expect(finnish.text.contains("Unohditko salasanasi?"))
    }
  }

  @Test(
    "each language of the sample's documentation has its own sign-in page",
    arguments: [("nl", "Wachtwoord vergeten?"), ("it", "Password dimenticata?"), ("zh-CN", "忘记密码？"), ("en", "Forgot")])
  func pageLanguages(locale: String, forgot: String) async throws {
    try await PlaygroundHarness.with { harness in
      var parameters = AuthorizeParameters()
      parameters.extra = [("ui_locales", locale)]
      let page = try await SignInDriver(harness).open(parameters)
      #expect(page.text.contains(forgot))
    }
  }

  @Test("logout ends the web session and returns to post_logout_redirect_uri with state; an unknown target is refused")
  func logout() async throws {
    try await PlaygroundHarness.with { harness in
      let driver = SignInDriver(harness)
      _ = try await driver.signIn("ann@example.com", "Tasks-Demo-1")
      var logout = URLComponents(url: harness.endpoint("logout"), resolvingAgainstBaseURL: false)!
      logout.queryItems = [URLQueryItem(name: "post_logout_redirect_uri", value: "https://evil.example/")]
      let refused = try await driver.browser.get(logout.url!)
      #expect(refused.status == 400 && refused.location == nil && refused.text.contains("AADB2C90067"))
      #expect(try await driver.open(AuthorizeParameters()).status == 302, "still signed in after a refused logout")

      logout.queryItems = [
        URLQueryItem(name: "post_logout_redirect_uri", value: PlaygroundHarness.oob),
        URLQueryItem(name: "state", value: "bye"),
      ]
      let answer = try await driver.browser.get(logout.url!)
      #expect(answer.status == 302)
      #expect(answer.location == "urn:ietf:wg:oauth:2.0:oob?state=bye")
      #expect(!driver.browser.cookieNames.contains("x-ms-cpim-sso"))
      #expect(try await driver.open(AuthorizeParameters()).status == 200, "signed out: the form again")
    }
  }
}

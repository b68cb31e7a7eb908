// Tests of the session against the playground playing Microsoft Entra External ID and a plain OpenID Connect issuer:
// sign-in found by discovery, the task API with the id_token as bearer, refresh with rotation, cancel, sign-out.

import B2CPlayground
import Foundation
import TasksCore
import TasksTestSupport
import TasksURLSession
import Testing

@Suite("Session: External ID and OpenID Connect providers")
struct ProviderFlowTests {
  /// The claims of a JWT, read without checking it (the session checked it).
  private func claims(_ token: String) throws -> [String: Any] {
    let part = String(token.split(separator: ".")[1])
    var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    let data = try #require(Data(base64Encoded: base64))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  @Test(
    "sign in by discovery alone; the task API takes the id_token; refresh rotates; sign-out ends the provider's session",
    arguments: [Flavor.externalID, .openID])
  func signInRefreshSignOut(flavor: Flavor) async throws {
    try await SessionHarness.with(flavor: flavor, { $0.lifetimes.idToken = 120 }) { harness in
      #expect(harness.settings.policies == nil && harness.settings.bearerToken == .idToken)
      let session = harness.session(refreshMargin: 300)  // 120 s < 5 min: every use refreshes
      let request = try await session.startSignIn()
      let scopes = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?
        .first { $0.name == "scope" }?.value
      #expect(
        scopes == "openid offline_access profile email",
        "no client id as a scope, offline_access because it is listed, the standard claims by default")
      #expect(request.policy == nil && !request.url.absoluteString.contains("p="))
      let location = try await PageWalker().signIn(request.url, email: "ann@example.com", password: "Tasks-Demo-1")
      guard case .signedIn(let account) = await session.handleRedirect(location) else {
        Issue.record("not signed in to \(flavor)")
        return
      }
      #expect(account.email == "ann@example.com" && account.displayName == "Ann Example")
      let key = SessionKey(harness.settings)
      let first = try #require(try await harness.store.load(key))
      #expect(first.policy == nil)
      let issuer = try #require(try claims(first.idToken)["iss"] as? String)
      switch flavor {
      case .externalID:
        // As External ID's: the issuer is on another host than the authority, https://TENANT.ciamlogin.com's stand-in.
        #expect(URL(string: issuer)?.host != harness.base.host)
        #expect(
          issuer.hasSuffix(
            ".localhost:\(harness.base.port ?? 0)/\(PlaygroundConfiguration(dataDirectory: harness.data).tenantID)/v2.0"
          ))
      default:
        #expect(issuer == harness.base.absoluteString)
      }

      try await TaskAPIClient(session: session).add("from \(flavor.rawValue)")  // refreshes first
      let second = try #require(try await harness.store.load(key))
      #expect(second.refreshToken != first.refreshToken, "each refresh rotates the refresh token")
      #expect(second.idToken != first.idToken, "the refresh brings a new id_token, the bearer")
      #expect(try await TaskAPIClient(session: harness.session()).list().map(\.text) == ["from \(flavor.rawValue)"])

      let logout = try #require(try await session.signOut())
      #expect(logout.url.absoluteString.hasPrefix(harness.base.absoluteString) && logout.url.path.hasSuffix("/logout"))
      #expect(try await harness.store.load(key) == nil)
    }
  }

  @Test(
    "Cancel on a provider's page is a quiet cancel; the page offers no B2C password-reset policy",
    arguments: [Flavor.externalID, .openID])
  func cancel(flavor: Flavor) async throws {
    try await SessionHarness.with(flavor: flavor) { harness in
      let session = harness.session()
      let walker = PageWalker()
      let request = try await session.startSignIn()
      let page = try await walker.open(request.url)
      #expect(!page.text.contains("forgotPassword"))
      let cancelled = try await walker.follow("cancel", on: page, at: request.url)
      #expect(try #require(cancelled.location).contains("error=access_denied"))
      #expect(await session.handleRedirect(try #require(cancelled.location)) == .cancelled)
      #expect(await session.state == .signedOut)
      await #expect(throws: SessionError.policyNotConfigured("edit-profile")) {
        _ = try await session.startEditProfile()
      }
      #expect(!session.canEditProfile)
    }
  }

  @Test("sessions of different providers never mix, even in one keychain group")
  func separateSessions() async throws {
    let oidc = try await SessionHarness.start(flavor: .openID)
    try await withTeardown({ await oidc.stop() }) {
      _ = try await oidc.signIn(oidc.session())
      // The same group, client and authority, but B2C: it must not find the OpenID Connect session.
      let b2cPlist = SessionHarness.plist(base: oidc.base, group: oidc.group, redirect: "urn:ietf:wg:oauth:2.0:oob")
      let b2c = try AppSettings.parse(Data(b2cPlist.utf8), file: "b2c")
      #expect(try await Session(settings: b2c, store: oidc.store, http: .tests).restore() == nil)
      #expect(try await oidc.session().restore() != nil)
    }
  }

  @Test("a provider whose discovery document cannot be had: the sign-in cannot start, and says why")
  func noDiscovery() async throws {
    let harness = try await SessionHarness.start(flavor: .openID)
    let settings = harness.settings
    await harness.stop()
    await #expect {
      _ = try await Session(settings: settings, store: harness.store, http: .tests).startSignIn()
    } throws: { error in
      guard case SessionError.discovery(.network) = error else { return false }
      return true
    }
  }
}

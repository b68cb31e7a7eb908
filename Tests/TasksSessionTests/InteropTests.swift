// Interoperability with an OpenID Connect provider nobody here wrote (django-oidc-provider): the CLI signs in through
// the loopback flow, the app's session finds the sign-in, a refresh rotates the refresh token, the task API (the
// playground trusting that provider) takes the id_token, and sign-out ends the provider's session too.

import B2CPlayground
import Foundation
import TasksCore
import TasksKeyring
import TasksTestSupport
import TasksURLSession
import Testing

@Suite(
  "Interoperability: django-oidc-provider", .serialized,
  .enabled(if: TestDesktop.hasSessionBus || TestDesktop.isRequired))
struct InteropTests {
  @Test("CLI sign-in by loopback, SSO, refresh with rotation, the task API, sign-out through end_session_endpoint")
  func cliAgainstIndependentProvider() async throws {
    let clientID = PlaygroundConfiguration.appClientID
    let redirect = "http://127.0.0.1:\(try freeLoopbackPort())/"
    let provider = try await InteropProvider(clientID: clientID, redirectURIs: [redirect])
    let folder = try TestDesktop.temporaryFolder("interop")
    // The task API: the playground trusting the provider's tokens for this client.
    let api = try await provider.taskAPI(clientID: clientID, folder: folder)
    let group = "interop.\(UUID().uuidString)"
    let plist = provider.settings(
      clientID: clientID, redirect: redirect, keychain: group, taskAPI: api.baseURL.absoluteString)
    let settingsFile = folder.appending(path: "settings.plist")
    try Data(plist.utf8).write(to: settingsFile)
    let settings = try AppSettings.load(from: settingsFile)
    let key = SessionKey(settings)
    let browserLog = folder.appending(path: "browser.log")
    let environment = InteropProvider.browserEnvironment(
      cookies: folder.appending(path: "cookies.txt"), log: browserLog)
    func cli(_ arguments: [String]) async throws -> (status: Int32?, output: String, error: String) {
      let command = Array(arguments.prefix(1)) + ["--settings", settingsFile.path] + arguments.dropFirst()
      return try await ChildProcess.run(
        TestDesktop.binaryFolder.appending(path: "b2c-tasks-cli"), command, environment: environment,
        timeout: .seconds(60))
    }
    do {
      let signIn = try await cli(["sign-in"])
      #expect(signIn.status == 0, "\(signIn.output) \(signIn.error)")
      #expect(signIn.output.contains("Signed in as \(InteropProvider.user.display)"))

      // Another app of the group finds the sign-in in the keyring.
      let session = Session(settings: settings, store: KeyringSessionStore(), http: .tests)
      let account = try #require(try await session.restore())
      #expect(account.email == InteropProvider.user.email)
      try await TaskAPIClient(session: session).add("from the independent provider")
      #expect(try await cli(["list"]).output.contains("from the independent provider"))

      // A refresh (the API said 401, say) rotates the refresh token: the old one is gone at the provider.
      let before = try #require(try await KeyringSessionStore().load(key))
      _ = try await session.bearer(forceRefresh: true)
      let after = try #require(try await KeyringSessionStore().load(key))
      #expect(after.refreshToken != nil && after.refreshToken != before.refreshToken)
      #expect(after.idToken != before.idToken, "the provider sends a new id_token with the refresh")
      let reuse = try await Browser().post(
        provider.issuer.appending(path: "token"),
        form: [
          ("grant_type", "refresh_token"), ("client_id", clientID), ("refresh_token", before.refreshToken ?? ""),
        ])
      #expect(reuse.status == 400, "the rotated refresh token no longer works")
      #expect(try await TaskAPIClient(session: session).list().map(\.text) == ["from the independent provider"])

      // Sign-out: the keyring forgets the group, and the browser is sent to the provider's end-session endpoint.
      let signOut = try await cli(["sign-out"])
      #expect(signOut.status == 0, "\(signOut.error)")
      #expect(try await KeyringSessionStore().load(key) == nil)
      // The browser runs on after the CLI has exited, as a desktop browser would.
      let ended = await eventually(timeout: .seconds(30), every: .milliseconds(100)) {
        (try? String(contentsOf: browserLog, encoding: .utf8))?.contains("/openid/end-session") == true
      }
      #expect(ended, "the browser never opened the end-session endpoint")
    } catch {
      Issue.record("\(error); provider said: \(provider.process.standardError.suffix(2000))")
    }
    try? await KeyringSessionStore().removeGroup(of: key)
    await api.stop()
    await provider.stop()
    try? FileManager.default.removeItem(at: folder)
  }
}

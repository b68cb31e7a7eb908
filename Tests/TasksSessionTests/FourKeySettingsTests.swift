// Settings of four keys (clientID, authority, keychain, taskAPI) sign in with b2c-tasks-cli against the playground
// playing External ID and a plain OpenID Connect issuer, and against the independent provider (django-oidc-provider):
// the default redirect http://127.0.0.1/ is listened for on a free port, which a provider following RFC 8252 §7.3
// accepts; the default scopes bring the user's name.

import B2CPlayground
import Foundation
import TasksCore
import TasksKeyring
import TasksTestSupport
import Testing

@Suite(
  "Four keys of settings: b2c-tasks-cli", .serialized,
  .enabled(if: TestDesktop.hasSessionBus || TestDesktop.isRequired))
struct FourKeySettingsTests {
  @Test(
    "External ID and OpenID Connect: sign-in by loopback on any port, then add and list",
    arguments: [Flavor.externalID, .openID])
  func playground(flavor: Flavor) async throws {
    try await SessionHarness.with(flavor: flavor, keyring: true) { harness in
      let tenantID = PlaygroundConfiguration(dataDirectory: harness.data).tenantID
      let base = harness.base.absoluteString
      let settings = fourKeySettings(
        clientID: PlaygroundConfiguration.appClientID,
        authority: flavor == .externalID ? "\(base)/\(tenantID)" : base, keychain: harness.group, taskAPI: base)
      let file = harness.data.appending(path: "four.plist")
      try Data(settings.utf8).write(to: file)
      let log = harness.data.appending(path: "browser.log")
      let cli = { (arguments: [String]) in
        try await ChildProcess.run(
          CLIRunner.program, Array(arguments.prefix(1)) + ["--settings", file.path] + arguments.dropFirst(),
          environment: [
            "BROWSER": CLIRunner.scriptedBrowser, "B2C_TEST_EMAIL": "ann@example.com",
            "B2C_TEST_PASSWORD": "Tasks-Demo-1", "B2C_TEST_BROWSER_LOG": log.path,
          ], timeout: .seconds(60))
      }
      let signIn = try await cli(["sign-in"])
      #expect(signIn.status == 0, "\(signIn.output) \(signIn.error)")
      #expect(signIn.output.contains("Signed in as Ann Example"), "\(signIn.output)")
      // The browser got a page leading to the listener's one-time address on 127.0.0.1 and a port of the CLI's choosing
      // (removed once it served; the page's own test reads one before).
      let opened = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
      #expect(opened.hasPrefix("file:///") && opened.contains("/b2c-tasks/sign-in-"), "\(opened)")
      #expect(try await cli(["add", "four keys (\(flavor.rawValue))"]).status == 0)
      #expect(try await cli(["list"]).output.contains("four keys (\(flavor.rawValue))"))
      try? await KeyringSessionStore().removeGroup(of: SessionKey(try AppSettings.load(from: file)))
    }
  }

  @Test(
    "the independent provider, registered with http://127.0.0.1/ and matching loopback on any port as RFC 8252 asks")
  func independentProvider() async throws {
    let clientID = PlaygroundConfiguration.appClientID
    let provider = try await InteropProvider(
      clientID: clientID, redirectURIs: ["http://127.0.0.1/"], loopbackAnyPort: true)
    let folder = try TestDesktop.temporaryFolder("four-keys")
    // The task API: the playground trusting the provider's tokens for this client.
    let api = try await provider.taskAPI(clientID: clientID, folder: folder)
    let file = folder.appending(path: "four.plist")
    try Data(
      fourKeySettings(
        clientID: clientID, authority: provider.issuer.absoluteString, keychain: "four.\(UUID().uuidString)",
        taskAPI: api.baseURL.absoluteString
      ).utf8
    ).write(to: file)
    let environment = InteropProvider.browserEnvironment(
      cookies: folder.appending(path: "cookies.txt"), log: folder.appending(path: "browser.log"))
    let cli = { (arguments: [String]) in
      try await ChildProcess.run(
        CLIRunner.program, Array(arguments.prefix(1)) + ["--settings", file.path] + arguments.dropFirst(),
        environment: environment, timeout: .seconds(60))
    }
    do {
      let signIn = try await cli(["sign-in"])
      #expect(signIn.status == 0, "\(signIn.output) \(signIn.error)")
      // The name comes with the default scopes (profile email): the file asks for none.
      #expect(signIn.output.contains("Signed in as \(InteropProvider.user.display)"), "\(signIn.output)")
      #expect(try await cli(["add", "four keys, independent provider"]).status == 0)
      #expect(try await cli(["list"]).output.contains("four keys, independent provider"))
    } catch {
      Issue.record("\(error); provider said: \(provider.process.standardError.suffix(2000))")
    }
    try? await KeyringSessionStore().removeGroup(of: SessionKey(try AppSettings.load(from: file)))
    await api.stop()
    await provider.stop()
    try? FileManager.default.removeItem(at: folder)
  }
}

// The OpenID Foundation's relying-party test cases that apply to a native app with the code flow and PKCE, played by
// a hostile provider of the tests' own (HostileProvider), against the session over both transports and against
// b2c-tasks-cli. Each case is named by its id; README's "The relying-party test cases" says which are covered.

import Foundation
import TasksCore
import TasksCoreTesting
import TasksKeyring
import TasksTestSupport
import Testing

@Suite("OpenID relying-party test cases")
struct RelyingPartyTests {
  /// A session for `provider` over `transport`, with a store in memory.
  private func session(_ provider: HostileProvider, _ transport: Transport) throws -> Session {
    let settings = try AppSettings.parse(
      Data(provider.settings(keychain: "rp.\(UUID().uuidString)").utf8), file: "rp.plist")
    return Session(settings: settings, store: MemorySessionStore(), http: transport.client())
  }

  @Test("the session", arguments: RPCase.allCases, Transport.allCases)
  func session(rpCase: RPCase, transport: Transport) async throws {
    let provider = try await HostileProvider.start(rpCase)
    try await withTeardown({ await provider.stop() }) {
      let session = try session(provider, transport)
      let request: AuthorizationRequest
      do {
        request = try await session.startSignIn()
      } catch let error as SessionError {
        // A discovery document naming another issuer: the sign-in cannot start, and says why.
        #expect(rpCase == .discoveryIssuerMismatch, "\(error)")
        if case .discovery(.untrustedIssuer) = error {} else { Issue.record("\(rpCase): \(error)") }
        return
      }
      #expect(rpCase != .discoveryIssuerMismatch, "a discovery document naming another issuer was used")
      let location = try #require(try await Browser().get(request.url).location, "the provider gave no redirect")
      let step = await session.handleRedirect(location)
      guard rpCase.accepted || rpCase.isAboutRefresh else {
        guard case .failed(.idToken) = step else {
          Issue.record("\(rpCase): the sign-in was not refused for its id_token: \(step)")
          return
        }
        #expect(await session.account == nil, "nobody is signed in")
        return
      }
      guard case .signedIn(let account) = step else {
        Issue.record("\(rpCase): the sign-in failed: \(step)")
        return
      }
      #expect(account.objectID == HostileProvider.subject)
      guard rpCase.isAboutRefresh else { return }

      // Signed in with changes waiting; then the provider rotates its keys, or answers refreshes wrongly.
      let outbox = Outbox(file: try TestDesktop.temporaryFolder("rp-outbox").appending(path: "outbox.json"))
      _ = try await outbox.add("waiting through a refresh")
      if rpCase == .keyRotation || rpCase == .keyRotationNative { try provider.rotateKeys() }
      do {
        _ = try await session.bearer(forceRefresh: true)
        #expect(rpCase.accepted, "\(rpCase): the refreshed id_token was accepted")
      } catch let error as SessionError {
        #expect(!rpCase.accepted, "\(rpCase): \(error)")
        guard case .idToken = error else {
          Issue.record("\(rpCase): refused, but not for its id_token: \(error)")
          return
        }
        // Still the same user, and nothing lost.
        #expect(await session.account?.objectID == HostileProvider.subject)
        #expect(await outbox.pending.map(\.text) == ["waiting through a refresh"])
        // L9: the refresh token the provider rotated to was kept: the next refresh presents it, not the spent one
        // (which reuse detection would punish by ending the session everywhere).
        await #expect(throws: SessionError.self) { _ = try await session.bearer(forceRefresh: true) }
        let refreshes = provider.refreshes
        #expect(refreshes.count == 2 && refreshes.replayed == 0, "\(refreshes)")
      }
    }
  }

  @Test(
    "b2c-tasks-cli", .serialized, .enabled(if: TestDesktop.hasSessionBus || TestDesktop.isRequired),
    arguments: RPCase.allCases)
  func cli(rpCase: RPCase) async throws {
    let provider = try await HostileProvider.start(rpCase)
    try await withTeardown({ await provider.stop() }) {
      let folder = try TestDesktop.temporaryFolder("rp-cli")
      defer { try? FileManager.default.removeItem(at: folder) }
      let settings = folder.appending(path: "settings.plist")
      let keychain = "rp.cli.\(UUID().uuidString)"
      try Data(provider.settings(keychain: keychain).utf8).write(to: settings)
      func run(_ arguments: [String], browser: String = CLIRunner.scriptedBrowser) async throws -> (
        status: Int32?, output: String, error: String
      ) {
        try await ChildProcess.run(
          CLIRunner.program, Array(arguments.prefix(1)) + ["--settings", settings.path] + arguments.dropFirst(),
          environment: ["BROWSER": browser], timeout: .seconds(60))
      }
      try await withTeardown({ _ = try? await run(["sign-out"], browser: "true") }) {
        let signIn = try await run(["sign-in"])
        guard rpCase.accepted || rpCase.isAboutRefresh else {
          #expect(signIn.status == 1 || signIn.status == 5, "\(rpCase): \(signIn.output) \(signIn.error)")
          let settingsKey = SessionKey(try AppSettings.parse(Data(contentsOf: settings), file: "rp.plist"))
          #expect(try await KeyringSessionStore().load(settingsKey) == nil, "\(rpCase): nothing was kept")
          return
        }
        #expect(signIn.status == 0, "\(rpCase): \(signIn.output) \(signIn.error)")
        guard rpCase.isAboutRefresh else { return }
        if rpCase == .keyRotation || rpCase == .keyRotationNative { try provider.rotateKeys() }
        // Its tokens last two minutes, under the refresh margin: the next command refreshes.
        let list = try await run(["list"], browser: "false")
        if rpCase.accepted {
          #expect(list.status == 0, "\(rpCase): \(list.output) \(list.error)")
        } else {
          #expect(list.status != 0 && list.error.contains("could not be verified"), "\(rpCase): \(list.error)")
        }
      }
    }
  }
}

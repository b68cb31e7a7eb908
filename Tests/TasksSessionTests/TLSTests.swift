// TLS end to end for the core and b2c-tasks-cli: the playground serves https with a certificate from the run's
// throwaway authority (trusted by the system for the run), and with certificates nobody should accept.

import B2CPlayground
import Foundation
import TasksCore
import TasksKeyring
import TasksTestSupport
import Testing

extension BadCertificate {
  /// What the app should say is wrong.
  var problem: CertificateProblem {
    switch self {
    case .untrusted: return .notTrusted
    case .expired: return .expired
    case .otherName: return .otherName
    }
  }

  /// A provider (by default OpenID Connect) serving https with this certificate; a sign-in starts by fetching its
  /// discovery document (B2C's: the policy's).
  func server(_ flavor: Flavor = .openID) async throws -> SessionHarness {
    try await SessionHarness.start(tls: try identity(TestAuthority.trusted()), flavor: flavor)
  }
}

extension SessionHarness {
  /// A harness whose playground serves https with `identity`.
  static func start(tls identity: ServerIdentity, flavor: Flavor = .b2c, keyring: Bool = false) async throws
    -> SessionHarness
  {
    try await start(flavor: flavor, keyring: keyring) {
      $0.tls = .init(certificate: identity.certificate, key: identity.key)
    }
  }
}

@Suite("TLS: https with a trusted authority, and certificates that must be refused", .serialized)
struct TLSTests {
  @Test(
    "with a certificate the system trusts, the session signs in, lists and adds over https",
    arguments: Transport.allCases)
  func trusted(_ transport: Transport) async throws {
    let authority = try await TestAuthority.trusted()
    let harness = try await SessionHarness.start(tls: try authority.issue())
    try await withTeardown({ await harness.stop() }) {
      #expect(harness.base.scheme == "https")
      let session = harness.session(transport: transport)
      #expect(try await harness.signIn(session).email == "ann@example.com")
      let api = TaskAPIClient(session: session)
      _ = try await api.add("pay the electricity bill")
      #expect(try await api.list().map(\.text) == ["pay the electricity bill"])
    }
  }

  @Test(
    "the session refuses a server whose certificate is bad, naming its host, and sends nothing",
    arguments: BadCertificate.allCases, Transport.allCases)
  func refused(_ bad: BadCertificate, _ transport: Transport) async throws {
    let harness = try await bad.server()
    try await withTeardown({ await harness.stop() }) {
      let started = ContinuousClock.now
      do {
        _ = try await harness.session(transport: transport).startSignIn()
        Issue.record("the sign-in started against a server with a bad certificate")
      } catch let error as SessionError {
        guard case .discovery(.network(.untrusted(let host, let problem))) = error else {
          Issue.record("expected an untrusted-certificate error, got \(error)")
          return
        }
        #expect(host == "127.0.0.1:\(harness.base.port ?? 0)")
        #expect(problem == bad.problem)
        #expect(error.message.contains(host), "\(error.message)")
      }
      #expect(ContinuousClock.now - started < .seconds(20), "nothing hangs")
    }
  }

  @Test(
    "libsoup readied for a server whose certificate is bad: its requests name the certificate's problem",
    arguments: BadCertificate.allCases)
  func refusedAfterReadying(_ bad: BadCertificate) async throws {
    let harness = try await bad.server()
    try await withTeardown({ await harness.stop() }) {
      // The first request races the preconnection (it may take it over, its certificate refused before the request
      // came); the second comes after it has ended.
      let client = Transport.soup.client()
      client.prepare(for: harness.base)
      for _ in 1...2 {
        do {
          _ = try await client.get(harness.base)
          Issue.record("a request was answered by a server with a bad certificate")
        } catch {
          guard case NetworkError.untrusted(let host, let problem) = error else {
            Issue.record("expected an untrusted-certificate error, got \(error)")
            return
          }
          #expect(host == "127.0.0.1:\(harness.base.port ?? 0)")
          #expect(problem == bad.problem)
        }
      }
    }
  }

  @Test("over https, b2c-tasks-cli signs in with the browser, adds and lists")
  func cliTrusted() async throws {
    let authority = try await TestAuthority.trusted()
    let harness = try await SessionHarness.start(tls: try authority.issue(), keyring: true)
    try await withTeardown({ await harness.stop() }) {
      let cli = try CLIRunner(harness)
      let signIn = try await cli.run(["sign-in"])
      #expect(signIn.status == 0, "\(signIn.output) \(signIn.error)")
      #expect(signIn.output.contains("Signed in as Ann Example"))
      #expect(try await cli.run(["add", "renew", "the", "certificate"]).status == 0)
      let list = try await cli.run(["list"])
      #expect(list.status == 0, "\(list.error)")
      #expect(list.output.contains("renew the certificate"))
    }
  }

  @Test(
    "with a bad certificate, b2c-tasks-cli names the host it cannot verify and opens no browser",
    arguments: BadCertificate.allCases)
  func cliRefused(_ bad: BadCertificate) async throws {
    let authority = try await TestAuthority.trusted()
    let badServer = try await bad.server()
    try await withTeardown({ await badServer.stop() }) {
      let host = "127.0.0.1:\(badServer.base.port ?? 0)"
      let browserLog = badServer.data.appending(path: "browser.log")
      // The CLI reads the provider's discovery document before it opens the browser.
      let signIn = try await CLIRunner(badServer, openID: true).run(
        ["sign-in"], environment: ["B2C_TEST_BROWSER_LOG": browserLog.path])
      #expect(signIn.status == 5, "exit 5 (network), not a hang: \(signIn.output) \(signIn.error)")
      #expect(signIn.error.contains(bad.problem.message(host: host)), "\(signIn.error)")
      #expect(!FileManager.default.fileExists(atPath: browserLog.path), "no browser was opened")
      // B2C's too (its policy's document), though B2C's URL conventions would let it go on without the document.
      let b2c = try await bad.server(.b2c)
      try await withTeardown({ await b2c.stop() }) {
        let b2cSignIn = try await CLIRunner(b2c).run(
          ["sign-in"], environment: ["B2C_TEST_BROWSER_LOG": browserLog.path])
        #expect(b2cSignIn.status == 5, "\(b2cSignIn.output) \(b2cSignIn.error)")
        #expect(
          b2cSignIn.error.contains(bad.problem.message(host: "127.0.0.1:\(b2c.base.port ?? 0)")), "\(b2cSignIn.error)")
        #expect(!FileManager.default.fileExists(atPath: browserLog.path), "no browser was opened")

        // Signed in with a good provider, a task API with a bad certificate is refused the same way.
        let good = try await SessionHarness.start(tls: try authority.issue(), keyring: true)
        try await withTeardown({ await good.stop() }) {
          _ = try await good.signIn(good.session())
          let cli = try CLIRunner(good, taskAPI: badServer.base)
          let list = try await cli.run(["list"], environment: ["BROWSER": "false"])
          #expect(list.status == 5, "\(list.output) \(list.error)")
          #expect(list.error.contains(bad.problem.message(host: host)), "\(list.error)")
        }
      }
    }
  }
}

// SessionHarness: a playground (of any flavor) on a free port, settings pointing at it, and sessions over one store —
// in memory, or the real keyring with a keychain group of its own.

import B2CPlayground
import Foundation
import Logging
import Synchronization
import TasksCore
import TasksCoreTesting
import TasksKeyring
import TasksTestSupport
import TasksURLSession
import Testing

/// A playground and the app settings that point at it.
struct SessionHarness {
  let running: RunningPlayground
  /// The playground's configuration (its data folder, keys and accounts), to start it again on the same port.
  let configuration: PlaygroundConfiguration
  let data: URL
  let settings: AppSettings
  let group: String
  /// Where the sessions rest: memory (shared by every session of this harness, as apps share the keyring) or the
  /// keyring.
  let store: any SessionStore
  /// The paths of the requests the playground answered, in order.
  let requests: RequestRecorder

  var base: URL { running.baseURL }

  /// Starts a playground of `flavor` (adjusted by `adjust`) and settings for it with a fresh keychain group;
  /// `redirect` and `bearer` change the settings; `keyring` keeps the sessions in the desktop keyring instead of
  /// memory.
  static func start(
    isolation: isolated (any Actor)? = #isolation, flavor: Flavor = .b2c,
    redirect: String = "urn:ietf:wg:oauth:2.0:oob", bearer: String? = nil,
    keyring: Bool = false, _ adjust: (inout PlaygroundConfiguration) -> Void = { _ in }
  ) async throws -> SessionHarness {
    let data = try TestDesktop.temporaryFolder("session")
    var configuration = PlaygroundConfiguration(dataDirectory: data)
    configuration.port = 0
    configuration.passwordHashCost = 4
    configuration.flavor = flavor
    adjust(&configuration)
    // Stopping a test server logs harmless shutdown errors: nothing is printed; the requests are recorded.
    let requests = RequestRecorder()
    let logger = Logger(label: "b2c-playground-test") { _ in requests }
    let running = try await Playground(configuration: configuration, logger: logger).start()
    let group = "test.sso.\(UUID().uuidString)"
    let plist = Self.plist(
      base: running.baseURL, flavor: flavor, tenantID: configuration.tenantID, group: group, redirect: redirect,
      bearer: bearer)
    let settings = try AppSettings.parse(Data(plist.utf8), file: "test")
    let store: any SessionStore = keyring ? KeyringSessionStore() : MemorySessionStore()
    return SessionHarness(
      running: running, configuration: configuration, data: data, settings: settings, group: group, store: store,
      requests: requests)
  }

  /// Runs `body` with a harness started as `start` does, then stops it (also when `body` throws) and waits until it
  /// is gone.
  static func with(
    isolation: isolated (any Actor)? = #isolation, flavor: Flavor = .b2c,
    redirect: String = "urn:ietf:wg:oauth:2.0:oob", bearer: String? = nil,
    keyring: Bool = false, _ adjust: (inout PlaygroundConfiguration) -> Void = { _ in },
    _ body: (SessionHarness) async throws -> Void
  ) async throws {
    let harness = try await start(flavor: flavor, redirect: redirect, bearer: bearer, keyring: keyring, adjust)
    try await withTeardown({ await harness.stop() }) { try await body(harness) }
  }

  /// Settings for a playground of `flavor` at `base`: B2C's newer shape with its policies, or an `authority` (the
  /// tenant id after the host for External ID, the issuer itself for OpenID Connect). `bearer` nil: the default.
  static func plist(
    base: URL, flavor: Flavor = .b2c, tenantID: String = "", group: String, redirect: String,
    bearer: String? = "access_token"
  ) -> String {
    var file = SettingsFile(["clientID": PlaygroundConfiguration.appClientID])
    switch flavor {
    case .b2c:
      file = file.with("authorityHost", base.absoluteString).with("tenant", "b2ctasks.onmicrosoft.com")
        .with("signInPolicy", "B2C_1_SignUpOrSignIn").with("passwordResetPolicy", "B2C_1_PasswordReset")
        .with("editProfilePolicy", "B2C_1_EditProfile")
    case .externalID: file = file.with("authority", "\(base.absoluteString)/\(tenantID)")
    case .openID: file = file.with("authority", base.absoluteString)
    }
    return file.with("redirectURI", redirect).with("keychain", group).with("taskAPI", base.absoluteString)
      .with("bearerToken", bearer).xml
  }

  /// A new session (as a new app or a new run would make) over the harness's store, sending through `transport`.
  func session(refreshMargin: TimeInterval = 300, transport: Transport = .urlSession) -> Session {
    Session(settings: settings, store: store, http: transport.client(), refreshMargin: refreshMargin)
  }

  /// Signs in through the pages as `email` and hands the redirect to `session`.
  func signIn(
    _ session: Session, _ email: String = "ann@example.com", _ password: String = "Tasks-Demo-1",
    walker: PageWalker = PageWalker(), keepSignedIn: Bool = true
  ) async throws -> Account {
    let request = try await session.startSignIn(keepSignedIn: keepSignedIn)
    let location = try await walker.signIn(request.url, email: email, password: password)
    guard case .signedIn(let account) = await session.handleRedirect(location) else {
      Issue.record("sign-in did not finish")
      throw CancellationError()
    }
    return account
  }

  /// Starts the playground again on its port, from its data folder (the same keys, accounts and tasks), after the
  /// test stopped `running` (the task service "came back"); the caller stops the answer.
  func startAgain() async throws -> RunningPlayground {
    var configuration = configuration
    configuration.port = running.port
    var logger = Logger(label: "b2c-playground-test")
    logger.logLevel = .critical
    return try await Playground(configuration: configuration, logger: logger).start()
  }

  func stop() async {
    try? await store.removeGroup(of: SessionKey(settings))
    await running.stop()
    try? FileManager.default.removeItem(at: data)
  }
}

/// A log handler that prints nothing and keeps the path of every request the playground logs (its `RequestLog`).
final class RequestRecorder: LogHandler, @unchecked Sendable {
  private let paths = Mutex<[String]>([])
  // One handler for every logger the server derives (the requests' too, concurrently): it keeps no metadata of its
  // own, only what each request's line gives.
  var metadata: Logger.Metadata {
    get { [:] }
    set {}
  }
  var logLevel: Logger.Level {
    get { .info }
    set {}
  }

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { nil }
    set {}
  }

  func log(event: LogEvent) {
    guard event.message.description == "request", let path = event.metadata?["path"] else { return }
    paths.withLock { $0.append(path.description) }
  }

  /// The requests answered so far, by path (and query, its secrets redacted).
  var answered: [String] { paths.withLock { $0 } }

  /// How many reads of the change feed were answered so far.
  var feedReads: Int { answered.filter { $0.hasPrefix("/api/v2/changes") }.count }
}

// Tests that no write of the shared session undoes another's: while this process refreshes (its refresh request held
// at a proxy), b2c-tasks-cli signs out or signs in as someone else; the lock guarding every write, its safety checks
// and its bound; and the compare-and-swap that keeps a session deleted behind the lock's back deleted.

import Foundation
import TasksCore
import TasksCoreTesting
import TasksKeyring
import TasksTestSupport
import TasksURLSession
import Testing

@Suite(
  "Session: writes of the shared session", .serialized,
  .enabled(if: TestDesktop.hasSessionBus || TestDesktop.isRequired))
struct SessionWriteTests {
  /// A playground whose access tokens need a refresh at once, a closed token gate in front of it, and settings
  /// (the sample's authURL/tokenURL shape, the token URL through the gate) in a file the CLI reads too.
  private struct Scene {
    let harness: SessionHarness
    let gate: TokenGate
    let settings: AppSettings
    let file: URL

    static func start() async throws -> Scene {
      let harness = try await SessionHarness.start(keyring: true) { $0.lifetimes.accessToken = 120 }
      let gate = try await TokenGate.start(upstream: harness.base)
      let plist = harness.settingsFile(through: gate)
      let file = harness.data.appending(path: "gated.plist")
      try plist.data.write(to: file)
      let settings = try AppSettings.parse(plist.data, file: file.path)
      return Scene(harness: harness, gate: gate, settings: settings, file: file)
    }

    func session() -> Session { Session(settings: settings, store: KeyringSessionStore(), http: .tests) }

    /// Starts the CLI with `arguments` on the same settings; its browser signs in as `email`.
    func cli(_ arguments: [String], email: String = "bob@example.com", password: String = "Tasks-Demo-2") throws
      -> ChildProcess
    {
      try ChildProcess(
        CLIRunner.program, Array(arguments.prefix(1)) + ["--settings", file.path] + arguments.dropFirst(),
        environment: [
          "BROWSER": CLIRunner.scriptedBrowser, "B2C_TEST_EMAIL": email, "B2C_TEST_PASSWORD": password,
        ])
    }

    /// Signs `session` in as Ann, then starts its refresh and answers once the refresh request is held at the gate.
    func refreshHeld(_ session: Session) async throws -> Task<String, any Error> {
      let request = try await session.startSignIn()
      let location = try await PageWalker().signIn(request.url, email: "ann@example.com", password: "Tasks-Demo-1")
      guard case .signedIn = await session.handleRedirect(location) else { throw CancellationError() }
      let refresh = Task { try await session.bearer() }
      var held = gate.heldRequests.makeAsyncIterator()
      _ = await held.next()
      return refresh
    }

    /// Waits until the CLI either finished or says it waits for the lock.
    func waitUntilBlockedOrDone(_ process: ChildProcess) async -> Bool {
      await eventually(timeout: .seconds(90)) {
        !process.isRunning || process.standardError.contains("Waiting for another B2C Tasks app")
      }
    }

    var stored: TokenSet? { get async throws { try await KeyringSessionStore().load(SessionKey(settings)) } }

    func stop() async {
      await gate.stop()
      await harness.stop()
    }
  }

  @Test("another process signs out while this one refreshes: the sign-out stands, nothing signs the group in again")
  func signOutDuringRefresh() async throws {
    let scene = try await Scene.start()
    try await withTeardown({ await scene.stop() }) {
      let session = scene.session()
      let refresh = try await scene.refreshHeld(session)
      let signOut = try scene.cli(["sign-out", "--no-browser"])
      #expect(await scene.waitUntilBlockedOrDone(signOut))
      await scene.gate.open()
      _ = try await refresh.value
      #expect(await signOut.waitForExit(timeout: .seconds(90)) == 0, "\(signOut.standardError)")
      #expect(try await scene.stored == nil, "the refresh did not store the session again after the sign-out")
      #expect(try await scene.session().restore() == nil)
    }
  }

  @Test("another process signs in as someone else while this one refreshes: the new sign-in stays")
  func signInDuringRefresh() async throws {
    let scene = try await Scene.start()
    try await withTeardown({ await scene.stop() }) {
      let session = scene.session()
      let refresh = try await scene.refreshHeld(session)
      let signIn = try scene.cli(["sign-in"], email: "bob@example.com", password: "Tasks-Demo-2")
      #expect(await scene.waitUntilBlockedOrDone(signIn))
      await scene.gate.open()
      _ = try await refresh.value
      #expect(await signIn.waitForExit(timeout: .seconds(90)) == 0, "\(signIn.standardError)")
      #expect(try await scene.stored?.account.email == "bob@example.com", "Bob's session was not deleted")
      #expect(try await scene.session().restore()?.email == "bob@example.com")
    }
  }

  @Test("a session deleted behind the lock's back (another keyring client) during a refresh stays deleted")
  func deletedDuringRefresh() async throws {
    let scene = try await Scene.start()
    try await withTeardown({ await scene.stop() }) {
      let session = scene.session()
      let refresh = try await scene.refreshHeld(session)
      try await SecretStore().clear(["keychain-group": scene.harness.group])  // as Seahorse would, without the lock
      await scene.gate.open()
      await #expect(throws: SessionError.signedOutElsewhere) { _ = try await refresh.value }
      #expect(try await scene.stored == nil)
      #expect(await session.account == nil, "this app is signed out too")
    }
  }
}

@Suite("Refresh lock: safety and bound")
struct RefreshLockTests {
  private func key() throws -> SessionKey {
    let plist = SessionHarness.plist(
      base: URL(string: "http://127.0.0.1:1")!, group: "lock.\(UUID().uuidString)",
      redirect: "urn:ietf:wg:oauth:2.0:oob")
    return SessionKey(try AppSettings.parse(Data(plist.utf8), file: "test"))
  }

  /// Whether `body` ran under a lock of `runtime` (an XDG_RUNTIME_DIR), or the failure.
  private func attempt(_ lock: RefreshLock) async -> RefreshLock.Failure? {
    do {
      try await lock.withLock { () async in }
      return nil
    } catch {
      return error as? RefreshLock.Failure ?? .timedOut
    }
  }

  @Test("a folder open to others, another user's folder and a planted link are refused; nothing is written")
  func unsafePlaces() async throws {
    let runtime = try TestDesktop.temporaryFolder("lock-runtime")
    defer { try? FileManager.default.removeItem(at: runtime) }
    let key = try key()
    let lock = RefreshLock(key, environment: ["XDG_RUNTIME_DIR": runtime.path])
    #expect(await attempt(lock) == nil, "a fresh private folder works")
    let folder = runtime.appending(path: "b2c-tasks").path
    #expect(chmod(folder, 0o777) == 0)
    #expect(await attempt(lock) == .unsafeFolder(folder))
    #expect(chmod(folder, 0o700) == 0)
    if geteuid() == 0 {  // only root can give a folder away
      #expect(chown(folder, 65534, 65534) == 0)
      #expect(await attempt(lock) == .unsafeFolder(folder))
      #expect(chown(folder, 0, 0) == 0)
    }
    unlink(lock.path)
    let target = runtime.appending(path: "elsewhere").path
    #expect(symlink(target, lock.path) == 0)
    #expect(await attempt(lock) == .unsafeFile(lock.path))
    #expect(!FileManager.default.fileExists(atPath: target), "the link was not followed")
    // A session refused the lock does not refresh without it: it says why.
    let settings = try AppSettings.parse(
      Data(
        SessionHarness.plist(
          base: URL(string: "http://127.0.0.1:1")!, group: key.keychainGroup, redirect: "urn:ietf:wg:oauth:2.0:oob"
        ).utf8), file: "test")
    let store = MemorySessionStore()
    let session = Session(
      settings: settings, store: store, http: .tests, environment: ["XDG_RUNTIME_DIR": runtime.path])
    await #expect(throws: SessionError.lock(.unsafeFile(lock.path))) { _ = try await session.signOut() }
  }

  @Test("L10: every session of a keychain group writes under one lock, the one a sign-out of the group takes")
  func oneLockPerGroup() throws {
    func settings(_ client: String, _ authority: String, group: String = "com.example.sso") throws -> SessionKey {
      SessionKey(
        try AppSettings.parse(
          SettingsFile([
            "clientID": client, "authority": authority, "redirectURI": "urn:ietf:wg:oauth:2.0:oob", "keychain": group,
            "taskAPI": "https://tasks.example.com",
          ]).data, file: "test"))
    }
    let environment = ["XDG_RUNTIME_DIR": "/run/user/1000"]
    let one = RefreshLock(try settings("app-one", "https://one.example.com"), environment: environment)
    let other = RefreshLock(try settings("app-two", "https://two.example.com"), environment: environment)
    let elsewhere = RefreshLock(
      try settings("app-one", "https://one.example.com", group: "org.example.other"), environment: environment)
    #expect(one.path == other.path, "two apps of one group")
    #expect(one.path != elsewhere.path, "another group")
  }

  @Test("without XDG_RUNTIME_DIR the lock lives in a private folder of /tmp, checked the same way")
  func temporaryFolderFallback() async throws {
    let lock = RefreshLock(try key(), environment: [:])
    #expect(lock.path.hasPrefix("/tmp/b2c-tasks-\(geteuid())/b2c-tasks/"))
    #expect(await attempt(lock) == nil)
    var status = stat()
    #expect(lstat("/tmp/b2c-tasks-\(geteuid())", &status) == 0 && status.st_mode & 0o777 == 0o700)
  }

  @Test("a lock held by someone else is waited for within a bound, then refused (never a hang)")
  func bounded() async throws {
    let runtime = try TestDesktop.temporaryFolder("lock-bound")
    defer { try? FileManager.default.removeItem(at: runtime) }
    let lock = RefreshLock(try key(), environment: ["XDG_RUNTIME_DIR": runtime.path], bound: .seconds(2))
    #expect(await attempt(lock) == nil)
    let holder = open(lock.path, O_RDWR | O_CLOEXEC)
    #expect(holder >= 0 && flock(holder, LOCK_EX) == 0)  // another open file: held as another process would
    let told = Told()
    var ran = false
    await #expect(throws: RefreshLock.Failure.timedOut) {
      try await lock.withLock(onWait: { told.set() }) { ran = true }
    }
    #expect(!ran && told.value, "the body did not run; the wait was announced")
    close(holder)
    #expect(await attempt(lock) == nil, "free again once released")
  }
}

/// A flag set from a `@Sendable` closure.
private final class Told: @unchecked Sendable {
  private let lock = NSLock()
  private var flag = false
  func set() { lock.withLock { flag = true } }
  var value: Bool { lock.withLock { flag } }
}

// Tests of the session against the real playground: sign-in as the browser, SSO, password reset, cancel, forged
// redirects, refresh, sign-out and switching users. The flows run over the in-memory store (no desktop needed); one
// suite signs in over the real keyring.

import Foundation
import TasksCore
import TasksKeyring
import TasksTestSupport
import Testing

@Suite("Session: the keyring", .enabled(if: TestDesktop.hasSessionBus || TestDesktop.isRequired))
struct SessionKeyringTests {
  @Test("sign in through the pages; the tokens rest in the keyring; a second app finds them (SSO)")
  func signInAndSSO() async throws {
    try await SessionHarness.with(keyring: true) { harness in
      let session = harness.session()
      let account = try await harness.signIn(session)
      #expect(account.displayName == "Ann Example" && account.email == "ann@example.com")
      #expect(await session.state == .signedIn(account))
      let stored = try #require(try await KeyringSessionStore().load(SessionKey(harness.settings)))
      #expect(stored.account == account && stored.refreshToken != nil && stored.policy == "B2C_1_SignUpOrSignIn")
      try await TaskAPIClient(session: session).add("from the first app")

      let otherApp = harness.session()
      #expect(try await otherApp.restore() == account, "no web view: the keyring session is enough")
      let tasks = try await TaskAPIClient(session: otherApp).list()
      #expect(tasks.map(\.text) == ["from the first app"])
    }
  }

  @Test("'Keep me signed in' unticked: the session collection, through refreshes and SSO; ticked: login collection")
  func keepSignedInChoosesTheCollection() async throws {
    try await SessionHarness.with(keyring: true) { harness in
      let group = harness.settings.keychainGroup
      let session = harness.session()
      let account = try await harness.signIn(session, keepSignedIn: false)
      #expect(try await Self.collections(holding: group) == ["session"])
      // A refresh (here forced) rotates the tokens where they are; another app finds them there.
      _ = try await session.bearer(forceRefresh: true)
      #expect(try await Self.collections(holding: group) == ["session"])
      let otherApp = harness.session()
      #expect(try await otherApp.restore() == account)
      _ = try await otherApp.bearer(forceRefresh: true)
      #expect(try await Self.collections(holding: group) == ["session"])

      // Signing in again with the box ticked moves the session: one item, in the login collection.
      _ = try await harness.signIn(session, keepSignedIn: true)
      #expect(try await Self.collections(holding: group) == ["login"])
      _ = try await session.bearer(forceRefresh: true)
      #expect(try await Self.collections(holding: group) == ["login"])
      _ = try await harness.signIn(session, keepSignedIn: false)
      #expect(try await Self.collections(holding: group) == ["session"])
    }
  }

  /// The keyring collections (by name) of the items of keychain group `group`, one entry per item, as the Secret
  /// Service itself lists them to another client than the app's (`gdbus`, SearchItems).
  private static func collections(holding group: String) async throws -> [String] {
    let run = try await ChildProcess.run(
      URL(filePath: "/usr/bin/gdbus"),
      [
        "call", "--session", "--dest", "org.freedesktop.secrets", "--object-path", "/org/freedesktop/secrets",
        "--method", "org.freedesktop.Secret.Service.SearchItems", "{\"keychain-group\": \"\(group)\"}",
      ])
    #expect(run.status == 0, "gdbus SearchItems: \(run.error)")
    // ([objectpath '/org/freedesktop/secrets/collection/login/1', …], @ao [])
    let prefix = "/org/freedesktop/secrets/collection/"
    return run.output.split(separator: "'").compactMap { part in
      guard part.hasPrefix(prefix) else { return nil }
      return part.dropFirst(prefix.count).split(separator: "/").first.map(String.init)
    }.sorted()
  }
}

@Suite("Session: sign-in flows")
struct SessionFlowTests {
  @Test(
    "every redirect form ends the sign-in",
    arguments: ["urn:ietf:wg:oauth:2.0:oob", "http://127.0.0.1:48123/", "io.github.b2ctasks.b2ctasks://oauth/redirect"])
  func redirectForms(redirect: String) async throws {
    try await SessionHarness.with(redirect: redirect) { harness in
      let session = harness.session()
      let request = try await session.startSignIn()
      let location = try await PageWalker().signIn(request.url, email: "bob@example.com", password: "Tasks-Demo-2")
      // Scheme case must not matter (WebKit lower-cases custom schemes; a registration may not).
      let scheme = "io.github.b2ctasks.b2ctasks"
      let seen = location.hasPrefix(scheme) ? scheme.uppercased() + location.dropFirst(scheme.count) : location
      guard case .signedIn(let account) = await session.handleRedirect(seen) else {
        Issue.record("not signed in with \(redirect)")
        return
      }
      #expect(account.email == "bob@example.com")
    }
  }

  @Test("the same redirect delivered twice at once is redeemed once; the sign-in stands")
  func redirectDeliveredTwice() async throws {
    try await SessionHarness.with { harness in
      let session = harness.session()
      let request = try await session.startSignIn()
      let location = try await PageWalker().signIn(request.url, email: "ann@example.com", password: "Tasks-Demo-1")
      async let first = session.handleRedirect(location)
      async let second = session.handleRedirect(location)
      let steps = await [first, second]
      #expect(steps.filter { if case .signedIn = $0 { return true } else { return false } }.count == 1, "\(steps)")
      #expect(steps.contains(.notOurs), "the second delivery finds the state consumed: \(steps)")
      guard case .signedIn = await session.state else {
        Issue.record("the second delivery undid the sign-in: \(await session.state)")
        return
      }
    }
  }

  @Test("forgot password: the reset policy runs in the same flow, then the sign-in policy again")
  func forgotPassword() async throws {
    let mailbox = Mailbox()
    try await SessionHarness.with({ $0.mailbox = mailbox.deliver }) { harness in
      let session = harness.session()
      let walker = PageWalker()
      let request = try await session.startSignIn()
      let page = try await walker.open(request.url)
      let forgot = try await walker.follow("forgotPassword", on: page, at: request.url)
      guard case .load(let resetURL) = await session.handleRedirect(try #require(forgot.location)) else {
        Issue.record("no reset step")
        return
      }
      #expect(resetURL.absoluteString.contains("B2C_1_PasswordReset"))
      let resetPage = try await walker.open(resetURL)
      let codePage = try await walker.submit(resetPage, at: resetURL, [("email", "ann@example.com")])
      let code = try #require(mailbox.latestCode(for: "ann@example.com"), "the code was mailed")
      let reset = try await walker.submit(
        codePage, at: resetURL,
        [("verificationCode", code), ("newPassword", "Brand-n3w-pass"), ("reenterPassword", "Brand-n3w-pass")])
      guard case .load(let signInURL) = await session.handleRedirect(try #require(reset.location)) else {
        Issue.record("no sign-in step after the reset")
        return
      }
      #expect(signInURL.absoluteString.contains("B2C_1_SignUpOrSignIn"))
      let again = try await walker.signIn(signInURL, email: "ann@example.com", password: "Brand-n3w-pass")
      guard case .signedIn(let account) = await session.handleRedirect(again) else {
        Issue.record("not signed in after the reset")
        return
      }
      #expect(account.email == "ann@example.com")
    }
  }

  @Test("Cancel ends the flow quietly and leaves the session as it was")
  func cancel() async throws {
    try await SessionHarness.with { harness in
      let session = harness.session()
      let walker = PageWalker()
      let request = try await session.startSignIn()
      #expect(await session.state == .signingIn)
      let cancelled = try await walker.follow("cancel", on: try await walker.open(request.url), at: request.url)
      #expect(await session.handleRedirect(try #require(cancelled.location)) == .cancelled)
      #expect(await session.state == .signedOut)
      #expect(await session.currentRequest == nil)
    }
  }

  @Test("a redirect carrying another sign-in's state is refused, and URLs that are not ours pass")
  func forgedRedirects() async throws {
    try await SessionHarness.with { harness in
      let session = harness.session()
      let first = try await session.startSignIn()
      let location = try await PageWalker().signIn(first.url, email: "ann@example.com", password: "Tasks-Demo-1")
      _ = try await session.startSignIn()  // a newer sign-in replaces the first
      #expect(
        await session.handleRedirect(harness.base.appending(path: "b2ctasks.onmicrosoft.com").absoluteString)
          == .notOurs)
      #expect(await session.handleRedirect(location) == .failed(.authorization(.stateMismatch)))
      #expect(await session.state == .signedOut)
    }
  }

  @Test("sign-out clears the keyring for the group; signing in as another user shows only their tasks")
  func switchUsers() async throws {
    try await SessionHarness.with { harness in
      let session = harness.session()
      _ = try await harness.signIn(session)
      try await TaskAPIClient(session: session).add("ann's task")
      let logout = try #require(try await session.signOut())
      #expect(
        logout.url.absoluteString.contains("/oauth2/v2.0/logout") && logout.url.absoluteString.contains("client_id="))
      #expect(!logout.url.absoluteString.contains("id_token_hint") && !logout.inBrowser, "signed in in the web view")
      #expect(try await harness.store.load(SessionKey(harness.settings)) == nil)
      #expect(try await harness.session().restore() == nil, "other apps of the group are signed out too")
      let bob = try await harness.signIn(session, "bob@example.com", "Tasks-Demo-2")
      #expect(bob.email == "bob@example.com")
      #expect(try await TaskAPIClient(session: session).list().isEmpty)
    }
  }

  @Test("another app signs out (the secret is deleted) while this one runs: its next refresh ends, nothing comes back")
  func signedOutElsewhere() async throws {
    try await SessionHarness.with { harness in
      let session = harness.session()
      let account = try await harness.signIn(session)
      _ = try await harness.session().signOut()  // the other app
      await #expect(throws: SessionError.signedOutElsewhere) { try await session.bearer(forceRefresh: true) }
      // L10: signed out, as the other app is (not "sign in again as Ann": the window forgets what a sign-out forgets).
      #expect(await session.state == .signedOut)
      #expect(account.email == "ann@example.com")
      #expect(try await harness.store.load(SessionKey(harness.settings)) == nil, "the sign-out stands")
    }
  }

  @Test(
    "another app signs in as Bob: a refresh that then fails, or a sign-in given up after a restore found him, leaves the session naming Bob, whose tokens it holds (not Ann)"
  )
  func stateFollowsTokens() async throws {
    try await SessionHarness.with { harness in
      let session = harness.session(refreshMargin: 1_000_000)  // every bearer is refreshed
      let ann = try await harness.signIn(session)
      let other = harness.session()
      let bob = try await harness.signIn(other, "bob@example.com", "Tasks-Demo-2")
      // The provider cannot be reached while Bob's tokens are refreshed here.
      await harness.running.stop()
      await #expect(throws: SessionError.self) { try await session.bearer(for: ann.objectID) }
      let afterFailure = await session.state
      #expect(afterFailure == .signedIn(bob), "\(afterFailure)")
      await #expect(throws: SessionError.accountChanged(bob)) { try await session.bearer(for: ann.objectID) }

      // Ann again in the other app; a sign-in started here, a restore meanwhile (the broker), then given up.
      let again = try await harness.startAgain()
      try await withTeardown({ await again.stop() }) { () throws in
        _ = try await harness.signIn(other, "ann@example.com")
        _ = try await session.startSignIn()
        #expect(try await session.restore() == ann)
        await session.cancelFlow()
        let afterCancel = await session.state
        #expect(afterCancel == .signedIn(ann), "\(afterCancel)")
      }
    }
  }

  /// A keyring whose reads, once held, answer what it held when they began only when the test lets them go (a read
  /// answered late, after a write of this app's); its writes, once held, are made only when the test lets them go
  /// (a write under way).
  private actor HeldReads: SessionStore {
    enum Call { case read, save }
    let inner: any SessionStore
    private var closed: Set<Call> = []
    private var held: [Call: [CheckedContinuation<Void, Never>]] = [:]
    private var arrived: [Call: Int] = [:]
    init(_ inner: any SessionStore) { self.inner = inner }
    /// Holds the calls of `call`'s kind that come from now on.
    func hold(_ call: Call = .read) { closed.insert(call) }
    /// Lets the held calls of `call`'s kind go, and the next ones through.
    func release(_ call: Call = .read) {
      closed.remove(call)
      held.removeValue(forKey: call)?.forEach { $0.resume() }
    }
    /// How many calls of `call`'s kind were held.
    func waiting(_ call: Call = .read) -> Int { arrived[call] ?? 0 }
    private func pass(_ call: Call) async {
      guard closed.contains(call) else { return }
      arrived[call, default: 0] += 1
      await withCheckedContinuation { held[call, default: []].append($0) }
    }
    func load(_ key: SessionKey) async throws(KeyringError) -> TokenSet? {
      let read = try await inner.load(key)
      await pass(.read)
      return read
    }
    func save(_ tokens: TokenSet, under key: SessionKey) async throws(KeyringError) {
      await pass(.save)
      try await inner.save(tokens, under: key)
    }
    func removeGroup(of key: SessionKey) async throws(KeyringError) { try await inner.removeGroup(of: key) }

    /// A session over `harness`'s keyring held through one of these, signed in as Ann.
    static func signedIn(_ harness: SessionHarness) async throws -> (HeldReads, Session, Account) {
      let keyring = HeldReads(harness.store)
      let session = Session(settings: harness.settings, store: keyring, http: .tests)
      return (keyring, session, try await harness.signIn(session))
    }
  }

  @Test(
    "a restore whose keyring read began before this app's own sign-in as Bob and is answered after it leaves the session Bob's (his tokens, his state, his sign-in), not Ann's as read; the same for a sign-out"
  )
  func lateReadAfterOwnWrite() async throws {
    try await SessionHarness.with { harness in
      let (keyring, session, ann) = try await HeldReads.signedIn(harness)
      await keyring.hold()
      let restore = Task { try await session.restore() }
      #expect(await eventually { await keyring.waiting() == 1 }, "the restore read Ann's set")
      let bob = try await harness.signIn(session, "bob@example.com", "Tasks-Demo-2")
      await keyring.release()
      let restored = try await restore.value
      #expect(restored == bob, "answered \(String(describing: restored)), not Ann (\(ann.email ?? ""))")
      #expect(await session.state == .signedIn(bob))
      #expect(await session.accountSignedInElsewhere == nil, "still this app's own sign-in")
      #expect(try await session.bearer(for: bob.objectID).isEmpty == false, "Bob's tokens, not Ann's")

      await keyring.hold()
      let again = Task { try await session.restore() }
      #expect(await eventually { await keyring.waiting() == 2 }, "the restore read Bob's set")
      _ = try await session.signOut()
      await keyring.release()
      #expect(try await again.value == nil)
      #expect(await session.state == .signedOut, "the sign-out stands")
    }
  }

  @Test(
    "a restore whose keyring read began while this app's refresh was writing, and is answered after it, leaves the refreshed tokens: the next refresh spends them"
  )
  func lateReadAcrossRefresh() async throws {
    try await SessionHarness.with { harness in
      let (keyring, session, _) = try await HeldReads.signedIn(harness)
      let key = SessionKey(harness.settings)
      let signedIn = try #require(try await harness.store.load(key)?.refreshToken)
      // The refresh has read the keyring and is writing the renewed set when a restore reads the one it replaces.
      await keyring.hold(.save)
      let refresh = Task { try await session.bearer(forceRefresh: true) }
      let late: Task<Account?, any Error>
      do {
        try #require(await eventually { await keyring.waiting(.save) == 1 }, "the refresh is writing")
        await keyring.hold()
        late = Task { try await session.restore() }
        try #require(await eventually { await keyring.waiting() == 1 }, "the restore read the set being replaced")
      } catch {
        // Nothing is left held: the refresh and the restore end, whatever they answer.
        await keyring.release(.save)
        await keyring.release()
        throw error
      }
      await keyring.release(.save)
      _ = try await refresh.value
      let renewed = try #require(try await harness.store.load(key)?.refreshToken)
      #expect(renewed != signedIn, "the refresh renewed the refresh token")
      await keyring.release()
      _ = try await late.value
      // Had the restore put the older set back, the next refresh would find the keyring's set newer than its own and
      // take it instead of renewing it.
      _ = try await session.bearer(forceRefresh: true)
      let next = try #require(try await harness.store.load(key)?.refreshToken)
      #expect(next != renewed && next != signedIn, "the session held the renewed set, and renewed it")
    }
  }

  @Test("edit profile updates the display name of the same account")
  func editProfile() async throws {
    try await SessionHarness.with { harness in
      let session = harness.session()
      let walker = PageWalker()
      let before = try await harness.signIn(session, walker: walker)
      let request = try await session.startEditProfile()
      let page = try await walker.open(request.url)
      let done = try await walker.submit(page, at: request.url, [("displayName", "Ann Edited")])
      let location = try #require(done.location, "the profile form answered \(done.status): \(done.text.prefix(600))")
      guard case .profileUpdated(let after) = await session.handleRedirect(location) else {
        Issue.record("profile not updated")
        return
      }
      #expect(after.displayName == "Ann Edited" && after.objectID == before.objectID)
      #expect(try await harness.session().restore()?.displayName == "Ann Edited")
    }
  }
}

@Suite("Session: tokens and refresh")
struct SessionRefreshTests {
  @Test("tokens are refreshed ahead of expiry; each refresh rotates the refresh token in the keyring")
  func refreshAhead() async throws {
    try await SessionHarness.with({ $0.lifetimes.accessToken = 120 }) { harness in
      let session = harness.session(refreshMargin: 300)  // 120 s < 5 min: every use refreshes
      _ = try await harness.signIn(session)
      let key = SessionKey(harness.settings)
      let first = try #require(try await harness.store.load(key))
      let bearer = try await session.bearer()
      let second = try #require(try await harness.store.load(key))
      #expect(bearer != first.accessToken)
      #expect(second.refreshToken != first.refreshToken)
      #expect(try await TaskAPIClient(session: session).list().isEmpty)
      let relaxed = harness.session(refreshMargin: 60)
      _ = try await relaxed.restore()
      let kept = try await relaxed.bearer()
      #expect(try #require(try await harness.store.load(key)).accessToken == kept, "fresh enough: no refresh")
    }
  }

  @Test("a 401 from the API refreshes once and retries")
  func refreshOn401() async throws {
    try await SessionHarness.with { harness in
      let session = harness.session()
      _ = try await harness.signIn(session)
      let key = SessionKey(harness.settings)
      var stored = try #require(try await harness.store.load(key))
      stored.accessToken = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl"  // refused by the API
      try await harness.store.save(stored, under: key)
      let other = harness.session()
      _ = try await other.restore()
      #expect(try await TaskAPIClient(session: other).list().isEmpty)
      #expect(try #require(try await harness.store.load(key)).accessToken != stored.accessToken)
    }
  }

  @Test("the sample's way: the id_token as bearer")
  func idTokenBearer() async throws {
    try await SessionHarness.with(bearer: "id_token") { harness in
      let session = harness.session()
      _ = try await harness.signIn(session)
      let stored = try #require(try await harness.store.load(SessionKey(harness.settings)))
      #expect(try await session.bearer() == stored.idToken)
      try await TaskAPIClient(session: session).add("sent with the id_token")
      #expect(try await TaskAPIClient(session: session).list().count == 1)
    }
  }

  @Test(
    "a revoked refresh token ends the session: needs sign-in, and the API client says unauthorized; a sign-in page open meanwhile, then closed, leaves it so"
  )
  func revoked() async throws {
    let mailbox = Mailbox()
    let harness = try await SessionHarness.start {
      $0.lifetimes.accessToken = 60
      $0.mailbox = mailbox.deliver
    }
    try await withTeardown({ await harness.stop() }) {
      let session = harness.session()
      let account = try await harness.signIn(session)
      _ = try await session.startSignIn()  // Switch Account's page, open meanwhile
      // Another device resets the password: B2C revokes the refresh tokens.
      let walker = PageWalker()
      let reset = try await harness.session().startSignIn()
      var resetURL = URLComponents(url: reset.url, resolvingAgainstBaseURL: false)!
      resetURL.path = resetURL.path.replacingOccurrences(of: "B2C_1_SignUpOrSignIn", with: "B2C_1_PasswordReset")
      let page = try await walker.open(resetURL.url!)
      let codePage = try await walker.submit(page, at: resetURL.url!, [("email", "ann@example.com")])
      let code = try #require(mailbox.latestCode(for: "ann@example.com"))
      _ = try await walker.submit(
        codePage, at: resetURL.url!,
        [("verificationCode", code), ("newPassword", "Other-pass-1"), ("reenterPassword", "Other-pass-1")])
      await #expect(throws: TaskAPIError.self) { try await TaskAPIClient(session: session).list() }
      #expect(await session.state == .needsSignIn(account))
      await session.cancelFlow()  // the page is closed: the session's end stands (its outbox kept for the sign-in)
      #expect(await session.state == .needsSignIn(account))
    }
  }

  @Test("no one signed in: the API client says so without calling the API")
  func notSignedIn() async throws {
    try await SessionHarness.with { harness in
      do {
        _ = try await TaskAPIClient(session: harness.session()).list()
        Issue.record("expected an error")
      } catch let error as TaskAPIError {
        #expect(error == .unauthorized(.notSignedIn))
      }
    }
  }
}

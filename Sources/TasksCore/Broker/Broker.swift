// Broker: what the D-Bus broker answers, without D-Bus: the accounts of the app's session, tokens for apps the user
// allowed (asking once per app and account), sign-out. Actor; the app puts it on the bus.

import FoundationEssentials

/// An account as the broker lists it.
public struct BrokerAccount: Equatable, Sendable {
  /// The broker's id of the account: stable while the same user is signed in with the same settings.
  public var id: String
  /// `b2c`, `external-id` or `oidc`.
  public var provider: String
  /// `https://host[:port]` of the provider.
  public var authority: String
  /// The name in the id_token.
  public var displayName: String
  /// The e-mail in the id_token, if any.
  public var email: String?
  /// The keychain group that shares the sign-in.
  public var keychainGroup: String

  /// How the consent dialog names the account: "Ann Example (ann@example.com)".
  public var label: String {
    guard let email, !email.isEmpty, email != displayName else { return displayName }
    return "\(displayName) (\(email))"
  }
}

/// An app asking, as the user will see it.
public struct BrokerCaller: Equatable, Sendable {
  /// Who it is.
  public var identity: CallerIdentity
  /// Its name (its desktop file's, else `identity.fallbackName`).
  public var name: String

  public init(identity: CallerIdentity, name: String) {
    self.identity = identity
    self.name = name
  }
}

/// What a caller is told instead of an answer; each is a named D-Bus error.
public enum BrokerError: Error, Equatable, Sendable {
  /// The user denied this app the account, or withdrew it.
  case denied(app: String)
  /// Nobody is signed in (as that account).
  case notSignedIn
  /// The provider could not be reached.
  case network(String)
  /// The user closed the dialog or the sign-in without an answer.
  case cancelled
  /// The user closed this app's question a moment ago: it is not asked again before `Broker.askAgainAfter`.
  case notAskedAgainYet(app: String)
  /// The user closed the sign-in this app asked for a moment ago: it is not shown again before
  /// `Broker.askAgainAfter`.
  case signInNotShownAgainYet(app: String)
  /// The arguments make no sense (an unknown token kind, a scope the app was never given).
  case invalidArguments(String)
  /// Anything else (the keyring, the provider's answer), in words.
  case failed(String)

  /// The D-Bus error name.
  public var dbusName: String {
    switch self {
    case .denied: AppIdentity.Broker.error("Denied")
    case .notSignedIn: AppIdentity.Broker.error("NotSignedIn")
    case .network: AppIdentity.Broker.error("Network")
    case .cancelled, .notAskedAgainYet, .signInNotShownAgainYet: AppIdentity.Broker.error("Cancelled")
    case .invalidArguments: "org.freedesktop.DBus.Error.InvalidArgs"
    case .failed: "org.freedesktop.DBus.Error.Failed"
    }
  }

  /// What a person reads.
  public var message: String {
    switch self {
    case .denied(let app):
      String(
        template: tr("You did not allow %@ to use your sign-in. You can change that in B2C Tasks' preferences."), app)
    case .notSignedIn: tr("That account is not signed in to B2C Tasks.")
    case .network(let reason): reason
    case .cancelled: tr("The request was cancelled.")
    case .notAskedAgainYet(let app):
      String(
        template: tr("You closed the question about %@ a moment ago. B2C Tasks asks again after a minute."), app)
    case .signInNotShownAgainYet(let app):
      String(
        template: tr(
          "You closed the sign-in %@ asked for a moment ago. B2C Tasks shows it again for that app after a minute."),
        app)
    case .invalidArguments(let reason), .failed(let reason): reason
    }
  }

  /// The broker's answer for a session's failure.
  public init(_ error: SessionError) {
    switch error {
    case .network(let failure), .discovery(.network(let failure)): self = .network(failure.message)
    case .accountChanged: self = .notSignedIn
    case .authorization(.cancelled): self = .cancelled
    default: self = error.needsSignIn ? .notSignedIn : .failed(error.message)
    }
  }
}

/// The broker: lends the session of the app's settings to other apps, each with the user's consent.
///
/// Every answer that names an account goes only to an app the user allowed for it; the first time, `ask` shows the
/// question (one question at a time per app and account, however many calls wait for it).
/// - `accounts(for:)` lists who is signed in (names, e-mail, provider, keychain group).
/// - `token(…)` gives a token of the session, refreshed under the session's lock when it would expire within the
///   session's margin (five minutes). Never the refresh token.
/// - `signIn(…)` answers the signed-in account, or shows the sign-in when no one is signed in.
/// - `signOut(…)` signs every app of the keychain group out.
///
/// The keyring is read at each call (another app may have signed out). When it is locked and its unlock prompt was
/// dismissed, calls fail for `askAgainAfter` without reading it again: a polling app must not bring the prompt back.
public actor Broker {
  /// The answer `ask` gives: allowed, denied, or none (the dialog was closed; nothing is remembered).
  public enum Answer: Sendable { case allow, deny, none }

  public let session: Session
  public let consents: ConsentStore
  private let ask: @Sendable (BrokerCaller, BrokerAccount) async -> Answer
  private var questions: [String: Task<Answer, Never>] = [:]
  /// When each app's question (by app and account) was last closed without an answer.
  private var dismissed: [String: Date] = [:]
  /// How long an app whose question was closed must wait before it is asked again: closing it must not bring it
  /// straight back, however often the app calls.
  public let askAgainAfter: TimeInterval
  private let now: @Sendable () -> Date
  private var lastAccountID: String?
  /// When the keyring last refused to open (locked, its prompt dismissed), and what callers were told.
  private var keyringRefused: (at: Date, error: BrokerError)?
  /// The keyring read under way: calls at once share it (and its prompt).
  private var reading: Task<Result<Account?, SessionError>, Never>?
  private var watchers: [UUID: AsyncStream<Void>.Continuation] = [:]

  public init(
    session: Session, consents: ConsentStore, askAgainAfter: TimeInterval = 60,
    now: @escaping @Sendable () -> Date = Date.init,
    ask: @escaping @Sendable (BrokerCaller, BrokerAccount) async -> Answer
  ) {
    self.session = session
    self.consents = consents
    self.askAgainAfter = askAgainAfter
    self.now = now
    self.ask = ask
  }

  /// The broker's id for `account` under the session's settings.
  public nonisolated func id(of account: Account) -> String { "\(session.key.digest):\(account.objectID)" }

  private func describe(_ account: Account) -> BrokerAccount {
    let settings = session.settings
    return BrokerAccount(
      id: id(of: account), provider: settings.authority.provider.rawValue, authority: settings.authority.origin,
      displayName: account.displayName, email: account.email, keychainGroup: settings.keychainGroup)
  }

  /// The signed-in accounts (none or one), as the keyring has them now, for `caller`: each only once the user
  /// allowed the app for it (asked the first time).
  public func accounts(for caller: BrokerCaller) async throws(BrokerError) -> [BrokerAccount] {
    let accounts = try await signedIn()
    for account in accounts { try await requireConsent(caller, account) }
    return accounts
  }

  /// The signed-in accounts (none or one), as the keyring has them now: read once for the calls at once, and not
  /// for `askAgainAfter` after the keyring refused to open.
  private func signedIn() async throws(BrokerError) -> [BrokerAccount] {
    if let refused = keyringRefused {
      guard now().timeIntervalSince(refused.at) >= askAgainAfter else { throw refused.error }
      keyringRefused = nil
    }
    let read: Task<Result<Account?, SessionError>, Never>
    if let reading {
      read = reading
    } else {
      let session = self.session
      read = Task { () -> Result<Account?, SessionError> in
        do throws(SessionError) { return .success(try await session.restore()) } catch { return .failure(error) }
      }
      reading = read
    }
    let result = await read.value
    if reading == read { reading = nil }
    switch result {
    case .success(let account):
      return account.map { [describe($0)] } ?? []
    case .failure(let error):
      let answer = BrokerError(error)
      if case .keyring(let failure) = error, failure.code == .locked || failure.code == .refused {
        keyringRefused = (now(), answer)
      }
      throw answer
    }
  }

  /// The signed-in account whose id is `accountID`.
  private func account(_ accountID: String) async throws(BrokerError) -> BrokerAccount {
    guard let account = try await signedIn().first(where: { $0.id == accountID }) else { throw .notSignedIn }
    return account
  }

  /// The signed-in account's id for `caller`, once allowed for it. With no one signed in, `signIn` shows the sign-in
  /// (the window's) and the question follows for the account signed in; a sign-in closed without signing in is not
  /// shown again for that app before `askAgainAfter`.
  public func signIn(
    caller: BrokerCaller, signIn: @Sendable () async throws(BrokerError) -> Account
  ) async throws(BrokerError) -> String {
    let account: BrokerAccount
    if let signedIn = try await signedIn().first {
      account = signedIn
    } else {
      let key = "\(caller.identity.key)\u{1F}sign-in"
      if let closed = dismissed[key], now().timeIntervalSince(closed) < askAgainAfter {
        throw .signInNotShownAgainYet(app: caller.name)
      }
      do throws(BrokerError) {
        account = describe(try await signIn())
        dismissed[key] = nil
      } catch {
        if error == .cancelled { dismissed[key] = now() }
        throw error
      }
    }
    try await requireConsent(caller, account)
    return account.id
  }

  /// A token of `kind` (nil: the settings' bearer) for `accountID`, for `caller`: the token and when it expires.
  /// `scopes` must be among those the app's sign-in asks for (none: the sign-in's own).
  public func token(
    for accountID: String, scopes: [String], kind: AppSettings.BearerToken?, caller: BrokerCaller
  ) async throws(BrokerError) -> (token: String, expiresOn: Date) {
    let granted = session.settings.scopes(offlineAccess: true)
    if let unknown = scopes.first(where: { !granted.contains($0) }) {
      throw .invalidArguments(String(template: tr("The sign-in was not given the scope %@."), unknown))
    }
    let account = try await account(accountID)
    try await requireConsent(caller, account)
    do {
      return try await session.token(kind ?? session.settings.bearerToken, for: account.id.objectIDPart)
    } catch {
      throw BrokerError(error)
    }
  }

  /// Signs every app of the keychain group out (the keyring's session goes), for an app allowed for `accountID`.
  /// `signOut` does it as the app's own Sign Out would (the window, when one is open, shows it).
  public func signOut(
    _ accountID: String, caller: BrokerCaller, signOut: @Sendable () async throws(SessionError) -> Void
  )
    async throws(BrokerError)
  {
    let account = try await account(accountID)
    try await requireConsent(caller, account)
    do { try await signOut() } catch { throw BrokerError(error) }
  }

  private func requireConsent(_ caller: BrokerCaller, _ account: BrokerAccount) async throws(BrokerError) {
    let app = caller.identity.key
    switch await consents.decision(app: app, account: account.id) {
    case true?: return
    case false?: throw .denied(app: caller.name)
    case nil: break
    }
    let key = "\(app)\u{1F}\(account.id)"
    let question: Task<Answer, Never>
    if let asked = questions[key] {
      question = asked
    } else {
      if let closed = dismissed[key], now().timeIntervalSince(closed) < askAgainAfter {
        throw .notAskedAgainYet(app: caller.name)
      }
      let ask = self.ask
      question = Task { await ask(caller, account) }
      questions[key] = question
    }
    let answer = await question.value
    if questions[key] == question {
      questions[key] = nil
      dismissed[key] = answer == .none ? now() : nil
      if answer != .none {
        let grant = Grant(
          app: app, appName: caller.name, account: account.id, accountName: account.label, allowed: answer == .allow,
          decided: Date())
        do throws(ConsentStoreError) { try await consents.record(grant) } catch { throw .failed(error.message) }
      }
    }
    switch answer {
    case .allow: return
    case .deny: throw .denied(app: caller.name)
    case .none: throw .cancelled
    }
  }

  /// One element each time the accounts change (a sign-in, a sign-out here or seen in the keyring, another user):
  /// the broker's `AccountsChanged` signal.
  public func changes() -> AsyncStream<Void> {
    let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    let id = UUID()
    watchers[id] = continuation
    continuation.onTermination = { _ in Task { await self.stopWatching(id) } }
    return stream
  }

  private func stopWatching(_ id: UUID) { watchers[id] = nil }

  /// Follows the session's state and tells the watchers when the account changes; runs until the session goes.
  public func followSession() async {
    lastAccountID = await session.account.map(id(of:))
    for await state in await session.updates() {
      let now: String? =
        switch state {
        case .signedIn(let account), .refreshing(let account): id(of: account)
        case .signingIn: lastAccountID
        case .signedOut, .needsSignIn: nil
        }
      guard now != lastAccountID else { continue }
      lastAccountID = now
      for watcher in watchers.values { watcher.yield() }
    }
  }
}

extension String {
  /// The object id in a broker account id (`DIGEST:OBJECT-ID`).
  var objectIDPart: String {
    guard let colon = firstIndex(of: ":") else { return self }
    return String(self[index(after: colon)...])
  }
}

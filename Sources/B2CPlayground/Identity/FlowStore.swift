// FlowStore: sign-in transactions, authorization codes and web sessions, in memory. Actor.

import Crypto
import Foundation

/// A validated authorize request, kept server-side while the user is on the sign-in pages (B2C's `tx`).
struct AuthorizeRequest: Sendable {
  var policy: PolicyKind
  var policyName: String
  var clientID: String
  var redirectURI: String
  var scopes: [String]
  var state: String?
  var nonce: String?
  var codeChallenge: String?
  var codeChallengeMethod: String?
  var prompt: String?
  var loginHint: String?
  var locale: PageLocale
  /// How the answer goes back to the app.
  var responseMode: ResponseMode = .query
}

/// What a redeemed authorization code grants.
struct CodeGrant: Sendable {
  var oid: String
  var request: AuthorizeRequest
  var authTime: Int
  var issuedAt: Date
  var expiresAt: Date
  var redeemed = false
}

/// A signed-in browser: the SSO cookie's value points here.
struct WebSession: Sendable {
  var oid: String
  var authTime: Int
  var expiresAt: Date
}

/// The short-lived state of sign-in flows. Lost on restart, as B2C's own would be after their lifetimes.
actor FlowStore {
  private var transactions: [String: (request: AuthorizeRequest, expiresAt: Date)] = [:]
  private var codes: [String: CodeGrant] = [:]
  private var sessions: [String: WebSession] = [:]
  private var resetCodes: [String: ResetCode] = [:]
  /// Codes issued per transaction, and the times of each account's wrong codes (the last hour's).
  private var codesIssued: [String: Int] = [:]
  private var wrongCodes: [String: [Date]] = [:]
  /// At most this many codes for one transaction, and this many wrong codes an hour for one account (whatever the
  /// transaction: a new transaction is free to start): guessing six digits takes a million tries.
  static let codesPerTransaction = 5
  static let wrongCodesPerHour = 10

  private struct ResetCode {
    var email: String
    var code: String
    var expiresAt: Date
    var tries = 0
  }

  /// A random, URL-safe identifier with 256 bits of entropy.
  static func randomToken() -> String {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    return Data(bytes).base64URLEncoded
  }

  // MARK: Transactions

  func begin(_ request: AuthorizeRequest) -> String {
    purge()
    let id = Self.randomToken()
    transactions[id] = (request, Date().addingTimeInterval(30 * 60))
    return id
  }

  func transaction(_ id: String) -> AuthorizeRequest? {
    guard let entry = transactions[id], entry.expiresAt > Date() else { return nil }
    return entry.request
  }

  func finish(_ id: String) {
    transactions[id] = nil
    resetCodes[id] = nil
    codesIssued[id] = nil
  }

  // MARK: Password-reset codes

  /// A new six-digit code proving the mailbox of `email` for transaction `id` (10 minutes, 3 tries); it replaces
  /// any earlier code of the transaction. Nil when the transaction has had its codes, or the account too many wrong
  /// ones this hour.
  func issueResetCode(for id: String, email: String) -> String? {
    guard codesIssued[id, default: 0] < Self.codesPerTransaction, !isLocked(email) else { return nil }
    codesIssued[id, default: 0] += 1
    let code = String(format: "%06d", Int.random(in: 0..<1_000_000))
    resetCodes[id] = ResetCode(email: email.lowercased(), code: code, expiresAt: Date().addingTimeInterval(600))
    return code
  }

  /// What a reset code given for a transaction proved.
  enum ResetCheck { case valid, wrong, void, locked }

  /// Whether `email`'s account has had too many wrong codes in the last hour.
  private func isLocked(_ email: String) -> Bool {
    let recent = (wrongCodes[email.lowercased()] ?? []).filter { $0.timeIntervalSinceNow > -3600 }
    wrongCodes[email.lowercased()] = recent.isEmpty ? nil : recent
    return recent.count >= Self.wrongCodesPerHour
  }

  /// Whether `code` is the transaction's live code for `email`. A wrong code uses up a try; the third voids it.
  /// Once the account has had too many wrong codes this hour, no code is even compared (`.locked`).
  func checkResetCode(for id: String, email: String, code: String) -> ResetCheck {
    if isLocked(email) {
      resetCodes[id] = nil
      return .locked
    }
    guard var entry = resetCodes[id], entry.expiresAt > Date(), entry.email == email.lowercased() else {
      resetCodes[id] = nil
      return .void
    }
    // Compared in constant time: the code is a secret.
    let given = Array(code.trimmingCharacters(in: .whitespaces).utf8)
    let expected = Array(entry.code.utf8)
    var difference = given.count ^ expected.count
    for index in expected.indices { difference |= Int(expected[index] ^ (index < given.count ? given[index] : 0)) }
    if difference == 0 {
      resetCodes[id] = nil
      return .valid
    }
    entry.tries += 1
    wrongCodes[entry.email, default: []].append(Date())
    resetCodes[id] = entry.tries >= 3 ? nil : entry
    return entry.tries >= 3 ? .void : .wrong
  }

  // MARK: Codes

  func issueCode(oid: String, request: AuthorizeRequest, authTime: Int, lifetime: Int) -> String {
    purge()
    let code = Self.randomToken()
    let now = Date()
    codes[code] = CodeGrant(
      oid: oid, request: request, authTime: authTime, issuedAt: now,
      expiresAt: now.addingTimeInterval(TimeInterval(lifetime)))
    return code
  }

  /// The grant of `code`, marking it redeemed; a second redemption sees `redeemed == true`.
  func redeem(_ code: String) -> CodeGrant? {
    guard var grant = codes[code] else { return nil }
    let before = grant
    grant.redeemed = true
    codes[code] = grant
    return before
  }

  // MARK: Web sessions

  func startSession(oid: String, authTime: Int, lifetime: Int) -> String {
    let id = Self.randomToken()
    sessions[id] = WebSession(
      oid: oid, authTime: authTime, expiresAt: Date().addingTimeInterval(TimeInterval(lifetime)))
    return id
  }

  func session(_ id: String?) -> WebSession? {
    guard let id, let session = sessions[id], session.expiresAt > Date() else { return nil }
    return session
  }

  func endSession(_ id: String?) {
    if let id { sessions[id] = nil }
  }

  /// Drops expired entries (codes are kept a little past expiry so a late use is told "expired").
  private func purge() {
    let now = Date()
    transactions = transactions.filter { $0.value.expiresAt > now }
    codesIssued = codesIssued.filter { transactions[$0.key] != nil }
    codes = codes.filter { $0.value.expiresAt.addingTimeInterval(3600) > now }
    sessions = sessions.filter { $0.value.expiresAt > now }
  }
}

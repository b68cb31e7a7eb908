// AppPasswords: the passwords a signed-in user makes for CalDAV clients (none of them can run the sign-in page):
// made and listed through the API v2 with a bearer token, used with HTTP Basic on /dav/ only, kept as bcrypt hashes,
// verified once per few minutes per client (a cache), failures limited per account and address. Sendable.

import Crypto
import Foundation
import Hummingbird
import HummingbirdBcrypt
import Logging
import TasksCalendar

/// App passwords: their routes under `/api/v2/app-passwords` and the check of a Basic `Authorization`.
public struct AppPasswords: Sendable {
  /// How many app passwords an account keeps at most.
  public static let maxPerAccount = 20
  /// bcrypt's cost (2^10 rounds: about 0.1 s on a small server, per first request of a client).
  static let cost: UInt8 = 10
  let store: any DAVStore
  let verifier: Verifier

  public init(store: any DAVStore) {
    self.store = store
    verifier = Verifier(store: store)
  }

  /// The name an account signs in with on every device: 16 letters and digits from its owner key (the same on
  /// every instance; it says nothing of the account).
  public static func username(owner: String) -> String {
    let digest = Array(SHA256.hash(data: Data(("b2c-tasks app password " + owner).utf8)))
    return base32(digest.prefix(10))
  }

  /// 160 random bits, in base 32 in groups of four (`abcd-efgh-…`): typed on a phone as easily as pasted.
  static func newPassword() -> String {
    var generator = SystemRandomNumberGenerator()
    let text = base32((0..<20).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    return stride(from: 0, to: text.count, by: 4).map { start in
      String(text.dropFirst(start).prefix(4))
    }.joined(separator: "-")
  }

  /// A password as it is hashed: lower case, without the dashes and spaces people type or leave out.
  static func normal(_ password: String) -> String {
    password.lowercased().filter { $0 != "-" && $0 != " " }
  }

  static func base32<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
    let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")
    var bits = 0
    var value = 0
    var text = ""
    for byte in bytes {
      value = (value << 8) | Int(byte)
      bits += 8
      while bits >= 5 {
        text.append(alphabet[(value >> (bits - 5)) & 31])
        bits -= 5
      }
      value &= (1 << bits) - 1
    }
    if bits > 0 { text.append(alphabet[(value << (5 - bits)) & 31]) }
    return text
  }

  // MARK: Routes

  /// POST (make one: the password is in this answer only), GET (the list, without secrets), DELETE (revoke).
  func register<Context: RequestContext>(on router: Router<Context>, authorized: PlannerRoutes) {
    let path = "/api/v2/app-passwords"
    router.post(.init(path)) { request, _ in
      try await authorized.authorized(request) { caller in
        let object = try await PlannerRoutes.object(request, limit: 4096)
        let name = try PlannerRoutes.field { () throws(FieldError) in
          let needed = FieldError("name", "a name for the device, as Phone")
          guard let value = object["name"] else { throw needed }
          let name = try FieldReader(object).text(value, "name", max: 100, lineBreaks: false)
          // Not only white space (as a list's name: the name is how the user tells the passwords apart).
          guard name.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else { throw needed }
          return name
        }
        // The cap before the slow hash (the store checks it again, in its transaction).
        guard try await store.appPasswords(owner: caller.key).count < Self.maxPerAccount else {
          return PlannerRoutes.problem(
            .conflict, "limit_reached",
            "An account can have at most \(Self.maxPerAccount) app passwords: revoke one you no longer use.")
        }
        let password = Self.newPassword()
        let hash = await Task.detached { Bcrypt.hash(Self.normal(password), cost: Self.cost) }.value
        let record = AppPasswordRecord(
          id: UUID(), owner: caller.key, displayName: caller.displayName,
          username: Self.username(owner: caller.key), name: name, hash: hash, createdAt: Date())
        guard try await store.addAppPassword(record) else {
          return PlannerRoutes.problem(
            .conflict, "limit_reached",
            "An account can have at most \(Self.maxPerAccount) app passwords: revoke one you no longer use.")
        }
        var answer = Self.object(record)
        answer["password"] = password
        answer.removeValue(forKey: "lastUsedAt")
        var response = PlannerRoutes.json(answer, status: .created)
        response.headers[.location] = "\(path)/\(record.id.lowercased)"
        return response
      }
    }
    router.get(.init(path)) { request, _ in
      try await authorized.authorized(request) { caller in
        PlannerRoutes.json(try await store.appPasswords(owner: caller.key).map(Self.object))
      }
    }
    router.delete(.init(path + "/:id")) { request, context in
      try await authorized.authorized(request) { caller in
        guard let id = PlannerRoutes.id(context, "id"), try await store.deleteAppPassword(owner: caller.key, id: id)
        else { return PlannerRoutes.problem(.notFound, "not_found", "No such app password.") }
        await verifier.forget(id)
        return Response(status: .noContent)
      }
    }
    TaskRoutes.refuseOtherMethods(on: router, path: .init(path), allowed: [.get, .post])
    TaskRoutes.refuseOtherMethods(on: router, path: .init(path + "/:id"), allowed: [.delete])
  }

  static func object(_ record: AppPasswordRecord) -> [String: Any] {
    [
      "id": record.id.lowercased, "name": record.name, "username": record.username,
      "createdAt": JSONWriter.timestamp(record.createdAt),
      "lastUsedAt": record.lastUsedAt.map(JSONWriter.timestamp) ?? NSNull(),
    ]
  }

  // MARK: Checking

  /// What a Basic `Authorization` gets.
  public enum Check: Sendable, Equatable {
    case caller(PlannerCaller)
    case refused
    /// Too many failures from this address or for this account lately: try again after `retryAfter` seconds.
    case limited(retryAfter: Int)
  }

  /// Checks `Authorization: Basic …` from `address`.
  public func check(authorization: String?, address: String) async -> Check {
    guard let authorization, authorization.utf8.count < 1024 else { return .refused }
    let parts = authorization.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "basic",
      let decoded = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
      let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
    else { return .refused }
    return await verifier.check(
      username: String(text[..<colon]), password: String(text[text.index(after: colon)...]), address: address)
  }

  /// The cache of verified passwords and the count of failures. A cached password is still looked up in the store at
  /// every request (one indexed read), so that a revocation on any instance takes effect at once.
  actor Verifier {
    let store: any DAVStore
    /// SHA-256 of username and password → the app password's id and account, until a time.
    private var verified: [Data: (id: UUID, caller: PlannerCaller, until: Date)] = [:]
    /// Failures per key (`u:<username>`, `a:<address>`) in the current window.
    private var failures: [String: (count: Int, since: Date)] = [:]
    private var lastNoted: [UUID: Date] = [:]
    static let cacheLifetime: TimeInterval = 600
    static let failureWindow: TimeInterval = 300
    /// Failures allowed per window: for one account from one address, and from one address for any account.
    static let maxFailures = (account: 10, address: 30)

    init(store: any DAVStore) { self.store = store }

    /// A password verified lately passes on a read of the store alone, limited or not: a client already signed in
    /// keeps working whoever fails from its address (every client has the balancer's address behind one). Only a
    /// password to verify with bcrypt is limited, and it counts as a failure until it proves right, so that a burst
    /// of requests in flight cannot pass the limit together.
    func check(username: String, password: String, address: String, now: Date = Date()) async -> Check {
      // bcrypt reads 72 bytes; the passwords made here have 39.
      guard username.utf8.count <= 64, password.utf8.count <= 72 else { return .refused }
      let normal = AppPasswords.normal(password)
      let digest = Data(SHA256.hash(data: Data((username + "\u{0}" + normal).utf8)))
      let keys = ["u:\(username)|\(address)", "a:\(address)"]
      if let hit = verified[digest], hit.until > now {
        guard let candidates = try? await store.appPasswords(username: username) else { return .refused }
        if candidates.contains(where: { $0.id == hit.id }) {
          await noteUse(hit.id, now: now)
          return .caller(hit.caller)
        }
        verified[digest] = nil
      }
      let limits = [Self.maxFailures.account, Self.maxFailures.address]
      for (key, limit) in zip(keys, limits) {
        if let failed = failures[key], now.timeIntervalSince(failed.since) < Self.failureWindow, failed.count >= limit {
          return .limited(retryAfter: Int((Self.failureWindow - now.timeIntervalSince(failed.since)).rounded(.up)))
        }
      }
      for key in keys { count(key, by: 1, now: now) }
      guard let candidates = try? await store.appPasswords(username: username) else { return .refused }
      for record in candidates {
        let hash = record.hash
        if await Task.detached(operation: { Bcrypt.verify(normal, hash: hash) }).value {
          for key in keys { count(key, by: -1, now: now) }
          let caller = PlannerCaller(key: record.owner, displayName: record.displayName)
          if verified.count >= 10_000 { verified = verified.filter { $0.value.until > now } }
          verified[digest] = (record.id, caller, now.addingTimeInterval(Self.cacheLifetime))
          await noteUse(record.id, now: now)
          return .caller(caller)
        }
      }
      return .refused
    }

    /// Moves the count of failures under `key` by `delta` (a window of its own from the first).
    private func count(_ key: String, by delta: Int, now: Date) {
      if let failed = failures[key], now.timeIntervalSince(failed.since) < Self.failureWindow {
        failures[key] = (max(0, failed.count + delta), failed.since)
      } else if delta > 0 {
        if failures.count >= 10_000 { failures = failures.filter { now.timeIntervalSince($0.value.since) < 300 } }
        failures[key] = (delta, now)
      }
    }

    /// Keeps the last use, to the minute (not a write per request).
    private func noteUse(_ id: UUID, now: Date) async {
      if let noted = lastNoted[id], now.timeIntervalSince(noted) < 60 { return }
      lastNoted[id] = now
      try? await store.appPasswordUsed(id: id, at: now)
    }

    func forget(_ id: UUID) {
      verified = verified.filter { $0.value.id != id }
      lastNoted[id] = nil
    }
  }
}

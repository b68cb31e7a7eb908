// Tests of the task API: the original contract, the extensions, bearer validation and isolation between users.

import Foundation
import JWTKit
import TasksTestSupport
import Testing
import _CryptoExtras

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Calls the task API with a bearer token.
struct TaskClient {
  let api: URL
  let token: String?
  let browser = Browser()

  var tasksURL: URL { api.appending(path: "api/tasks") }

  func call(
    _ method: String, _ path: String = "", body: Data? = nil, contentType: String? = nil,
    headers: [String: String] = [:]
  ) async throws -> HTTPAnswer {
    var request = URLRequest(url: path.isEmpty ? tasksURL : tasksURL.appending(path: path))
    request.httpMethod = method
    request.httpBody = body
    var headers = headers
    if let token { headers["Authorization"] = "Bearer \(token)" }
    if let contentType { headers["Content-Type"] = contentType }
    do {
      return try await browser.send(request, headers: headers)
    } catch {
      // Which request failed (a timeout alone does not say), for a failure seen only on a loaded machine.
      throw RequestFailure(request: "\(method) \(request.url?.absoluteString ?? "")", underlying: "\(error)")
    }
  }

  /// A request that got no answer, named.
  struct RequestFailure: Error, CustomStringConvertible {
    let request: String
    let underlying: String
    var description: String { "\(request) failed: \(underlying)" }
  }

  func list() async throws -> [[String: Any]] {
    let answer = try await call("GET")
    try #require(answer.status == 200, "GET answered \(answer.status)")
    return try #require(try JSONSerialization.jsonObject(with: answer.body) as? [[String: Any]])
  }

  func add(_ text: String, key: String? = nil) async throws -> HTTPAnswer {
    try await call(
      "POST", body: Data(Browser.formEncode([("Text", text)]).utf8), contentType: "application/x-www-form-urlencoded",
      headers: key.map { ["Idempotency-Key": $0] } ?? [:])
  }
}

/// Every test runs against both hosts of the task API: the playground's own and b2c-tasks-api (a process of its
/// own, trusting the playground as it would a real tenant).
@Suite("Task API, in the playground and in b2c-tasks-api")
struct TaskAPITests {
  /// Runs `body` against a playground and the task API on `host`, and stops both afterwards (also when it throws).
  private func withAPI(
    _ host: TaskAPIHost, _ body: (PlaygroundHarness, TaskAPIEndpoint) async throws -> Void
  ) async throws {
    let harness = try await PlaygroundHarness.start()
    let api = try await host.start(for: harness)
    do { try await body(harness, api) } catch {
      await api.stop()
      await harness.stop()
      throw error
    }
    await api.stop()
    await harness.stop()
  }

  private func signedIn(
    _ harness: PlaygroundHarness, _ api: TaskAPIEndpoint, _ email: String = "ann@example.com",
    _ password: String = "Tasks-Demo-1", bearer: String = "access_token"
  ) async throws -> TaskClient {
    let tokens = try await SignInDriver(harness).tokens(email, password)
    return TaskClient(api: api.base, token: try #require(tokens[bearer] as? String))
  }

  @Test(
    "the original contract: GET lists, POST (form and JSON, Text in any case) answers 204, DELETE answers 204",
    arguments: TaskAPIHost.allCases)
  func contract(host: TaskAPIHost) async throws {
    try await withAPI(host) { harness, api in
      let ann = try await signedIn(harness, api)
      #expect(try await ann.list().isEmpty)
      #expect(try await ann.add("buy milk").status == 204)
      let json = try await ann.call(
        "POST", body: Data(#"{"text":"walk the dog"}"#.utf8), contentType: "application/json")
      #expect(json.status == 204)
      let lower = try await ann.call(
        "POST", body: Data("tExT=call+mum".utf8), contentType: "application/x-www-form-urlencoded")
      #expect(lower.status == 204)
      let tasks = try await ann.list()
      #expect(tasks.map { $0["Text"] as? String } == ["buy milk", "walk the dog", "call mum"])
      let first = tasks[0]
      #expect(first["Completed"] as? Bool == false)
      #expect(first["Owner"] as? String != nil)
      #expect((first["DateModified"] as? String)?.hasSuffix("Z") == true)
      let id = try #require(first["Id"] as? Int)
      #expect(try await ann.call("DELETE", "\(id)").status == 204)
      #expect(try await ann.call("DELETE", "\(id)").status == 204, "deleting a missing task is a no-op")
      #expect(try await ann.list().count == 2)
    }
  }

  @Test(
    "extension: the list's ETag answers 304 until a task changes; an answer from memory is never stale",
    arguments: TaskAPIHost.allCases)
  func listVersions(host: TaskAPIHost) async throws {
    try await withAPI(host) { harness, api in
      let ann = try await signedIn(harness, api)
      #expect(try await ann.add("buy milk").status == 204)
      let first = try await ann.call("GET")
      let etag = try #require(first.headers["etag"])
      #expect(try await ann.call("GET", headers: ["If-None-Match": etag]).status == 304)
      #expect(try await ann.call("GET", headers: ["If-None-Match": "\"other\", \(etag)"]).status == 304)
      // Each kind of change moves the version, and the next list (answered from memory before) shows it.
      #expect(try await ann.add("walk the dog").status == 204)
      let added = try await ann.call("GET", headers: ["If-None-Match": etag])
      #expect(added.status == 200 && added.headers["etag"] != etag)
      var texts = try await ann.list().map { $0["Text"] as? String }
      #expect(texts == ["buy milk", "walk the dog"])
      let id = try #require(try await ann.list().first?["Id"] as? Int)
      #expect(
        try await ann.call("PATCH", "\(id)", body: Data(#"{"Completed":true}"#.utf8), contentType: "application/json")
          .status == 204)
      #expect(try await ann.list().first?["Completed"] as? Bool == true)
      #expect(try await ann.call("DELETE", "\(id)").status == 204)
      texts = try await ann.list().map { $0["Text"] as? String }
      #expect(texts == ["walk the dog"])
      // Another user's change does not touch Ann's version.
      let before = try #require(try await ann.call("GET").headers["etag"])
      let bob = try await signedIn(harness, api, "bob@example.com", "Tasks-Demo-2")
      #expect(try await bob.add("bob's").status == 204)
      #expect(try await ann.call("GET", headers: ["If-None-Match": before]).status == 304)
    }
  }

  @Test("the sample's way: the id_token as bearer is accepted too", arguments: TaskAPIHost.allCases)
  func idTokenBearer(host: TaskAPIHost) async throws {
    try await withAPI(host) { harness, api in
      let ann = try await signedIn(harness, api, bearer: "id_token")
      #expect(try await ann.add("from the sample").status == 204)
      #expect(try await ann.list().count == 1)
    }
  }

  @Test(
    "bad input: empty or missing Text, wrong types, unsupported media, oversize body, bad ids",
    arguments: TaskAPIHost.allCases)
  func badInput(host: TaskAPIHost) async throws {
    try await withAPI(host) { harness, api in
      let ann = try await signedIn(harness, api)
      #expect(try await ann.add("   ").status == 400)
      #expect(
        try await ann.call("POST", body: Data("Other=x".utf8), contentType: "application/x-www-form-urlencoded").status
          == 400)
      #expect(
        try await ann.call("POST", body: Data(#"{"Text":42}"#.utf8), contentType: "application/json").status == 400)
      #expect(try await ann.call("POST", body: Data("not json".utf8), contentType: "application/json").status == 400)
      #expect(
        try await ann.call("POST", body: Data([0xFF, 0xFE, 0x00]), contentType: "application/json").status == 400)
      #expect(try await ann.call("POST", body: Data("x".utf8), contentType: "text/plain").status == 415)
      #expect(try await ann.add(String(repeating: "x", count: 4001)).status == 400)
      // Control characters (a NUL cannot be stored in PostgreSQL at all) are refused; tabs and line breaks are text.
      #expect(try await ann.add("nul\u{0}inside").status == 400)
      #expect(try await ann.add("bell\u{7}").status == 400)
      #expect(try await ann.add("next\u{85}line").status == 400, "C1 controls are controls too")
      #expect(try await ann.add("\u{3000}\u{2028}\u{A0}").status == 400, "Unicode's spaces are trimmed away")
      #expect(
        try await ann.call("POST", body: Data(#"{"Text":"a\u0000b"}"#.utf8), contentType: "application/json").status
          == 400)
      let huge = try await ann.call("POST", body: Data(count: 200_000), contentType: "application/json")
      #expect(huge.status == 413)
      #expect(try await ann.call("DELETE", "abc").status == 404)
      #expect(
        try await ann.call("PATCH", "abc", body: Data(#"{"Completed":true}"#.utf8), contentType: "application/json")
          .status == 404)
      #expect(try await ann.list().isEmpty, "nothing was stored")
      #expect(try await ann.add("two\tcolumns\nand a second line").status == 204)
    }
  }

  @Test("extension: PATCH changes Text and Completed of one's own task", arguments: TaskAPIHost.allCases)
  func update(host: TaskAPIHost) async throws {
    try await withAPI(host) { harness, api in
      let ann = try await signedIn(harness, api)
      _ = try await ann.add("draft")
      let id = try #require(try await ann.list().first?["Id"] as? Int)
      #expect(
        try await ann.call("PATCH", "\(id)", body: Data(#"{"completed":true}"#.utf8), contentType: "application/json")
          .status == 204)
      #expect(
        try await ann.call(
          "PATCH", "\(id)", body: Data("Text=final".utf8), contentType: "application/x-www-form-urlencoded"
        ).status == 204)
      let task = try #require(try await ann.list().first)
      #expect(task["Text"] as? String == "final" && task["Completed"] as? Bool == true)
      #expect(
        try await ann.call("PATCH", "\(id)", body: Data(#"{"Completed":1}"#.utf8), contentType: "application/json")
          .status
          == 400)
      #expect(
        try await ann.call("PATCH", "\(id)", body: Data("{}".utf8), contentType: "application/json").status == 400)
      #expect(
        try await ann.call("PATCH", "99999", body: Data(#"{"Completed":true}"#.utf8), contentType: "application/json")
          .status == 404)
    }
  }

  @Test("extension: a retried POST with the same Idempotency-Key is stored once", arguments: TaskAPIHost.allCases)
  func idempotency(host: TaskAPIHost) async throws {
    try await withAPI(host) { harness, api in
      let ann = try await signedIn(harness, api)
      let first = try await ann.add("once", key: "7c9e6679-7425-40de-944b-e07fc1f90ae7")
      let retry = try await ann.add("once", key: "7c9e6679-7425-40de-944b-e07fc1f90ae7")
      #expect(first.status == 204 && retry.status == 204)
      #expect(first.headers["location"] == retry.headers["location"])
      _ = try await ann.add("twice", key: "another-key")
      #expect(try await ann.list().map { $0["Text"] as? String } == ["once", "twice"])
      #expect(try await ann.add("bad key", key: "has space").status == 400)
      // A retry that arrives after the task was deleted answers as the add did and does not bring the task back.
      let id = try #require(first.headers["location"]?.split(separator: "/").last.map(String.init))
      #expect(try await ann.call("DELETE", id).status == 204)
      let late = try await ann.add("once", key: "7c9e6679-7425-40de-944b-e07fc1f90ae7")
      #expect(late.status == 204 && late.headers["location"] == first.headers["location"])
      #expect(try await ann.list().map { $0["Text"] as? String } == ["twice"])
    }
  }

  @Test("one user never sees or changes another user's tasks", arguments: TaskAPIHost.allCases)
  func isolation(host: TaskAPIHost) async throws {
    try await withAPI(host) { harness, api in
      let ann = try await signedIn(harness, api)
      let bob = try await signedIn(harness, api, "bob@example.com", "Tasks-Demo-2")
      _ = try await ann.add("ann's secret plan")
      let id = try #require(try await ann.list().first?["Id"] as? Int)
      #expect(try await bob.list().isEmpty)
      #expect(try await bob.call("DELETE", "\(id)").status == 204)
      #expect(
        try await bob.call(
          "PATCH", "\(id)", body: Data("Text=hacked".utf8), contentType: "application/x-www-form-urlencoded"
        ).status == 404)
      let same = try await bob.add("ann's secret plan", key: "shared-key")
      #expect(same.status == 204)
      let annTasks = try await ann.list()
      #expect(annTasks.map { $0["Text"] as? String } == ["ann's secret plan"])
      #expect(try await bob.list().count == 1)
    }
  }

  @Test(
    "bearer validation: signature, issuer, audience, lifetime with 5 minutes of skew",
    arguments: [
      ("valid", 200), ("expired-within-skew", 200), ("expired", 401), ("not-yet-valid", 401), ("wrong-issuer", 401),
      ("wrong-audience", 401), ("foreign-key", 401), ("unsigned", 401), ("garbage", 401), ("none", 401),
      ("basic", 401),
    ])
  func bearerValidation(kind: String, status: Int) async throws {
    for host in TaskAPIHost.allCases {
      try await bearerValidation(kind: kind, status: status, host: host)
    }
  }

  private func bearerValidation(kind: String, status: Int, host: TaskAPIHost) async throws {
    try await withAPI(host) { harness, api in
      let forger = try await TokenForger(harness)
      let now = Int(Date().timeIntervalSince1970)
      var claims = ForgedClaims(
        iss: "\(harness.base.absoluteString)/5b6e1c9a-2f4d-4e7b-9c3a-1d8f0e2b7a64/v2.0/",
        aud: PlaygroundHarness.clientID,
        exp: now + 600, nbf: now - 10, oid: "forged-oid")
      var header: String?
      switch kind {
      case "expired-within-skew": claims.exp = now - 200
      case "expired": claims.exp = now - 400
      case "not-yet-valid": claims.nbf = now + 400
      case "wrong-issuer": claims.iss = "https://login.microsoftonline.com/other/v2.0/"
      case "wrong-audience": claims.aud = "00000000-0000-0000-0000-000000000000"
      default: break
      }
      switch kind {
      case "foreign-key": header = "Bearer " + (try await forger.signWithForeignKey(claims))
      case "unsigned": header = "Bearer " + forger.unsigned(claims)
      case "garbage": header = "Bearer not.a.token"
      case "none": header = nil
      case "basic": header = "Basic YW5uOnBhc3M="
      default: header = "Bearer " + (try await forger.sign(claims))
      }
      var request = URLRequest(url: api.base.appending(path: "api/tasks"))
      if let header { request.setValue(header, forHTTPHeaderField: "Authorization") }
      let answer = try await Browser().send(request)
      #expect(answer.status == status, "\(host)")
      if status == 401 {
        #expect(answer.headers["www-authenticate"] == "Bearer")
        #expect(try answer.json()["Message"] as? String == "Authorization has been denied for this request.")
      }
    }
  }
}

/// Claims for forged tokens.
struct ForgedClaims: JWTPayload {
  var iss: String
  var aud: String
  var exp: Int
  var nbf: Int
  var oid: String
  func verify(using algorithm: some JWTAlgorithm) throws {}
}

/// Signs tokens with the playground's own key (read from its data folder) or with a stranger's.
struct TokenForger {
  let own: JWTKeyCollection
  let kid: String

  init(_ harness: PlaygroundHarness) async throws {
    let pem = try String(contentsOf: harness.data.appending(path: "signing-key.pem"), encoding: .utf8)
    let jwks = try await Browser().get(
      harness.base.appending(path: "\(PlaygroundHarness.tenant)/\(PlaygroundHarness.signIn)/discovery/v2.0/keys"))
    let keys = try #require(try jwks.json()["keys"] as? [[String: Any]])
    kid = try #require(keys.first?["kid"] as? String)
    own = JWTKeyCollection()
    await own.add(rsa: try Insecure.RSA.PrivateKey(pem: pem), digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
  }

  func sign(_ claims: ForgedClaims) async throws -> String {
    try await own.sign(claims, kid: JWKIdentifier(string: kid))
  }

  func signWithForeignKey(_ claims: ForgedClaims) async throws -> String {
    let stranger = JWTKeyCollection()
    let key = try Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
    await stranger.add(rsa: key, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
    return try await stranger.sign(claims, kid: JWKIdentifier(string: kid))
  }

  /// An `alg: none` token with the same claims.
  func unsigned(_ claims: ForgedClaims) -> String {
    func part(_ object: [String: Any]) -> String {
      (try? JSONSerialization.data(withJSONObject: object))!.base64EncodedString().replacingOccurrences(
        of: "=", with: ""
      )
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }
    return part(["alg": "none", "typ": "JWT", "kid": kid])
      + "." + part(["iss": claims.iss, "aud": claims.aud, "exp": claims.exp, "nbf": claims.nbf, "oid": claims.oid])
      + "."
  }
}

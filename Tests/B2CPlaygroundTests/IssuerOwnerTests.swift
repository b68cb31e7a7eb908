// Owners are per issuer (issue 34, M2): b2c-tasks-api trusting two issuers keeps their users apart even when both
// give a user the same subject (OpenID Connect Core §5.7), and rows kept before owners named their issuer go to the
// one issuer the service trusts.

import B2CPlayground
import Foundation
import TaskService
import TasksTestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("b2c-tasks-api: owners are per issuer", .serialized)
struct IssuerOwnerTests {
  /// A request to `api` with `token` as bearer.
  private static func request(
    _ api: URL, _ path: String, _ method: String = "GET", token: String, json: [String: Any]? = nil,
    key: String? = nil
  ) throws -> URLRequest {
    var request = URLRequest(url: api.appending(path: path))
    request.httpMethod = method
    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    if let json {
      request.httpBody = try JSONSerialization.data(withJSONObject: json)
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
    if let key { request.setValue(key, forHTTPHeaderField: "Idempotency-Key") }
    return request
  }

  /// The texts of the tasks `token`'s owner sees.
  private static func texts(_ api: URL, token: String) async throws -> [String] {
    let answer = try await Browser().send(request(api, "api/tasks", token: token))
    try #require(answer.status == 200, "list: \(answer.status) \(answer.text)")
    let tasks = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [[String: Any]])
    return tasks.compactMap { $0["Text"] as? String }
  }

  /// A copy of a stopped playground's data folder for a second playground: the same users (the same object ids),
  /// its own signing key: another issuer, whose users have the subjects of the first's. The folder must be one no
  /// playground runs on: a copy of a live database's files, taken while it writes, is damaged (a CI run's twin,
  /// copied from the running issuer A, failed with SQLite's "disk I/O error").
  private static func twinFolder(of data: URL) throws -> URL {
    let copy = try TestDesktop.temporaryFolder("playground-twin")
    try FileManager.default.removeItem(at: copy)
    try FileManager.default.copyItem(at: data, to: copy)
    try FileManager.default.removeItem(at: copy.appending(path: "signing-key.pem"))
    return copy
  }

  @Test(
    "M2: a user of issuer B with the subject of issuer A's user reads, changes and deletes none of A's tasks, nor replays A's keys",
    arguments: [TaskAPIHost.service, .postgres])
  func sameSubjectAtTwoIssuers(host: TaskAPIHost) async throws {
    // Issuer A's users, then A again (on another port, so its issuer is new) and its twin B on copies of the users.
    let first = try await PlaygroundHarness.start()
    let keep = try TestDesktop.temporaryFolder("playground-a")
    try FileManager.default.removeItem(at: keep)
    await first.running.stop()
    try FileManager.default.copyItem(at: first.data, to: keep)
    let bData = try Self.twinFolder(of: first.data)
    try? FileManager.default.removeItem(at: first.data)
    let a = try await PlaygroundHarness.start { $0.dataDirectory = keep }
    let b = try await PlaygroundHarness.start { $0.dataDirectory = bData }
    try await withTeardown({
      await a.stop(); await b.stop()
      try? FileManager.default.removeItem(at: keep)
      try? FileManager.default.removeItem(at: bData)
    }) {
      let data = try TestDesktop.temporaryFolder("tasks-api-issuers")
      defer { try? FileManager.default.removeItem(at: data) }
      let database =
        host == .postgres
        ? try await PostgresServer.shared().createDatabase() : data.appending(path: "tasks.sqlite").path
      let api = try await TaskAPIProcess.start(
        database: database, issuerMetadata: a.policyMetadata,
        arguments: ["--issuer-metadata", b.policyMetadata.absoluteString])
      try await withTeardown({ await api.stop() }) {

        let annA = try #require(
          try await SignInDriver(a).tokens("ann@example.com", "Tasks-Demo-1")["access_token"] as? String)
        let annB = try #require(
          try await SignInDriver(b).tokens("ann@example.com", "Tasks-Demo-1")["access_token"] as? String)
        let claimsA = try await TokenInspector(a).claims(annA)
        let claimsB = try await TokenInspector(b).claims(annB)
        try #require(claimsA["oid"] as? String == claimsB["oid"] as? String, "the twin's user has the same subject")
        try #require(claimsA["iss"] as? String != claimsB["iss"] as? String, "at another issuer")

        let browser = Browser()
        let added = try await browser.send(
          Self.request(api.base, "api/tasks", "POST", token: annA, json: ["Text": "A's secret"], key: "key-1"))
        #expect(added.status == 204)
        let location = try #require(added.location)
        #expect(try await Self.texts(api.base, token: annA) == ["A's secret"])
        // B's user sees nothing of A's…
        #expect(try await Self.texts(api.base, token: annB) == [])
        // …changes and deletes nothing of A's…
        let patch = try await browser.send(
          Self.request(api.base, String(location.dropFirst()), "PATCH", token: annB, json: ["Text": "taken over"]))
        #expect(patch.status == 404)
        _ = try await browser.send(Self.request(api.base, String(location.dropFirst()), "DELETE", token: annB))
        #expect(try await Self.texts(api.base, token: annA) == ["A's secret"])
        // …and A's idempotency key is B's user's own key: a new task, not A's.
        let replay = try await browser.send(
          Self.request(api.base, "api/tasks", "POST", token: annB, json: ["Text": "B's own"], key: "key-1"))
        #expect(replay.status == 204 && replay.location != location, "\(String(describing: replay.location))")
        #expect(try await Self.texts(api.base, token: annB) == ["B's own"])
        #expect(try await Self.texts(api.base, token: annA) == ["A's secret"])
        // The API still shows a task's owner as the user's id, as the original did.
        let list = try await browser.send(Self.request(api.base, "api/tasks", token: annA))
        let owner = (try JSONSerialization.jsonObject(with: list.body) as? [[String: Any]])?.first?["Owner"] as? String
        #expect(owner == claimsA["oid"] as? String)
      }
    }
  }

  @Test(
    "M2: tasks kept before owners named their issuer become the one trusted issuer's users'",
    arguments: [TaskAPIHost.service, .postgres])
  func legacyRowsMove(host: TaskAPIHost) async throws {
    try await PlaygroundHarness.with { harness in
      let token = try #require(
        try await SignInDriver(harness).tokens("ann@example.com", "Tasks-Demo-1")["access_token"] as? String)
      let oid = try #require(try await TokenInspector(harness).claims(token)["oid"] as? String)
      // A database as the service kept it before: owners are bare subjects.
      let data = try TestDesktop.temporaryFolder("tasks-api-legacy")
      defer { try? FileManager.default.removeItem(at: data) }
      let database: String
      let row = PreviousRelease.Row(
        owner: oid, text: "kept from before", completed: false, dateModified: "2024-01-01 00:00:00")
      if host == .postgres {
        database = try await PreviousRelease.postgres(rows: [row])
      } else {
        database = data.appending(path: "tasks.sqlite").path
        try PreviousRelease.sqlite(at: database, rows: [row])
      }
      let api = try await TaskAPIProcess.start(database: database, issuerMetadata: harness.policyMetadata)
      try await withTeardown({ await api.stop() }) {
        let moved = try await eventually(timeout: .seconds(60)) {
          try await Self.texts(api.base, token: token) == ["kept from before"]
        }
        #expect(moved, "the old task did not reach its owner: \(api.process.standardError)")
      }
    }
  }

  @Test(
    "Issue 64, S6: two documents of one origin declaring one issuer with different keys: the service does not start, naming both; with the same keys it starts"
  )
  func twinIssuersOnOneOrigin() async throws {
    let a = try await PlaygroundHarness.start()
    let b = try await PlaygroundHarness.start()
    let folder = try TestDesktop.temporaryFolder("twin-issuers")
    try await withTeardown({
      await a.stop()
      await b.stop()
      try? FileManager.default.removeItem(at: folder)
    }) {
      func keys(_ harness: PlaygroundHarness) -> String {
        harness.base.appending(path: "\(PlaygroundHarness.tenant)/\(PlaygroundHarness.signIn)/discovery/v2.0/keys")
          .absoluteString
      }
      // One origin, two documents (/a/… and /b/…), both declaring the origin's /tenant/v2.0/ issuer; each with the
      // keys named by its argument.
      let documents = """
        def answer(origin, path):
            keys = {"/a/.well-known/openid-configuration": sys.argv[1], "/b/.well-known/openid-configuration": sys.argv[2]}
            if path not in keys:
                return None
            return {"issuer": origin + "/tenant/v2.0/", "jwks_uri": keys[path]}
        """
      for (secondKeys, starts) in [(keys(b), false), (keys(a), true)] {
        let server = try await ScriptServer.json(documents, [keys(a), secondKeys])
        defer { server.stop() }
        let first = server.origin + "/a/.well-known/openid-configuration"
        let second = server.origin + "/b/.well-known/openid-configuration"
        let arguments = [
          "--port", "0", "--database", folder.appending(path: "twins.sqlite").path, "--issuer-metadata", first,
          "--issuer-metadata", second, "--audience", PlaygroundHarness.clientID,
        ]
        if starts {
          let api = try await TaskAPIProcess.start(
            database: folder.appending(path: "tasks.sqlite").path, issuerMetadata: try #require(URL(string: first)),
            arguments: ["--issuer-metadata", second])
          await api.stop()
        } else {
          let refused = try await ChildProcess.run(TaskAPIProcess.program, arguments, timeout: .seconds(60))
          #expect(refused.status != 0 && refused.status != nil, "\(refused.output)")
          #expect(
            refused.error.contains(first) && refused.error.contains(second)
              && refused.error.contains("with different keys"), "\(refused.error)")
        }
      }
    }
  }

  /// A hostile issuer's metadata: its `issuer` is whatever the file `issuer` (argument 1) holds, its keys the URL in
  /// argument 2; 503 while that file does not exist.
  private static let hostileMetadata = """
    def answer(origin):
        if not os.path.exists(sys.argv[1]):
            return None
        return {"issuer": open(sys.argv[1]).read(), "jwks_uri": sys.argv[2]}
    """

  @Test(
    "Issue 45, L6: a B2C tenant's two policies declare one issuer: the service starts trusting both, and takes the tenant's tokens"
  )
  func onePoliciesTenant() async throws {
    let a = try await PlaygroundHarness.start()
    let folder = try TestDesktop.temporaryFolder("two-policies")
    try await withTeardown({
      await a.stop()
      try? FileManager.default.removeItem(at: folder)
    }) {
      let edit = a.base.appending(
        path: "\(PlaygroundHarness.tenant)/\(PlaygroundHarness.edit)/v2.0/.well-known/openid-configuration")
      let api = try await TaskAPIProcess.start(
        database: folder.appending(path: "tasks.sqlite").path, issuerMetadata: a.policyMetadata,
        arguments: ["--issuer-metadata", edit.absoluteString])
      try await withTeardown({ await api.stop() }) {
        let ann = try #require(
          try await SignInDriver(a).tokens("ann@example.com", "Tasks-Demo-1")["access_token"] as? String)
        #expect(try await Self.texts(api.base, token: ann) == [])
      }
    }
  }

  @Test(
    "Issue 45, L6: a metadata document may declare only an issuer its address names (OpenID Connect Discovery §4.3, as B2C and External ID allow)",
    arguments: [
      ("https://id.example.com/realms/t", "https://id.example.com/realms/t/.well-known/openid-configuration", true),
      ("https://id.example.com/", "https://id.example.com/.well-known/openid-configuration", true),
      (
        "https://contoso.b2clogin.com/775527ff-9a37-4307-8b3d-cc311f58d925/v2.0/",
        "https://contoso.b2clogin.com/contoso.onmicrosoft.com/B2C_1_signin/v2.0/.well-known/openid-configuration", true
      ),
      (
        "https://login.contoso.com/775527ff-9a37-4307-8b3d-cc311f58d925/v2.0/",
        "https://login.contoso.com/contoso.onmicrosoft.com/B2C_1_signin/v2.0/.well-known/openid-configuration", true
      ),
      (
        "https://775527ff-9a37-4307-8b3d-cc311f58d925.ciamlogin.com/775527ff-9a37-4307-8b3d-cc311f58d925/v2.0",
        "https://contoso.ciamlogin.com/contoso.onmicrosoft.com/v2.0/.well-known/openid-configuration", true
      ),
      // Hostile or wrong: another origin, port or scheme; a ciamlogin issuer from elsewhere or naming another tenant.
      (
        "https://contoso.b2clogin.com/775527ff-9a37-4307-8b3d-cc311f58d925/v2.0/",
        "https://evil.example/.well-known/openid-configuration", false
      ),
      ("http://127.0.0.1:5995/t/v2.0/", "http://127.0.0.1:5996/.well-known/openid-configuration", false),
      ("https://id.example.com/", "http://id.example.com/.well-known/openid-configuration", false),
      (
        "https://775527ff-9a37-4307-8b3d-cc311f58d925.ciamlogin.com/775527ff-9a37-4307-8b3d-cc311f58d925/v2.0",
        "https://evil.example/.well-known/openid-configuration", false
      ),
      (
        "https://775527ff-9a37-4307-8b3d-cc311f58d925.ciamlogin.com/00000000-0000-0000-0000-000000000000/v2.0",
        "https://contoso.ciamlogin.com/contoso.onmicrosoft.com/v2.0/.well-known/openid-configuration", false
      ),
      ("https://sso.example.org/", "https://contoso.ciamlogin.com/x/v2.0/.well-known/openid-configuration", false),
      ("not a URL", "https://id.example.com/.well-known/openid-configuration", false),
      // The playground's External ID, standing in for ciamlogin.com on loopback (as MSALInteropTests trust it).
      (
        "https://5b6e1c9a-2f4d-4e7b-9c3a-1d8f0e2b7a64.localhost:43591/5b6e1c9a-2f4d-4e7b-9c3a-1d8f0e2b7a64/v2.0",
        "https://127.0.0.1:43591/5b6e1c9a-2f4d-4e7b-9c3a-1d8f0e2b7a64/v2.0/.well-known/openid-configuration", true
      ),
      (
        "https://5b6e1c9a-2f4d-4e7b-9c3a-1d8f0e2b7a64.localhost:43591/5b6e1c9a-2f4d-4e7b-9c3a-1d8f0e2b7a64/v2.0",
        "https://127.0.0.1:43592/5b6e1c9a-2f4d-4e7b-9c3a-1d8f0e2b7a64/v2.0/.well-known/openid-configuration", false
      ),
      (
        "https://5b6e1c9a-2f4d-4e7b-9c3a-1d8f0e2b7a64.localhost:43591/5b6e1c9a-2f4d-4e7b-9c3a-1d8f0e2b7a64/v2.0",
        "https://evil.example:43591/5b6e1c9a-2f4d-4e7b-9c3a-1d8f0e2b7a64/v2.0/.well-known/openid-configuration", false
      ),
    ])
  func issuerNamedByAddress(issuer: String, metadata: String, allowed: Bool) throws {
    #expect(IssuerKeys.mayDeclare(issuer, at: try #require(URL(string: metadata))) == allowed)
  }

  @Test(
    "M2: a second trusted issuer whose metadata declares the first's iss gets none of its users' tasks: no start (not its own issuer, §4.3), and its tokens refused when it says so later"
  )
  func hostileIssuerNamesAnother() async throws {
    let a = try await PlaygroundHarness.start()
    let b = try await PlaygroundHarness.start()
    let folder = try TestDesktop.temporaryFolder("hostile-issuer")
    try await withTeardown({
      await a.stop(); await b.stop()
      try? FileManager.default.removeItem(at: folder)
    }) {
      let annA = try #require(
        try await SignInDriver(a).tokens("ann@example.com", "Tasks-Demo-1")["access_token"] as? String)
      let claimsA = try await TokenInspector(a).claims(annA)
      let issuerA = try #require(claimsA["iss"] as? String)
      // B's operator signs a token naming A's issuer and A's Ann, with B's own key, which B's document publishes.
      let forged = try await TokenForger(b).sign(
        ForgedClaims(
          iss: issuerA, aud: PlaygroundHarness.clientID, exp: Int(Date().timeIntervalSince1970) + 600,
          nbf: Int(Date().timeIntervalSince1970) - 10, oid: try #require(claimsA["oid"] as? String)))
      let claimed = folder.appending(path: "issuer")
      let keysB = b.base.appending(path: "\(PlaygroundHarness.tenant)/\(PlaygroundHarness.signIn)/discovery/v2.0/keys")
      let hostile = try await ScriptServer.json(Self.hostileMetadata, [claimed.path, keysB.absoluteString])
      defer { hostile.stop() }
      let hostileMetadata = try #require(URL(string: hostile.origin + "/.well-known/openid-configuration"))

      // Declaring A's issuer from the start: the service does not start, and says why.
      try Data(issuerA.utf8).write(to: claimed)
      let refused = try await ChildProcess.run(
        TaskAPIProcess.program,
        [
          "--port", "0", "--database", folder.appending(path: "refused.sqlite").path, "--issuer-metadata",
          a.policyMetadata.absoluteString, "--issuer-metadata", hostileMetadata.absoluteString, "--audience",
          PlaygroundHarness.clientID,
        ], timeout: .seconds(60))
      #expect(refused.status != 0 && refused.status != nil, "\(refused.output)")
      #expect(
        refused.error.contains("declares the issuer \(issuerA), which its address does not name"), "\(refused.error)")

      // Unreadable at the start, declaring A's issuer afterwards: its tokens are refused, and A's user's task stays
      // A's.
      try FileManager.default.removeItem(at: claimed)
      let api = try await TaskAPIProcess.start(
        database: folder.appending(path: "tasks.sqlite").path, issuerMetadata: a.policyMetadata,
        arguments: ["--issuer-metadata", hostileMetadata.absoluteString])
      try await withTeardown({ await api.stop() }) {
        let browser = Browser()
        let added = try await browser.send(
          Self.request(api.base, "api/tasks", "POST", token: annA, json: ["Text": "A's secret"]))
        #expect(added.status == 204)
        try Data(issuerA.utf8).write(to: claimed)
        // The hostile document is read once its backing off after the failed start read has passed.
        var answer = try await browser.send(Self.request(api.base, "api/tasks", token: forged))
        let refusedLater = await eventually(timeout: .seconds(60)) {
          answer = (try? await browser.send(Self.request(api.base, "api/tasks", token: forged))) ?? answer
          return answer.status == 401
        }
        #expect(refusedLater, "the forged token was answered \(answer.status): \(answer.text)")
        #expect(!answer.text.contains("A's secret"))
      }
    }
  }
}

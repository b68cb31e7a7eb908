// Interoperability with Microsoft's own client: an app written with MSAL Python (PyPI `msal`, which nobody here
// wrote) signs in against the playground over https through MSAL's loopback listener and a scripted browser, lists
// its accounts, refreshes silently, and calls the playground's task API and b2c-tasks-api with the access token it
// holds; the refresh token a refresh replaced is refused afterwards.

import B2CPlayground
import Foundation
import TasksTestSupport
import Testing

@Suite("Interoperability: MSAL Python", .serialized)
struct MSALInteropTests {
  @Test(
    "MSAL Python signs in (form_post to its listener), names the account, refreshes with rotation, calls both task APIs",
    arguments: [Flavor.b2c, .externalID])
  func msalPython(flavor: Flavor) async throws {
    let authority = try await TestAuthority.trusted()
    let identity = try authority.issue()
    let harness = try await PlaygroundHarness.start {
      $0.flavor = flavor
      $0.tls = .init(certificate: identity.certificate, key: identity.key)
    }
    let tenantID = PlaygroundConfiguration(dataDirectory: harness.data).tenantID
    let msalAuthority: URL
    let metadata: URL
    switch flavor {
    case .b2c:
      msalAuthority = harness.base.appending(path: "\(PlaygroundHarness.tenant)/\(PlaygroundHarness.signIn)")
      metadata = harness.policyMetadata
    default:
      msalAuthority = harness.base.appending(path: tenantID)
      metadata = msalAuthority.appending(path: "v2.0/.well-known/openid-configuration")
    }
    let api = try await TaskAPIProcess.start(
      database: harness.data.appending(path: "tasks.sqlite").path, issuerMetadata: metadata)
    let folder = try TestDesktop.temporaryFolder("msal")
    let browserLog = folder.appending(path: "browser.log")
    let text = "added with MSAL Python (\(flavor.rawValue))"
    let scopes =
      flavor == .b2c
      ? "https://\(PlaygroundHarness.tenant)/tasks/tasks.read https://\(PlaygroundHarness.tenant)/tasks/tasks.write"
      : PlaygroundHarness.clientID
    let run = {
      try await MSALClient.run(
        environment: [
          "MSAL_AUTHORITY": msalAuthority.absoluteString, "MSAL_CLIENT_ID": PlaygroundHarness.clientID,
          "MSAL_SCOPES": scopes,
          // A tenant on a host Microsoft's instance discovery does not know, as with External ID's custom domains.
          "MSAL_INSTANCE_DISCOVERY": flavor == .b2c ? "1" : "0",
          "TASK_APIS": "\(harness.base.absoluteString) \(api.base.absoluteString)", "TASK_TEXT": text,
          "REQUESTS_CA_BUNDLE": authority.certificateFile.path,
          "BROWSER": InteropProvider.browser.path, "INTEROP_BROWSER_DETACH": "1", "INTEROP_USER": "ann@example.com",
          "INTEROP_PASSWORD": "Tasks-Demo-1", "INTEROP_COOKIES": folder.appending(path: "cookies.txt").path,
          "INTEROP_BROWSER_LOG": browserLog.path,
        ])
    }
    let report: MSALClient.Report
    do {
      report = try await run()
    } catch {
      await api.stop()
      await harness.stop()
      throw error
    }
    await api.stop()
    await harness.stop()
    let pages = (try? String(contentsOf: browserLog, encoding: .utf8)) ?? ""
    try? FileManager.default.removeItem(at: folder)

    #expect(report.string("msal") == "1.39.0", "\(report)")
    #expect(report.bool("interactive", "ok"), "\(report)")
    let claims = report.object("id_token_claims")
    let oid = try #require(claims["oid"] as? String, "\(report)")
    #expect(claims["name"] as? String == "Ann Example")
    // The account MSAL keeps is Ann's, under the key Microsoft's client_info gives it.
    let accounts = report.list("accounts")
    #expect(accounts.count == 1, "\(report)")
    let account = accounts.first ?? [:]
    #expect(account["local_account_id"] as? String == oid)
    switch flavor {
    case .b2c:
      #expect(account["home_account_id"] as? String == "\(oid)-b2c_1_signuporsignin.\(tenantID)")
      #expect((claims["emails"] as? [String]) == ["ann@example.com"])
    default:
      #expect(account["home_account_id"] as? String == "\(oid).\(tenantID)")
      #expect(account["username"] as? String == "ann@example.com")
    }
    #expect(report.bool("silent_refresh", "ok"), "\(report)")
    #expect(report["refresh_token_rotated"] as? Bool == true, "\(report)")
    #expect(report.object("silent_cached")["source"] as? String == "cache", "\(report)")
    let apis = report.list("apis")
    #expect(apis.count == 2, "\(report)")
    for answer in apis {
      #expect((200..<300).contains(answer["add"] as? Int ?? 0), "\(answer)")
      #expect(answer["list"] as? Int == 200, "\(answer)")
      #expect((answer["texts"] as? [String]) == [text], "\(answer)")
      #expect(answer["without_token"] as? Int == 401, "\(answer)")
    }
    // The refresh token the refresh replaced is refused, and its family with it (what the app relies on too).
    let replay = report.object("replayed_refresh_token")
    #expect(replay["status"] as? Int == 400 && replay["code"] as? String == "AADB2C90129", "\(report)")
    #expect(
      !report.bool("refresh_after_replay", "ok")
        && report.object("refresh_after_replay")["error"] as? String == "invalid_grant")
    // The browser was given the authorize request and nothing else; the answer went to MSAL's listener in a form.
    #expect(pages.split(separator: "\n").allSatisfy { $0.hasSuffix("/oauth2/v2.0/authorize") }, "\(pages)")
  }
}

/// `Tests/Interop/msal/msal-client.py` in the interop virtualenv, and its JSON report.
enum MSALClient {
  static func run(environment: [String: String]) async throws -> Report {
    let interop = InteropProvider.folder
    // The first run installs the pinned packages from PyPI: minutes on a slow machine.
    let venv = try await ChildProcess.run(interop.appending(path: "venv.sh"), timeout: .seconds(900))
    try #require(venv.status == 0, "the interop virtualenv could not be made: \(venv.error)")
    let python = URL(filePath: venv.output.trimmingCharacters(in: .whitespacesAndNewlines)).appending(
      path: "bin/python")
    let run = try await ChildProcess.run(
      python, [interop.appending(path: "msal/msal-client.py").path], environment: environment, timeout: .seconds(300))
    let line = run.output.split(separator: "\n").last.map(String.init) ?? ""
    let json = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    let report = try #require(json, "msal-client.py said: \(run.output) \(run.error)")
    try #require(run.status == 0, "msal-client.py failed: \(report) \(run.error.suffix(3000))")
    return Report(values: report)
  }

  /// The script's report: outcomes, claims and account names, never a token.
  struct Report: CustomStringConvertible {
    let values: [String: Any]
    subscript(key: String) -> Any? { values[key] }
    func string(_ key: String) -> String? { values[key] as? String }
    func object(_ key: String) -> [String: Any] { values[key] as? [String: Any] ?? [:] }
    func list(_ key: String) -> [[String: Any]] { values[key] as? [[String: Any]] ?? [] }
    func bool(_ key: String, _ field: String) -> Bool { object(key)[field] as? Bool == true }
    var description: String {
      (try? JSONSerialization.data(withJSONObject: values, options: [.sortedKeys])).map {
        String(decoding: $0, as: UTF8.self)
      }
        ?? "\(values)"
    }
  }
}

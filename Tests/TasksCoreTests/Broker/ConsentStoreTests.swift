// Tests of the user's answers to the broker's question: kept per app and account, changed, forgotten, in a private
// file; a damaged file is a typed error, kept aside, and allows no one.

import Foundation
import TasksCore
import TasksTestSupport
import Testing

@Suite("Apps using your sign-in: the answers")
struct ConsentStoreTests {
  private func store() throws -> (ConsentStore, URL) {
    let home = try TestDesktop.temporaryFolder("consent")
    return (ConsentStore(environment: ["XDG_CONFIG_HOME": home.path, "HOME": "/nonexistent"]), home)
  }

  private func grant(_ app: String, _ account: String, allowed: Bool) -> Grant {
    Grant(
      app: app, appName: "Notes", account: account, accountName: "Ann Example (ann@example.com)", allowed: allowed,
      decided: Date(timeIntervalSince1970: 1_800_000_000))
  }

  @Test("answers per app and account; changed; forgotten; a new store reads the file; mode 0600")
  func roundTrip() async throws {
    let (store, home) = try store()
    #expect(await store.decision(app: "flatpak:org.example.Notes", account: "a") == nil)
    try await store.record(grant("flatpak:org.example.Notes", "a", allowed: true))
    try await store.record(grant("exe:/usr/bin/other", "a", allowed: false))
    #expect(await store.decision(app: "flatpak:org.example.Notes", account: "a") == true)
    #expect(await store.decision(app: "flatpak:org.example.Notes", account: "b") == nil, "another account")
    #expect(await store.decision(app: "exe:/usr/bin/other", account: "a") == false)
    try await store.setAllowed(false, app: "flatpak:org.example.Notes", account: "a")
    let again = ConsentStore(environment: ["XDG_CONFIG_HOME": home.path])
    #expect(await again.decision(app: "flatpak:org.example.Notes", account: "a") == false)
    #expect(try await again.all().count == 2)
    try await again.forget(app: "exe:/usr/bin/other", account: "a")
    #expect(await again.decision(app: "exe:/usr/bin/other", account: "a") == nil)
    #expect(store.file.path == home.path + "/io.github.b2ctasks.B2CTasks/broker-grants.json")
    let attributes = try FileManager.default.attributesOfItem(atPath: store.file.path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    let text = try String(contentsOf: store.file, encoding: .utf8)
    #expect(!text.contains("token"), "answers only")
  }

  @Test("a damaged or unknown file: a typed error, the file kept aside, nobody allowed, asked again")
  func damaged() async throws {
    for contents in ["{not json", #"{"version":2,"grants":[]}"#, #"{"version":1,"grants":[{"app":""}]}"#] {
      let (store, _) = try store()
      try FileManager.default.createDirectory(
        at: store.file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(contents.utf8).write(to: store.file)
      await #expect(throws: ConsentStoreError.self) { try await store.all() }
      #expect(await store.decision(app: "flatpak:org.example.Notes", account: "a") == nil)
      #expect(FileManager.default.fileExists(atPath: store.file.path + ".unreadable"), "kept for a person to see")
      #expect(await store.problem != nil, "the preferences can say what happened")
      try await store.record(grant("flatpak:org.example.Notes", "a", allowed: true))
      #expect(await store.decision(app: "flatpak:org.example.Notes", account: "a") == true)
    }
    #expect(throws: ConsentStoreError.unreadable("not a list of answers")) { try ConsentStore.parse(Data("[]".utf8)) }
  }
}

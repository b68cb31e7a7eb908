// The list asked for only if it changed: the client sends the list's version (its ETag) back in If-None-Match and
// takes the playground's 304 as "still that list", over both transports.

import Foundation
import TasksCore
import TasksTestSupport
import Testing

@Suite("The list, only if it changed")
struct ListVersionTests {
  @Test(
    "a list comes with its version; asked with it, an unchanged list is a 304, a changed one comes whole",
    arguments: Transport.allCases)
  func unlessStill(_ transport: Transport) async throws {
    try await SessionHarness.with { harness in
      let session = harness.session(transport: transport)
      _ = try await harness.signIn(session)
      let api = TaskAPIClient(session: session)
      _ = try await api.add("water the plants")

      let first = try #require(try await api.list(unlessStill: nil), "no list without a version to compare")
      #expect(first.tasks.map(\.text) == ["water the plants"])
      let version = try #require(first.version, "the list came without a version (ETag)")
      #expect(try await api.list(unlessStill: version) == nil, "an unchanged list was sent again")

      _ = try await api.add("call the plumber")
      let changed = try #require(try await api.list(unlessStill: version), "a changed list was answered 304")
      #expect(changed.tasks.map(\.text).sorted() == ["call the plumber", "water the plants"])
      #expect(changed.version != nil && changed.version != version)
      // A version the server never gave: the whole list.
      #expect(try await api.list(unlessStill: "\"no such version\"")?.tasks.count == 2)
    }
  }
}

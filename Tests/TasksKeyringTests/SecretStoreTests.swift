// Tests of the libsecret adapter against a real gnome-keyring on the test's D-Bus session.

import Foundation
import TasksKeyring
import TasksTestSupport
import Testing

@Suite("Keyring", .enabled(if: TestDesktop.hasSessionBus || TestDesktop.isRequired))
struct SecretStoreTests {
  let store = SecretStore()
  let group = "test.group.\(UUID().uuidString)"

  private func attributes(account: String) -> [String: String] {
    [
      "keychain-group": group, "client-id": "client", "authority": "http://127.0.0.1:5995",
      "tenant": "t.onmicrosoft.com", "policy": "B2C_1_x", "account": account, "kind": "session",
    ]
  }

  @Test("a stored secret is found again, replaced in place, and cleared")
  func roundTrip() async throws {
    let ann = attributes(account: "ann")
    #expect(try await store.lookup(ann) == nil)
    try await store.store("{\"refresh\":\"one\"}", label: "B2C Tasks test", attributes: ann)
    #expect(try await store.lookup(ann) == "{\"refresh\":\"one\"}")
    try await store.store("{\"refresh\":\"two\"}", label: "B2C Tasks test", attributes: ann)
    #expect(try await store.lookup(ann) == "{\"refresh\":\"two\"}")
    #expect(try await store.clear(ann))
    #expect(try await store.lookup(ann) == nil)
    #expect(try await store.clear(ann) == false)
  }

  @Test("clearing by keychain group removes every account of the group and nothing else")
  func clearGroup() async throws {
    try await store.store("a", label: "test", attributes: attributes(account: "ann"))
    try await store.store("b", label: "test", attributes: attributes(account: "bob"))
    var other = attributes(account: "ann")
    other["keychain-group"] = group + ".other"
    try await store.store("c", label: "test", attributes: other)
    #expect(try await store.lookup(["keychain-group": group]) != nil)
    #expect(try await store.clear(["keychain-group": group]))
    #expect(try await store.lookup(attributes(account: "ann")) == nil)
    #expect(try await store.lookup(attributes(account: "bob")) == nil)
    #expect(try await store.lookup(other) == "c")
    try await store.clear(other)
  }

  @Test(
    "a secret with any characters survives", arguments: ["", "ünïcödé ✓ 任务", String(repeating: "x", count: 20_000)])
  func content(secret: String) async throws {
    let item = attributes(account: "content")
    try await store.store(secret, label: "test", attributes: item)
    #expect(try await store.lookup(item) == secret)
    try await store.clear(item)
  }
}

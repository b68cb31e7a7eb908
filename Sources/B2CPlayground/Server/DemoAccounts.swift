// DemoAccounts: the accounts a new playground starts with (documented in the README). Constant.

import Foundation

/// Two demo users, created when the database has no users yet.
public enum DemoAccounts {
  /// Email, password and display name of each demo account.
  public static let accounts = [
    (email: "ann@example.com", password: "Tasks-Demo-1", name: "Ann Example"),
    (email: "bob@example.com", password: "Tasks-Demo-2", name: "Bob Example"),
  ]

  static func seed(_ identity: IdentityService) async throws {
    guard try await identity.store.userCount() == 0 else { return }
    for account in accounts {
      _ = try await identity.signUp(
        email: account.email, password: account.password, confirmation: account.password, displayName: account.name)
    }
  }
}

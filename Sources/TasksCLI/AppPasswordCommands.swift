// `b2c-tasks-cli app-passwords`: the passwords CalDAV clients (a phone, Thunderbird, Evolution) sign in with.

import ArgumentParser
import Foundation
import TasksCore

struct AppPasswordsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "app-passwords",
    abstract: "Passwords for CalDAV apps (your phone, Thunderbird, Evolution): one per device, revocable one by one.",
    subcommands: [AddAppPassword.self, ShowAppPasswords.self, RevokeAppPassword.self],
    defaultSubcommand: ShowAppPasswords.self)
}

struct AddAppPassword: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "add", abstract: "Make a password for a device: it is shown this once.")
  @OptionGroup var options: CommonOptions
  @Argument(help: "The device's name, as Phone.") var name: [String]

  func run() async throws {
    let context = try await Context(options, connecting: false)
    try await context.run {
      let made = try await context.tasks.makeAppPassword(name: name.joined(separator: " "))
      let address = context.tasks.calDAVAddress.absoluteString
      context.output(
        """
        In the CalDAV app of “\(made.name)”, sign in with:
          Address:   \(address)
          User name: \(made.username)
          Password:  \(made.password ?? "")
        The password is shown this once; revoke it with: b2c-tasks-cli app-passwords revoke \(made.name)
        """,
        json: [
          "id": made.id.uuidString.lowercased(), "name": made.name, "username": made.username,
          "password": made.password ?? "", "address": address,
        ])
    }
  }
}

struct ShowAppPasswords: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", abstract: "Show your app passwords and when each was last used.")
  @OptionGroup var options: CommonOptions

  func run() async throws {
    let context = try await Context(options)
    try await context.run {
      let passwords = try await context.tasks.appPasswords()
      let lines = passwords.map { item in
        let used =
          item.lastUsedAt.map { "last used \($0.formatted(date: .abbreviated, time: .shortened))" } ?? "never used"
        return "\(item.name)  (made \(item.createdAt.formatted(date: .abbreviated, time: .omitted)), \(used))"
      }
      context.output(
        passwords.isEmpty ? "No app passwords." : lines.joined(separator: "\n"),
        json: passwords.map { item -> [String: Any] in
          [
            "id": item.id.uuidString.lowercased(), "name": item.name, "username": item.username,
            "createdAt": item.createdAt.formatted(.iso8601),
            "lastUsedAt": item.lastUsedAt.map { $0.formatted(.iso8601) } ?? NSNull(),
          ]
        })
    }
  }
}

struct RevokeAppPassword: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "revoke", abstract: "Revoke an app password (by its name or id): its device is refused at once.")
  @OptionGroup var options: CommonOptions
  @Argument(help: "The password's name or id.") var name: [String]

  func run() async throws {
    let context = try await Context(options)
    try await context.run {
      let wanted = name.joined(separator: " ")
      let passwords = try await context.tasks.appPasswords()
      let matching = passwords.filter {
        $0.id.uuidString.lowercased() == wanted.lowercased()
          || $0.name.localizedCaseInsensitiveCompare(wanted) == .orderedSame
      }
      guard matching.count == 1, let item = matching.first else {
        let names = passwords.map(\.name).joined(separator: ", ")
        throw CLIFailure(
          status: 2, code: "app-password",
          message: matching.isEmpty
            ? "No app password is named \(wanted)" + (names.isEmpty ? "." : " (yours: \(names)).")
            : "Several app passwords are named \(wanted): revoke one by its id (b2c-tasks-cli app-passwords list --json)."
        )
      }
      try await context.tasks.revokeAppPassword(id: item.id)
      context.output("Revoked the app password \(item.name).", json: ["revoked": item.id.uuidString.lowercased()])
    }
  }
}

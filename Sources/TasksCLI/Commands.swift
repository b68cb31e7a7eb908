// The commands of b2c-tasks-cli other than sign-in.

import ArgumentParser
import Foundation
import TasksAccount
import TasksCore

struct Status: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Show who is signed in.")
  @OptionGroup var options: CommonOptions

  func run() async throws {
    let context = try await Context(options)
    try await context.run {
      if let account = try await context.session.restore() {
        context.output(account.signedInLine, json: ["signedIn": true, "account": account.json])
      } else {
        context.output("Not signed in.", json: ["signedIn": false])
      }
    }
  }
}

struct List: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "List your tasks.")
  @OptionGroup var options: CommonOptions

  func run() async throws {
    let context = try await Context(options)
    try await context.run {
      let tasks = try await context.tasks.list()
      let text =
        tasks.isEmpty
        ? "No tasks." : tasks.map { "\($0.id)\t[\($0.completed ? "x" : " ")] \($0.text)" }.joined(separator: "\n")
      context.output(
        text,
        json: tasks.map {
          [
            "id": $0.id, "text": $0.text, "completed": $0.completed,
            "dateModified": $0.dateModified.map { $0.formatted(.iso8601) } ?? NSNull(),
          ] as [String: Any]
        })
    }
  }
}

struct Add: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Add a task.")
  @OptionGroup var options: CommonOptions
  @Argument(help: "The task's text.") var text: [String]

  func validate() throws {
    guard !text.joined(separator: " ").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      throw ValidationError("The task needs some text.")
    }
  }

  func run() async throws {
    let context = try await Context(options)
    let task = text.joined(separator: " ")
    try await context.run {
      try await context.tasks.add(task, idempotencyKey: UUID().uuidString)
      context.output("Added: \(task)", json: ["added": task])
    }
  }
}

struct Done: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Mark a task done (or, with --undo, not done).")
  @OptionGroup var options: CommonOptions
  @Argument(help: "The task's id (see list).") var id: Int64
  @Flag(help: "Mark it not done.") var undo = false

  func run() async throws {
    let context = try await Context(options)
    try await context.run {
      try await context.tasks.update(id: id, completed: !undo)
      context.output(undo ? "Task \(id) is not done." : "Task \(id) is done.", json: ["id": id, "completed": !undo])
    }
  }
}

struct Delete: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Delete a task.")
  @OptionGroup var options: CommonOptions
  @Argument(help: "The task's id (see list).") var id: Int64

  func run() async throws {
    let context = try await Context(options)
    try await context.run {
      try await context.tasks.delete(id: id)
      context.output("Deleted task \(id).", json: ["deleted": id])
    }
  }
}

struct SignOut: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Sign out of every B2C Tasks app of this keychain group, and of B2C in the browser.")
  @OptionGroup var options: CommonOptions
  @Flag(help: "Do not open the browser to end B2C's own session.") var noBrowser = false

  func run() async throws {
    let context = try await Context(options)
    try await context.run {
      _ = try await context.session.restore()
      let logout = try await context.session.signOut()
      // The app's sign-in view keeps the provider's "Keep me signed in" cookies: without them its next Sign In asks
      // for the password, as after the app's own Sign Out.
      WebSessionFolders().remove()
      if !noBrowser, let logout { try? Browser.open(logout.url) }  // no token in it: argv and history are public
      context.output("Signed out.", json: ["signedIn": false])
    }
  }
}

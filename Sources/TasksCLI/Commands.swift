// The commands of b2c-tasks-cli other than sign-in.

import ArgumentParser
import Foundation
import TasksAccount
import TasksCore

struct Status: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "status", abstract: "Show who is signed in.")
  @OptionGroup var options: CommonOptions

  func run() async throws {
    let context = try await Context(options, connecting: false)
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
  static let configuration = CommandConfiguration(
    commandName: "list", abstract: "List your tasks (of your default list, or --list).")
  @OptionGroup var options: CommonOptions
  @Option(help: "The list to show (by name).") var list: String?

  func run() async throws {
    let context = try await Context(options)
    try await context.run {
      let tasks: [PlannerItem]
      do {
        tasks = ManualOrder.sorted(try await context.tasks.plannerTasks(list: try await context.list(named: list).id))
      } catch TaskAPIError.notFound where list == nil {
        // A task service of the sample's API alone (no /api/v2).
        return try await listV1(context)
      }
      context.output(
        tasks.isEmpty ? "No tasks." : tasks.map(\.cliLine).joined(separator: "\n"), json: tasks.map(\.cliJSON))
    }
  }

  private func listV1(_ context: Context) async throws {
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

struct Add: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "add",
    abstract: "Add a task, with a due date, repeat, reminders, priority and note if you like.")
  @OptionGroup var options: CommonOptions
  @OptionGroup var planner: PlannerOptions
  @Argument(help: "The task's text.") var text: [String]

  func validate() throws {
    guard !text.joined(separator: " ").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      throw ValidationError("The task needs some text.")
    }
  }

  func run() async throws {
    let context = try await Context(options)
    let title = text.joined(separator: " ")
    try await context.run {
      // The phrases are read before anything is sent: one that does not read changes nothing.
      let placeholder = PlannerItem(id: UUID(), listID: UUID(), title: title, createdAt: Date())
      var item = try context.applying(planner, to: placeholder)
      do {
        item.listID = try await context.list(named: planner.list).id
      } catch TaskAPIError.notFound where planner.isEmpty {
        // A task service of the sample's API alone (no /api/v2).
        try await context.tasks.add(title, idempotencyKey: UUID().uuidString)
        return context.output("Added: \(title)", json: ["added": title])
      }
      let added = try await context.tasks.createTask(item)
      if !added.reminders.isEmpty { context.tellReminderService() }
      context.output("Added: \(added.cliLine)", json: added.cliJSON)
    }
  }
}

struct Done: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "done",
    abstract: "Mark a task done (a repeating one moves to its next date), or with --undo not done.")
  @OptionGroup var options: CommonOptions
  @Argument(help: "The task's id, or its start (see list).") var id: String
  @Flag(help: "Mark it not done.") var undo = false

  func run() async throws {
    let context = try await Context(options)
    try await context.run {
      // A task of the v2 lists whose id starts so, else a number of the sample's API.
      let found = try await context.task(id)
      if found == nil, let number = Int64(id) {
        try await context.tasks.update(id: number, completed: !undo)
        return context.output(
          undo ? "Task \(number) is not done." : "Task \(number) is done.", json: ["id": number, "completed": !undo])
      }
      guard let task = found else { throw CLIFailure.unknownTask(id) }
      let after: PlannerItem
      if undo {
        var open = task
        open.status = .needsAction
        open.completedAt = nil
        guard case .done(let changed) = try await context.tasks.changeTask(open, fields: [.status], ifMatch: nil) else {
          return
        }
        after = changed
      } else {
        after = try await context.tasks.complete(
          list: task.listID, id: task.id, occurrence: task.due?.date ?? Context.today, today: Context.today)
      }
      if !task.reminders.isEmpty { context.tellReminderService() }
      let text =
        after.status == .completed
        ? "Done: \(after.title)"
        : undo ? "Not done: \(after.title)" : "Done: \(after.title); next: \(after.cliLine)"
      context.output(text, json: after.cliJSON)
    }
  }
}

struct Delete: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "delete", abstract: "Delete a task (and its subtasks).")
  @OptionGroup var options: CommonOptions
  @Argument(help: "The task's id, or its start (see list).") var id: String

  func run() async throws {
    let context = try await Context(options)
    try await context.run {
      let found = try await context.task(id)
      if found == nil, let number = Int64(id) {
        try await context.tasks.delete(id: number)
        return context.output("Deleted task \(number).", json: ["deleted": number])
      }
      guard let task = found else { throw CLIFailure.unknownTask(id) }
      try await context.tasks.deleteTask(list: task.listID, id: task.id)
      if !task.reminders.isEmpty { context.tellReminderService() }
      context.output("Deleted: \(task.title)", json: ["deleted": task.id.uuidString.lowercased()])
    }
  }
}

struct SignOut: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sign-out",
    abstract: "Sign out of every B2C Tasks app of this keychain group, and of B2C in the browser.")
  @OptionGroup var options: CommonOptions
  @Flag(help: "Do not open the browser to end B2C's own session.") var noBrowser = false
  @Flag(help: "Sign out even when changes made offline have not reached the task service (they are discarded).")
  var discardWaiting = false

  func run() async throws {
    let context = try await Context(options, connecting: false)
    try await context.run {
      let account = try await context.session.restore()
      let files = account.map { AccountFiles(account: $0, in: context.session.key) }
      // The window and the reminder service send what waits; a sign-out removes it, so it is refused unless asked.
      if let files, !discardWaiting, case let waiting = await files.waitingChanges(), waiting > 0 {
        throw CLIFailure(
          status: 1, code: "changes-waiting",
          message: String(
            template: trn(
              "%d change made while offline has not reached the task service yet. Open B2C Tasks while online to send it, or sign out with --discard-waiting to discard it.",
              "%d changes made while offline have not reached the task service yet. Open B2C Tasks while online to send them, or sign out with --discard-waiting to discard them.",
              waiting), waiting))
      }
      let logout = try await context.session.signOut()
      // What the window's sign-out forgets, by the same rule: every file of the account, and the sign-in view's
      // "Keep me signed in" cookies (without them its next Sign In asks for the password, as after the app's own
      // Sign Out).
      files?.forget()
      WebSessionFolders().remove()
      context.tellReminderService()  // it withdraws the account's notifications
      if !noBrowser, let logout { try? Browser.open(logout.url) }  // no token in it: argv and history are public
      context.output("Signed out.", json: ["signedIn": false])
    }
  }
}

// The planner's commands of b2c-tasks-cli (the task API v2): lists, sharing, and adding with a due date, a repeat,
// reminders, a priority and a note read from phrases in the user's language or English.

import ArgumentParser
import Foundation
import TasksCore

struct Lists: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lists",
    abstract: "Your lists (shared ones marked); add, share, join or leave one.",
    subcommands: [ShowLists.self, AddList.self, ShareList.self, JoinList.self, LeaveList.self],
    defaultSubcommand: ShowLists.self)
}

struct ShowLists: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "show", abstract: "Show your lists.")
  @OptionGroup var options: CommonOptions

  func run() async throws {
    let context = try await Context(options)
    try await context.run {
      let lists = try await context.tasks.plannerLists()
      let text = lists.map { list in
        list.name + (list.isDefault ? "  (default)" : "")
          + (list.role == .member ? "  (shared with you)" : list.shared ? "  (shared)" : "")
      }.joined(separator: "\n")
      context.output(text, json: lists.map(\.cliJSON))
    }
  }
}

struct AddList: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a list.")
  @OptionGroup var options: CommonOptions
  @Argument(help: "The list's name.") var name: [String]

  func run() async throws {
    let context = try await Context(options)
    let name = self.name.joined(separator: " ")
    try await context.run {
      let list = try await context.tasks.createList(id: UUID(), name: name)
      context.output("Added the list \(list.name).", json: list.cliJSON)
    }
  }
}

struct ShareList: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "share", abstract: "Print a code another person joins your list with (single use, 7 days).")
  @OptionGroup var options: CommonOptions
  @Argument(help: "The list's name.") var name: [String]

  func run() async throws {
    let context = try await Context(options)
    try await context.run {
      let list = try await context.list(named: name.joined(separator: " "))
      let invitation = try await context.tasks.invite(list: list.id)
      context.output(
        "Send this code to the person to share \(list.name) with (it works once, until "
          + "\(invitation.expiresAt.formatted(date: .abbreviated, time: .shortened))):\n\(invitation.code)",
        json: ["code": invitation.code, "expiresAt": invitation.expiresAt.formatted(.iso8601)])
    }
  }
}

struct JoinList: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "join",
    abstract: "Join a list shared with you: give the code you were sent on standard input (never on the command line).")
  @OptionGroup var options: CommonOptions

  func run() async throws {
    let context = try await Context(options, connecting: false)
    // Not an argument: every local user can read a command line, and the first to use a code gets the list.
    if isatty(STDIN_FILENO) == 1 { FileHandle.standardError.write(Data("The code you were sent: ".utf8)) }
    let code = (readLine(strippingNewline: true) ?? "").trimmingCharacters(in: .whitespaces)
    try await context.run {
      guard !code.isEmpty else { throw CLIFailure(status: 2, code: "invitation", message: "No code was given.") }
      let list: PlannerListItem
      do { list = try await context.tasks.join(code: code) } catch TaskAPIError.notFound {
        throw CLIFailure(status: 2, code: "invitation", message: "This code is unknown, used or expired.")
      }
      context.output("Joined the list \(list.name).", json: list.cliJSON)
    }
  }
}

struct LeaveList: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "leave", abstract: "Leave a list shared with you.")
  @OptionGroup var options: CommonOptions
  @Argument(help: "The list's name.") var name: [String]

  func run() async throws {
    let context = try await Context(options)
    try await context.run {
      let list = try await context.list(named: name.joined(separator: " "))
      guard list.role == .member else {
        throw CLIFailure(
          status: 2, code: "owner",
          message: "\(list.name) is your own list: you cannot leave it (delete it in the app).")
      }
      try await context.tasks.removeMember(list: list.id, member: nil)
      context.output("You left the list \(list.name).", json: ["left": list.name])
    }
  }
}

/// The options of `add` that need the task API v2.
struct PlannerOptions: ParsableArguments {
  @Option(help: "The list to add to (by name; default: your default list).") var list: String?
  @Option(help: "When it is due: \"tomorrow 9:00\", \"fri\", \"in 3 days\" (your language or English).") var due:
    String?
  @Option(name: .customLong("repeat"), help: "How it repeats: \"every week\", \"every weekday\", \"monthly\".")
  var repeats: String?
  @Option(help: "A reminder: \"in 10 minutes\", \"at 17:00\", \"1 hour before\".") var remind: [String] = []
  @Option(help: "high, medium or low.") var priority: String?
  @Option(help: "A note.") var note: String?

  var isEmpty: Bool {
    list == nil && due == nil && repeats == nil && remind.isEmpty && priority == nil && note == nil
  }
}

extension Context {
  /// The user's list named `name` (any case), or the default one; exit status 2 naming the lists when none is.
  func list(named name: String?) async throws -> PlannerListItem {
    let lists = try await tasks.plannerLists()
    guard let name else {
      guard let list = lists.first(where: \.isDefault) ?? lists.first else {
        throw CLIFailure(status: 1, code: "no-list", message: "The task service gave no list.")
      }
      return list
    }
    let wanted = name.lowercased()
    guard let list = lists.first(where: { $0.name.lowercased() == wanted }) else {
      throw CLIFailure(
        status: 2, code: "unknown-list",
        message: "You have no list named “\(name)”. Your lists: " + lists.map(\.name).joined(separator: ", "))
    }
    return list
  }

  /// The language phrases are read in (besides English): LANGUAGE's first, else the locale's.
  static var phraseLanguage: String { DatePhraseParser.userLanguage() }

  /// Today on this computer's clock, as the window and the reminder service have it.
  static var today: CalendarDate { DueLabel.now().today }

  /// `item` with what the options say; a phrase that does not read is exit status 2, and nothing is sent.
  func applying(_ options: PlannerOptions, to item: PlannerItem) throws -> PlannerItem {
    var item = item
    let parser = DatePhraseParser(language: Self.phraseLanguage, today: Self.today)
    func read(_ phrase: String, _ what: String) throws -> DatePhrase {
      do { return try parser.parse(phrase) } catch {
        let words = if case .notUnderstood(let words) = error { words } else { phrase }
        throw CLIFailure(
          status: 2, code: "phrase", message: "Cannot read the \(what) “\(phrase)”: “\(words)” is not understood.")
      }
    }
    if let due = options.due {
      let said = try read(due, "due date")
      guard let date = said.date else {
        throw CLIFailure(status: 2, code: "phrase", message: "“\(due)” says no day.")
      }
      item.due = TaskDue(date: date, time: said.time, timeZone: said.time == nil ? nil : Self.timeZone)
      if let rule = said.recurrence { item.recurrence = TaskRecurrence(rule: rule) }
    }
    if let repeats = options.repeats {
      let said = try read(repeats, "repeat")
      guard let rule = said.recurrence else {
        throw CLIFailure(status: 2, code: "phrase", message: "“\(repeats)” says no repeat (try “every week”).")
      }
      item.recurrence = TaskRecurrence(rule: rule)
      if item.due == nil, let first = said.date { item.due = TaskDue(date: first) }
    }
    for phrase in options.remind {
      guard let reminder = ReminderPhrase.read(phrase, language: Self.phraseLanguage, parser: parser) else {
        throw CLIFailure(status: 2, code: "phrase", message: "Cannot read the reminder “\(phrase)”.")
      }
      do throws(ReminderText.Problem) {
        item.reminders.append(TaskReminder(try ReminderText.reminder(reminder, due: item.due, today: Self.today)))
      } catch .needsDueDate {
        throw CLIFailure(status: 2, code: "phrase", message: "“\(phrase)” needs a due date (--due).")
      } catch {
        throw CLIFailure(status: 2, code: "phrase", message: "Cannot read the reminder “\(phrase)”.")
      }
    }
    if let priority = options.priority {
      guard let value = ["high": 1, "medium": 5, "low": 9, "none": 0][priority.lowercased()] else {
        throw CLIFailure(status: 2, code: "priority", message: "The priority is high, medium, low or none.")
      }
      item.priority = value
    }
    if let note = options.note { item.notes = note }
    return item
  }

  /// The user's IANA time zone, if it has such a name.
  static var timeZone: String? {
    let name = TimeZone.current.identifier
    return name.contains("/") || name == "UTC" ? name : nil
  }

  /// Every task of the user's lists (one read of the change feed, all its pages).
  func allTasks() async throws -> [PlannerItem] {
    try await PlannerReplica.read(tasks, since: nil, limit: nil).tasks
  }

  /// The task whose id starts with `prefix` (at least 4 characters), nil when none does (or the service has no v2);
  /// exit status 2 when more than one does.
  func task(_ prefix: String) async throws -> PlannerItem? {
    let wanted = prefix.lowercased()
    guard wanted.count >= 4 else { return nil }
    let all: [PlannerItem]
    do { all = try await allTasks() } catch TaskAPIError.notFound { return nil }
    let found = all.filter { $0.id.uuidString.lowercased().hasPrefix(wanted) }
    guard found.count <= 1 else {
      throw CLIFailure(status: 2, code: "ambiguous-task", message: "More than one task's id starts with \(prefix).")
    }
    return found.first
  }

}

extension CLIFailure {
  /// No task has this id (exit status 2).
  static func unknownTask(_ id: String) -> CLIFailure {
    CLIFailure(status: 2, code: "unknown-task", message: "No task has the id \(id).")
  }
}

extension PlannerListItem {
  var cliJSON: [String: Any] {
    [
      "id": id.uuidString.lowercased(), "name": name, "isDefault": isDefault, "role": role.rawValue, "shared": shared,
      "version": version,
    ]
  }
}

extension PlannerItem {
  /// The task as the API writes it, for `--json`.
  var cliJSON: Any {
    (try? JSONSerialization.jsonObject(with: json)) ?? [String: Any]()
  }

  /// One line for people: the short id, the box, the title, then what else it has.
  var cliLine: String {
    var details: [String] = []
    if let due {
      details.append("due \(due.date)" + (due.time.map { " \($0)" } ?? ""))
    }
    if let recurrence { details.append("repeats \(recurrence.rule.rrule)") }
    if priority > 0 { details.append(priority <= 4 ? "!high" : priority == 5 ? "!medium" : "!low") }
    if !reminders.isEmpty { details.append("\(reminders.count) reminder" + (reminders.count == 1 ? "" : "s")) }
    if !notes.isEmpty { details.append("note") }
    let line = "\(id.uuidString.lowercased().prefix(8))\t[\(status == .completed ? "x" : " ")] \(title)"
    return details.isEmpty ? line : line + "  (" + details.joined(separator: ", ") + ")"
  }
}

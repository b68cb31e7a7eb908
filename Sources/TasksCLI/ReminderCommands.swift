// The reminders of b2c-tasks-cli: `reminders` lists the coming ones (snoozed ones at their snooze's end, those due
// and not acknowledged first), `snooze` puts off a task's due or snoozed ones, and every command that changes tasks
// tells the reminder service, if it runs.

import ArgumentParser
import Foundation
import GLibSupport
import TasksCore

struct Reminders: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "reminders",
    abstract: "List your coming reminders (b2c-tasks --background shows them as notifications).")
  @OptionGroup var options: CommonOptions

  func run() async throws {
    let context = try await Context(options)
    try await context.run {
      let changes = try await PlannerReplica.read(context.tasks, since: nil, limit: 1_000) { task in
        !task.reminderTimes.isEmpty
      }
      let names = Dictionary(changes.lists.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
      let now = Date()
      let coming = changes.tasks.flatMap { task in
        task.reminderTimes.map { (task: task, at: $0.at, snoozed: task.reminders[$0.index].snoozedUntil == $0.at) }
      }.sorted { ($0.at, $0.task.title) < ($1.at, $1.task.title) }
      let text = coming.map { reminder in
        let when = reminder.at.formatted(date: .abbreviated, time: .shortened)
        let notes = [reminder.at <= now ? "due" : nil, reminder.snoozed ? "snoozed" : nil].compactMap { $0 }
        return "\(when)\t\(reminder.task.title)  (\(names[reminder.task.listID] ?? "?")"
          + (notes.isEmpty ? "" : ", " + notes.joined(separator: ", ")) + ")"
      }
      context.output(
        coming.isEmpty ? "No reminders to come." : text.joined(separator: "\n"),
        json: coming.map { reminder in
          [
            "task": reminder.task.id.uuidString.lowercased(), "title": reminder.task.title,
            "list": names[reminder.task.listID] ?? "", "at": reminder.at.formatted(.iso8601),
            "snoozed": reminder.snoozed, "due": reminder.at <= now,
          ] as [String: Any]
        })
    }
  }
}

struct Snooze: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "snooze",
    abstract: "Snooze a task's reminders that are due or snoozed: they fire again later, on every device.")
  @OptionGroup var options: CommonOptions
  @Argument(help: "The task's id, or its start (see list).") var id: String
  @Option(
    help:
      "When they fire again: \"in 30 minutes\", \"at 17:00\", \"tomorrow 9am\" (in \(AppIdentity.Reminders.snoozeMinutes) minutes if not given)."
  )
  var until: String?

  func run() async throws {
    let context = try await Context(options)
    try await context.run {
      let now = Date()
      let end = try Self.end(until, now: now)
      guard let task = try await context.task(id) else { throw CLIFailure.unknownTask(id) }
      let snoozed = ReminderAgenda.snoozed(task, now: now, until: end, again: true)
      guard snoozed.reminders != task.reminders else {
        throw CLIFailure(
          status: 2, code: "nothing-due",
          message: "No reminder of “\(task.title)” is due or snoozed: nothing to snooze.")
      }
      guard case .done(let changed) = try await context.tasks.changeTask(snoozed, fields: [.reminders], ifMatch: nil)
      else { return }
      context.tellReminderService()
      context.output(
        "Snoozed until \(end.formatted(date: .abbreviated, time: .shortened)): \(changed.title)", json: changed.cliJSON)
    }
  }

  /// When a snooze said so ends: a moment to come ("in 30 minutes", "at 17:00", "tomorrow 9am"); exit status 2
  /// for a phrase that does not read, is no moment ("1 hour before"), or has passed.
  static func end(_ phrase: String?, now: Date) throws -> Date {
    guard let phrase else { return now.addingTimeInterval(TimeInterval(AppIdentity.Reminders.snoozeMinutes * 60)) }
    let parser = DatePhraseParser(language: Context.phraseLanguage, today: Context.today)
    let unreadable = CLIFailure(
      status: 2, code: "phrase",
      message: "Cannot read the snooze’s end “\(phrase)” (try “in 30 minutes” or “at 17:00”).")
    guard let said = ReminderPhrase.read(phrase, language: Context.phraseLanguage, parser: parser) else {
      throw unreadable
    }
    guard case .at(let end) = try? ReminderText.reminder(said, due: nil, today: Context.today, now: now) else {
      throw unreadable
    }
    guard end > now else {
      throw CLIFailure(status: 2, code: "phrase", message: "The snooze’s end “\(phrase)” has passed.")
    }
    return end
  }
}

extension Context {
  /// Tells the reminder service, if it runs, that tasks changed: it reads the feed now, so that a reminder set for
  /// the next minute fires on time. (Not started when it is not running: the Preferences switch decides that.)
  func tellReminderService() {
    ApplicationLink.activate(
      appID: AppIdentity.Reminders.appID, action: AppIdentity.Reminders.Action.refresh.rawValue, start: false)
  }
}

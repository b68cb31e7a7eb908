// The reminders of b2c-tasks-cli: `reminders` lists the coming ones (snoozed ones at their snooze's end, those due
// and not acknowledged first), and every command that changes tasks tells the reminder service, if it runs.

import ArgumentParser
import Foundation
import GLibSupport
import TasksCore

struct Reminders: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
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

extension Context {
  /// Tells the reminder service, if it runs, that tasks changed: it reads the feed now, so that a reminder set for
  /// the next minute fires on time. (Not started when it is not running: the Preferences switch decides that.)
  func tellReminderService() {
    ApplicationLink.activate(appID: AppIdentity.appID + ".Reminders", action: "refresh", start: false)
  }
}

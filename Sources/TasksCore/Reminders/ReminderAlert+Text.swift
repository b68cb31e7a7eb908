// What a reminder's notification says: the task's title, and a body with its due day and time and its list, or when
// it fired while nothing could show it. Translated. Value; any thread.

import FoundationEssentials

extension ReminderAlert {
  /// The notification's title: the task's.
  public var title: String { task.title }

  /// "Due Today 17:00 · Home"; a missed one first says when it was for ("Missed: Today 16:00 · Due Today 17:00 ·
  /// Home").
  public func body(now: Date = Date()) -> String {
    let (today, time) = DueLabel.now(now)
    var parts: [String] = []
    if missed {
      let local = DueLabel.now(at)
      parts.append(
        ReminderPhrases.missed.filled(
          Phrases.dayAndTime.filled(DueLabel.day(local.today, today: today), local.time.description)))
    }
    if let due = task.due { parts.append(ReminderPhrases.due.filled(DueLabel(due, today: today, now: time).text)) }
    if !listName.isEmpty { parts.append(listName) }
    return parts.joined(separator: " · ")
  }
}

extension ReminderPacing {
  /// The grouped notification's title: how many reminders it stands for.
  public var groupTitle: String {
    String(template: trn("%d more reminder", "%d more reminders", held.count), held.count)
  }

  /// Its body: the titles of the latest three it holds, the newest first.
  public var groupBody: String {
    held.suffix(3).reversed().map(\.title).joined(separator: " · ")
  }
}

/// The reminder notification's words.
public enum ReminderPhrases {
  /// "Due %@": the task's due day and time ("Due Tomorrow 09:00").
  public static let due = Phrases.Template(tr("Due %@"))
  /// "Missed: %@": the reminder fired while the computer was off, asleep or signed out; %@ is when it was for.
  public static let missed = Phrases.Template(tr("Missed: %@"))
  /// The notification's buttons.
  public static var markAsDone: String { tr("Mark as Done") }
  public static var snooze: String { tr("Snooze") }
  /// A task's details, under a reminder that fired and is neither acknowledged nor snoozed.
  public static var ringing: String { tr("Fired, not yet dismissed") }
  /// "Snoozed until %@": under a snoozed reminder in a task's details; %@ is its day and time ("Today 10:40").
  public static let snoozedUntil = Phrases.Template(tr("Snoozed until %@"))
}

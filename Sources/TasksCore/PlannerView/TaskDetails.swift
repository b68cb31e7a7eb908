// TaskDetails: what a task's details pane edits, as values — the repeat's form (none, daily, weekdays, weekly on
// chosen days, monthly, yearly; every N; until or a count; from due or completion), reminders in words and from
// what a person types, and the time field. Each change makes the task's new value, which the
// window records as an outbox edit. Translated. Pure values; any thread.

import CGLib
import FoundationEssentials

/// The repeat as the details' form shows and edits it. Parts of a rule the form has no control for (the days of a
/// month) are kept as they were.
public struct RepeatForm: Equatable, Sendable {
  public enum Kind: Int, CaseIterable, Sendable {
    case none, daily, weekdays, weekly, monthly, yearly

    /// The choice's name in the repeat menu.
    public var label: String {
      switch self {
      case .none: tr("Does not repeat")
      case .daily: tr("Daily")
      case .weekdays: tr("Every weekday")
      case .weekly: tr("Weekly")
      case .monthly: tr("Monthly")
      case .yearly: tr("Yearly")
      }
    }
  }

  /// When the repeat ends.
  public enum End: Equatable, Sendable {
    case never
    case until(CalendarDate)
    case count(Int)
  }

  public var kind: Kind
  /// Every `interval` days, weeks, months or years.
  public var interval = 1
  /// The days of the week a weekly repeat falls on (none: the due date's weekday).
  public var days: [Weekday] = []
  public var end: End = .never
  public var from: TaskRecurrence.From = .due
  /// The days of the month of a monthly rule, kept from the rule read.
  private var monthDays: [Int] = []

  /// The form of `recurrence` (none when nil).
  public init(_ recurrence: TaskRecurrence?) {
    guard let recurrence else {
      kind = .none
      return
    }
    let rule = recurrence.rule
    switch rule.frequency {
    case .daily: kind = rule.byDay == Weekday.workdays && rule.interval == 1 ? .weekdays : .daily
    case .weekly: kind = .weekly
    case .monthly: kind = .monthly
    case .yearly: kind = .yearly
    }
    interval = rule.interval
    days = kind == .weekdays ? [] : rule.byDay
    monthDays = rule.byMonthDay
    end = rule.until.map(End.until) ?? rule.count.map(End.count) ?? .never
    from = recurrence.from
  }

  /// The repeat the form says; nil for "Does not repeat".
  public var recurrence: TaskRecurrence? {
    let frequency: RecurrenceRule.Frequency
    var byDay: [Weekday] = []
    switch kind {
    case .none: return nil
    case .daily: frequency = .daily
    case .weekdays:
      frequency = .daily
      byDay = Weekday.workdays
    case .weekly:
      frequency = .weekly
      byDay = days.sorted()
    case .monthly: frequency = .monthly
    case .yearly: frequency = .yearly
    }
    var rule = RecurrenceRule(
      frequency, interval: kind == .weekdays ? 1 : max(1, min(interval, 1000)), byDay: byDay,
      byMonthDay: kind == .monthly ? monthDays : [])
    switch end {
    case .never: break
    case .until(let date): rule.until = date
    case .count(let count): rule.count = max(1, count)
    }
    return TaskRecurrence(rule: rule, from: from)
  }

  /// Whether "every N" applies (not to "Every weekday" or none).
  public var hasInterval: Bool { kind != .none && kind != .weekdays }

  /// The unit after "Every N": "day", "weeks", …
  public var unit: String {
    switch kind {
    case .none, .daily, .weekdays: trn("day", "days", interval)
    case .weekly: trn("week", "weeks", interval)
    case .monthly: trn("month", "months", interval)
    case .yearly: trn("year", "years", interval)
    }
  }

  /// The weekdays in the user's locale, Monday first: the short name a toggle shows ("Mon") and the whole one a
  /// screen reader says ("Monday").
  public static var weekdayNames: [(day: Weekday, short: String, name: String)] {
    // 2024-01-01 was a Monday.
    Weekday.allCases.map { day in
      let date = CalendarDate(year: 2024, month: 1, day: day.rawValue)!
      return (day, DueLabel.format(date, "%a"), DueLabel.format(date, "%A"))
    }
  }
}

/// A reminder in words, and reminders from what a person types or picks.
public enum ReminderText {
  /// "At the due time", "10 minutes before", "2 hours before", "1 day before", or "Tomorrow 09:00".
  public static func text(_ reminder: TaskReminder, today: CalendarDate) -> String {
    switch reminder.when {
    case .before(0): return tr("At the due time")
    case .before(let minutes) where minutes % 1440 == 0:
      return String(template: trn("%d day before", "%d days before", minutes / 1440), minutes / 1440)
    case .before(let minutes) where minutes % 60 == 0:
      return String(template: trn("%d hour before", "%d hours before", minutes / 60), minutes / 60)
    case .before(let minutes):
      return String(template: trn("%d minute before", "%d minutes before", minutes), minutes)
    case .at(let date):
      let local = DueLabel.now(date)
      return Phrases.dayAndTime.filled(DueLabel.day(local.today, today: today), local.time.description)
    }
  }

  /// The choices the Add Reminder menu offers: at the due time, 10 minutes, 1 hour and 1 day before.
  public static let presets: [Int] = [0, 10, 60, 1440]

  /// The snoozes a task's details offer for a reminder that fired (the notification's Snooze is ten minutes): 5, 10
  /// and 30 minutes, 1 and 3 hours from the click, and tomorrow at 09:00 on this computer's clock; each its words
  /// and when it ends, for the moment of the click.
  public static func snoozes(today: CalendarDate) -> [(text: String, end: @Sendable (Date) -> Date)] {
    var choices: [(text: String, end: @Sendable (Date) -> Date)] = [5, 10, 30, 60, 180].map { minutes in
      let text =
        minutes % 60 == 0
        ? String(template: trn("For %d hour", "For %d hours", minutes / 60), minutes / 60)
        : String(template: trn("For %d minute", "For %d minutes", minutes), minutes)
      return (text, { $0.addingTimeInterval(TimeInterval(minutes * 60)) })
    }
    if let nine = TimeOfDay(hour: 9), let morning = localMoment(today.adding(days: 1), nine) {
      choices.append((text(TaskReminder(.at(morning)), today: today), { _ in morning }))
    }
    return choices
  }

  /// What went wrong reading a reminder the user typed.
  public enum Problem: Error, Equatable, Sendable {
    /// Not a reminder phrase.
    case unreadable
    /// "… before" on a task without a due date.
    case needsDueDate
  }

  /// The reminder `phrase` says for a task due `due`, read at `now`: "in 10 minutes" from now, "1 hour before" the
  /// due time, "at 17:00" (on the due date, else today) or "tomorrow 9am", in this computer's time zone.
  public static func reminder(
    _ phrase: ReminderPhrase, due: TaskDue?, today: CalendarDate, now: Date = Date()
  ) throws(Problem) -> TaskReminder.When {
    switch phrase {
    case .beforeDue(let minutes):
      guard due != nil else { throw .needsDueDate }
      return .before(minutes: minutes)
    case .fromNow(let minutes):
      return .at(now.addingTimeInterval(TimeInterval(minutes) * 60).asSent)  // as the service keeps it
    case .at(let date, let time):
      guard let at = localMoment(date ?? due?.date ?? today, time) else { throw .unreadable }
      return .at(at)
    }
  }

  /// `day` at `time` on this computer's clock.
  static func localMoment(_ day: CalendarDate, _ time: TimeOfDay) -> Date? {
    guard
      let moment = g_date_time_new_local(
        Int32(day.year), Int32(day.month), Int32(day.day), Int32(time.hour), Int32(time.minute), 0)
    else { return nil }
    defer { g_date_time_unref(moment) }
    return Date(timeIntervalSince1970: TimeInterval(g_date_time_to_unix(moment)))
  }
}

/// The details' time field: "09:00", "9:30", "9am", "17 Uhr" (the date parser's times) or empty for none.
public enum TimeField {
  /// The time typed; nil for an empty field (the task keeps its date alone). Throws for text that is not a time.
  public static func read(_ text: String, parser: DatePhraseParser) throws(ReminderText.Problem) -> TimeOfDay? {
    let trimmed = text.trimmed()
    if trimmed.isEmpty { return nil }
    if let time = TimeOfDay(trimmed) { return time }
    guard let said = try? parser.parse(trimmed), let time = said.time, !said.parts.contains(where: { $0.kind != .time })
    else { throw .unreadable }
    return time
  }
}

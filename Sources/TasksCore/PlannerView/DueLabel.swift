// DueLabel: a task's due date as a row says it ("Today", "Tomorrow 09:00", "Mon 2 Dec"), and whether it is overdue.
// Translated; month and weekday names from the user's locale through GLib. Value; any thread.

import CGLib
import FoundationEssentials

/// The due date of a row in words, relative to today.
public struct DueLabel: Equatable, Sendable {
  /// "Today", "Tomorrow 09:00", "Yesterday", "Mon 2 Dec", "Mon 2 Dec 2027".
  public var text: String
  /// Before today, or today at a time already past: the row shows it in the error colour.
  public var overdue: Bool

  /// The label of `due`, seen on `today` at `now`.
  public init(_ due: TaskDue, today: CalendarDate, now: TimeOfDay) {
    overdue = due.date < today || (due.date == today && due.time.map { $0 < now } ?? false)
    let day = Self.day(due.date, today: today)
    text = due.time.map { Phrases.dayAndTime.filled(day, $0.description) } ?? day
  }

  /// The current day and time on this computer's clock, in its time zone.
  public static func now(_ date: Date = Date()) -> (today: CalendarDate, time: TimeOfDay) {
    guard let moment = g_date_time_new_from_unix_local(Int(date.timeIntervalSince1970.rounded(.down))) else {
      return (CalendarDate(dayNumber: Int(date.timeIntervalSince1970 / 86_400)), TimeOfDay(hour: 0)!)
    }
    defer { g_date_time_unref(moment) }
    let today =
      CalendarDate(
        year: Int(g_date_time_get_year(moment)), month: Int(g_date_time_get_month(moment)),
        day: Int(g_date_time_get_day_of_month(moment)))
      ?? CalendarDate(dayNumber: Int(date.timeIntervalSince1970 / 86_400))
    let time =
      TimeOfDay(hour: Int(g_date_time_get_hour(moment)), minute: Int(g_date_time_get_minute(moment)))
      ?? TimeOfDay(hour: 0)!
    return (today, time)
  }

  /// A day in words: "Today", "Tomorrow", "Yesterday", else its weekday, day and month (and year when not this one).
  public static func day(_ date: CalendarDate, today: CalendarDate) -> String {
    switch date.dayNumber - today.dayNumber {
    case 0: return tr("Today")
    case 1: return tr("Tomorrow")
    case -1: return tr("Yesterday")
    default:
      // Translators: a due date in g_date_time_format's notation: %a the weekday's short name, %-d the day, %b the
      // month's short name ("Mon 2 Dec").
      let thisYear = tr("%a %-d %b")
      // Translators: a due date in another year ("Mon 2 Dec 2027"); %Y is the year.
      let otherYear = tr("%a %-d %b %Y")
      return format(date, date.year == today.year ? thisYear : otherYear)
    }
  }

  /// `date` in GLib's strftime-like notation, with the locale's names.
  static func format(_ date: CalendarDate, _ pattern: String) -> String {
    guard let moment = g_date_time_new_local(Int32(date.year), Int32(date.month), Int32(date.day), 12, 0, 0) else {
      return date.description
    }
    defer { g_date_time_unref(moment) }
    guard let text = g_date_time_format(moment, pattern) else { return date.description }
    defer { g_free(text) }
    return String(cString: text)
  }
}

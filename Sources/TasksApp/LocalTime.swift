// LocalTime: a moment as the user reads it (their time zone, their language's date format), through GLib. Any thread.

import CGtk
import FoundationEssentials
import TasksCore

/// Dates written for people. GLib formats them (month names from the user's locale), so the app needs no ICU.
enum LocalTime {
  /// `date` in the local time zone, with the day, month, year and minute ("Nov 24, 2026, 14:05").
  static func text(of date: Date) -> String {
    guard let moment = g_date_time_new_from_unix_local(Int(date.timeIntervalSince1970.rounded(.down))) else {
      return ""
    }
    defer { g_date_time_unref(moment) }
    // Translators: the date and time of the task list's offline copy, in g_date_time_format's notation: %b the
    // month's short name, %-d the day, %Y the year, %H:%M the time.
    guard let text = g_date_time_format(moment, tr("%b %-d, %Y, %H:%M")) else { return "" }
    defer { g_free(text) }
    return String(cString: text)
  }
}

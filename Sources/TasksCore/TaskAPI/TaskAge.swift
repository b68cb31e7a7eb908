// TaskAge: "2 h ago", the short, translated age of a task shown under its text. Any thread.

import Foundation

/// How long ago a task was modified, in the user's language, as short as a list row wants it ("Just now",
/// "5 min ago", "2 h ago", "3 days ago", "2 weeks ago", "4 months ago", "1 year ago"). Plain gettext plurals: no
/// ICU formatter per row while a long list scrolls.
public enum TaskAge {
  /// The caption for something modified at `date`, seen at `now`. A date in the future (another computer's
  /// clock) reads as "Just now".
  public static func caption(for date: Date, now: Date = Date()) -> String {
    let seconds = max(0, now.timeIntervalSince(date))
    let minutes = Int(seconds / 60)
    let hours = minutes / 60
    let days = hours / 24
    switch days {
    case 0 where minutes == 0:
      return tr("Just now")
    case 0 where hours == 0:
      return String(format: trn("%d min ago", "%d min ago", minutes), minutes)
    case 0:
      return String(format: trn("%d h ago", "%d h ago", hours), hours)
    case 1..<7:
      return String(format: trn("%d day ago", "%d days ago", days), days)
    case 7..<31:
      return String(format: trn("%d week ago", "%d weeks ago", days / 7), days / 7)
    case 31..<365:
      let months = max(1, days / 30)
      return String(format: trn("%d month ago", "%d months ago", months), months)
    default:
      return String(format: trn("%d year ago", "%d years ago", days / 365), days / 365)
    }
  }
}

// TaskAge: "2 h ago", the short, translated age of a task shown under its text. Any thread.

import FoundationEssentials

/// How long ago a task was modified, in the user's language, as short as a list row wants it ("Just now",
/// "5 min ago", "2 h ago", "3 days ago", "2 weeks ago", "4 months ago", "1 year ago"). Plain gettext plurals: no
/// ICU formatter per row while a long list scrolls. The age itself is a small value, so a list can keep each
/// caption once (thousands of tasks share a few dozen captions) instead of formatting one per row.
public enum TaskAge: Hashable, Sendable {
  case justNow
  case minutes(Int)
  case hours(Int)
  case days(Int)
  case weeks(Int)
  case months(Int)
  case years(Int)

  /// The age of something modified at `date`, seen at `now`. A date in the future (another computer's clock) is
  /// "just now".
  public init(since date: Date, now: Date = Date()) {
    let seconds = max(0, now.timeIntervalSince(date))
    let minutes = Int(seconds / 60)
    let hours = minutes / 60
    let days = hours / 24
    switch days {
    case 0 where minutes == 0: self = .justNow
    case 0 where hours == 0: self = .minutes(minutes)
    case 0: self = .hours(hours)
    case 1..<7: self = .days(days)
    case 7..<31: self = .weeks(days / 7)
    case 31..<365: self = .months(max(1, days / 30))
    default: self = .years(days / 365)
    }
  }

  /// The caption for something modified at `date`, seen at `now`.
  public static func caption(for date: Date, now: Date = Date()) -> String {
    TaskAge(since: date, now: now).caption
  }

  /// "Just now", "5 min ago", … in the user's language.
  public var caption: String {
    switch self {
    case .justNow: tr("Just now")
    case .minutes(let n): String(template: trn("%d min ago", "%d min ago", n), n)
    case .hours(let n): String(template: trn("%d h ago", "%d h ago", n), n)
    case .days(let n): String(template: trn("%d day ago", "%d days ago", n), n)
    case .weeks(let n): String(template: trn("%d week ago", "%d weeks ago", n), n)
    case .months(let n): String(template: trn("%d month ago", "%d months ago", n), n)
    case .years(let n): String(template: trn("%d year ago", "%d years ago", n), n)
    }
  }
}

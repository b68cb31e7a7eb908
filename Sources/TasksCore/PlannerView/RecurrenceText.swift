// RecurrenceText: how a repeat reads in a row's tooltip, a quick-entry chip and the details ("Every 2 weeks on Mon,
// Thu"). Translated. Value; any thread.

import FoundationEssentials

/// A repeat rule in words.
public enum RecurrenceText {
  /// "Daily", "Every 3 days", "Weekdays", "Weekly on Mon, Thu", "Monthly", "Yearly", with "until …" or "N times".
  public static func describe(_ rule: RecurrenceRule, today: CalendarDate) -> String {
    var text = frequency(rule)
    if !rule.byDay.isEmpty && !(rule.frequency == .daily && rule.byDay == Weekday.workdays) {
      let days = rule.byDay.sorted().map { weekdayName($0) }.joined(separator: ", ")
      text = Phrases.repeatOnDays.filled(text, days)
    }
    if let until = rule.until {
      text = Phrases.repeatUntil.filled(text, DueLabel.day(until, today: today))
    } else if let count = rule.count {
      text = Phrases.list.filled(text, String(template: trn("%d time", "%d times", count), count))
    }
    return text
  }

  private static func frequency(_ rule: RecurrenceRule) -> String {
    let n = rule.interval
    switch rule.frequency {
    case .daily where rule.byDay == Weekday.workdays && n == 1: return tr("Weekdays")
    case .daily: return n == 1 ? tr("Daily") : String(template: trn("Every %d day", "Every %d days", n), n)
    case .weekly: return n == 1 ? tr("Weekly") : String(template: trn("Every %d week", "Every %d weeks", n), n)
    case .monthly: return n == 1 ? tr("Monthly") : String(template: trn("Every %d month", "Every %d months", n), n)
    case .yearly: return n == 1 ? tr("Yearly") : String(template: trn("Every %d year", "Every %d years", n), n)
    }
  }

  /// The weekday's short name in the user's locale ("Mon").
  public static func weekdayName(_ day: Weekday) -> String {
    // 2024-01-01 was a Monday.
    DueLabel.format(CalendarDate(year: 2024, month: 1, day: day.rawValue)!, "%a")
  }
}

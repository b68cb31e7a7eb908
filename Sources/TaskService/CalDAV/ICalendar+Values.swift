// ICalendar+Values: the value types the VTODO mapping reads and writes: DATE and DATE-TIME, DURATION, and time zone
// names as clients spell them (IANA, libical's prefixed ones, Windows ones). Pure functions; any thread.

import Foundation
import TasksCalendar

/// A DATE or DATE-TIME value as written: a day, a time of day to the second, and whether it is UTC (`Z`).
struct ICalDateTime: Equatable {
  var date: CalendarDate
  /// Seconds after midnight; nil for a DATE.
  var seconds: Int?
  var utc = false

  /// Reads `YYYYMMDD`, `YYYYMMDDTHHMMSS` or `YYYYMMDDTHHMMSSZ` (a leap second read as :59).
  init?(_ text: String) {
    let bytes = Array(text.utf8)
    guard [8, 15, 16].contains(bytes.count) else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      guard bytes[range].allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
      return bytes[range].reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
    guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8),
      let date = CalendarDate(year: year, month: month, day: day)
    else { return nil }
    self.date = date
    guard bytes.count > 8 else { return }
    guard bytes[8] == UInt8(ascii: "T"), let hour = number(9..<11), let minute = number(11..<13),
      let second = number(13..<15), hour < 24, minute < 60, second <= 60,
      bytes.count == 15 || bytes[15] == UInt8(ascii: "Z")
    else { return nil }
    seconds = hour * 3600 + minute * 60 + min(second, 59)
    utc = bytes.count == 16
  }

  /// A moment in UTC, to the second (fractions dropped).
  init(utc moment: Date) {
    let total = Int(min(max(moment.timeIntervalSince1970, -1e15), 1e15).rounded(.down))
    let (days, rest) = (total >= 0 ? total / 86_400 : (total - 86_399) / 86_400, ((total % 86_400) + 86_400) % 86_400)
    self.date = CalendarDate(dayNumber: days)
    self.seconds = rest
    self.utc = true
  }

  /// A local date and time (floating, or in the zone of a TZID).
  init(date: CalendarDate, time: TimeOfDay?, utc: Bool = false) {
    self.date = date
    self.seconds = time.map { $0.hour * 3600 + $0.minute * 60 }
    self.utc = utc
  }

  /// The moment a UTC date-time stands for, when it lies within the times a task holds.
  var moment: Date? {
    guard utc, let seconds else { return nil }
    let moment = Date(timeIntervalSince1970: TimeInterval(date.dayNumber * 86_400 + seconds))
    return PlannerTask.timeRange.contains(moment) ? moment : nil
  }

  /// The time of day, seconds dropped.
  var time: TimeOfDay? { seconds.flatMap { TimeOfDay(hour: $0 / 3600, minute: $0 % 3600 / 60) } }

  /// As iCalendar writes it.
  var text: String {
    func digits(_ value: Int, _ width: Int) -> String {
      String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
    }
    var text = digits(date.year, 4) + digits(date.month, 2) + digits(date.day, 2)
    if let seconds {
      text += "T" + digits(seconds / 3600, 2) + digits(seconds % 3600 / 60, 2) + digits(seconds % 60, 2)
    }
    return utc ? text + "Z" : text
  }

  /// Two moments equal to the second (iCalendar writes no fractions).
  static func sameSecond(_ first: Date?, _ second: Date?) -> Bool {
    first.map { ICalDateTime(utc: $0) } == second.map { ICalDateTime(utc: $0) }
  }

  /// Two reminder times equal to the second.
  static func sameWhen(_ first: TaskReminder.When, _ second: TaskReminder.When) -> Bool {
    if case .at(let one) = first, case .at(let other) = second { return sameSecond(one, other) }
    return first == second
  }
}

/// RFC 5545 DURATION values (`-PT15M`, `P1D`, `-P1DT2H30M`, `P2W`).
enum ICalDuration {
  /// The duration in seconds (negative before), or nil when the text is not one.
  static func seconds(_ text: String) -> Int? {
    var rest = Substring(text.uppercased())
    var sign = 1
    if rest.first == "+" || rest.first == "-" {
      sign = rest.first == "-" ? -1 : 1
      rest = rest.dropFirst()
    }
    guard rest.first == "P" else { return nil }
    rest = rest.dropFirst()
    var total = 0
    var inTime = false
    var number = ""
    var parts = 0
    for character in rest {
      if character.isASCII && character.isNumber {
        number.append(character)
        guard number.count <= 9 else { return nil }
        continue
      }
      if character == "T" && number.isEmpty && !inTime {
        inTime = true
        continue
      }
      guard let value = Int(number) else { return nil }
      let unit: [Character: Int] = inTime ? ["H": 3600, "M": 60, "S": 1] : ["W": 604_800, "D": 86_400]
      guard let scale = unit[character] else { return nil }
      total += value * scale
      number = ""
      parts += 1
    }
    guard number.isEmpty, parts > 0 else { return nil }
    return sign * total
  }

  /// `minutes` before, in the largest whole unit: `-PT15M`, `-PT2H`, `-P1D`; zero is `PT0S`.
  static func text(minutesBefore minutes: Int) -> String {
    if minutes == 0 { return "PT0S" }
    if minutes % 1440 == 0 { return "-P\(minutes / 1440)D" }
    return minutes % 60 == 0 ? "-PT\(minutes / 60)H" : "-PT\(minutes)M"
  }
}

/// Time zone names as clients write TZIDs, read as the IANA names the service keeps.
enum ZoneNames {
  /// Whether the service keeps `name` as a due time's zone: an IANA name (with a "/", or UTC) the system knows.
  static func isIANA(_ name: String) -> Bool {
    name.count <= 64 && (name.contains("/") || name == "UTC") && TimeZone(identifier: name) != nil
  }

  /// The IANA zone a TZID stands for: the name itself; libical's or Mozilla's prefixed form
  /// (`/freeassociation.sourceforge.net/Europe/Berlin`, `/mozilla.org/20050126_1/Europe/Berlin`); a Windows name
  /// (`W. Europe Standard Time`, CLDR's table); or the X-LIC-LOCATION of the text's VTIMEZONE of that TZID.
  static func iana(tzid: String, in calendar: ICalComponent) -> String? {
    if isIANA(tzid) { return tzid }
    let parts = tzid.split(separator: "/")
    if let name = parts.indices.dropFirst().lazy.map({ parts[$0...].joined(separator: "/") }).first(where: isIANA) {
      return name
    }
    if let name = windowsZones[tzid] { return name }
    let definition = calendar.components.first { $0.is("VTIMEZONE") && $0.property("TZID")?.text == tzid }
    return definition?.property("X-LIC-LOCATION").map(\.text).flatMap { isIANA($0) ? $0 : nil }
  }

  /// The TZID to write for `zone`: that of a VTIMEZONE in `calendar` standing for it, so the definition the client
  /// sent still applies; else the IANA name itself (RFC 7809: a TZID without VTIMEZONE, which CalDAV clients resolve
  /// from their own time zone database).
  static func tzid(for zone: String, in calendar: ICalComponent) -> String {
    let tzids = calendar.components.filter { $0.is("VTIMEZONE") }.compactMap { $0.property("TZID")?.text }
    return tzids.first { iana(tzid: $0, in: calendar) == zone } ?? zone
  }

  /// The date a moment falls on in `zone` (UTC when the zone is unknown).
  static func date(of moment: Date, in zone: String?) -> CalendarDate {
    let offset = zone.flatMap { TimeZone(identifier: $0) }?.secondsFromGMT(for: moment) ?? 0
    return ICalDateTime(utc: moment.addingTimeInterval(TimeInterval(offset))).date
  }
}

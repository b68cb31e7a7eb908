// StoredDetails: a task's details column read straight into the task's typed fields, each checked as a client's
// change is checked, for the JSON the service itself writes there; anything else is left to JSONSerialization and
// `TaskChanges(object:)`. Pure functions.

import Foundation
import TasksCalendar

/// Reads the details column (`PlannerTask.details`) into a task's fields without a dictionary.
///
/// Why: a first sync of 10 000 tasks spent most of the service's time reading the details (perf,
/// Tests/Benchmarks/RESULTS.md): JSONSerialization builds Foundation objects, and checking them
/// (`TaskChanges(object:)`) casts every value out of `Any`, reads numbers through `NSNumber` and times through a date
/// parser; 40 % of the PostgreSQL feed's samples after a first reader that still built a dictionary. This one reads
/// only what the service writes — the fields it knows, each once, in any order: strings with the escapes
/// JSONSerialization writes, whole numbers under 10⁹, null, times as `PlannerTask.time` writes them (UTC,
/// milliseconds), dates and times of day as their types write them — and checks each value as
/// `TaskChanges(object:)` would. It answers false for anything else (a `\u` escape, a field it does not know, a
/// fraction, a boolean, a value a check refuses, any syntax error), and the caller then reads the text the general
/// way, which reads it or names what is wrong with it. StoredDetailsTests holds the two readers to the same task on
/// written, damaged and hostile details.
enum StoredDetails {
  /// Reads `text` into `task`'s details fields (notes, priority, due, recurrence, reminders, categories, sort key,
  /// the series' progress), which must hold their defaults; false (and `task` unchanged) when it leaves `text` to
  /// the general reader.
  static func read(_ text: String, into task: inout PlannerTask) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      var reader = Reader(bytes: bytes)
      var read = task
      guard reader.details(into: &read), reader.atEnd() else { return false }
      task = read
      return true
    }
  }

  /// A string value and what its checks need, found while it was read.
  private struct Text {
    var string: String
    /// Unicode scalars in it.
    var scalars: Int
    var hasLineBreak: Bool
    /// A control character other than a tab or a line break (C0, DEL, C1).
    var hasOtherControl: Bool

    /// `FieldReader.text`'s checks: at most `max` scalars, no control characters but tabs (and line breaks where
    /// allowed).
    func checked(max: Int, lineBreaks: Bool) -> String? {
      guard scalars <= max, !hasOtherControl, lineBreaks || !hasLineBreak else { return nil }
      return string
    }
  }

  private enum Field: String {
    case notes, priority, due, recurrence, reminders, categories, sortKey, lastOccurrenceDone, occurrencesDone
  }

  private enum ReminderField: String { case at, before, acknowledgedAt, snoozedUntil }

  private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
      self.bytes = bytes
    }

    /// Whether only whitespace is left.
    mutating func atEnd() -> Bool {
      skipWhitespace()
      return index == bytes.count
    }

    mutating func skipWhitespace() {
      while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    mutating func take(_ byte: UInt8) -> Bool {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == byte else { return false }
      index += 1
      return true
    }

    mutating func takeNull() -> Bool {
      skipWhitespace()
      guard bytes.count - index >= 4, bytes[index] == UInt8(ascii: "n"), bytes[index + 1] == UInt8(ascii: "u"),
        bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l")
      else { return false }
      index += 4
      return true
    }

    /// Reads `{ "key": value, … }`, each key once, `member` reading the value after each key (false: give up).
    mutating func object(_ member: (inout Reader, String) -> Bool) -> Bool {
      guard take(UInt8(ascii: "{")) else { return false }
      if take(UInt8(ascii: "}")) { return true }
      var keys: [String] = []
      repeat {
        guard let key = text()?.string, take(UInt8(ascii: ":")), !keys.contains(key) else { return false }
        keys.append(key)
        guard member(&self, key) else { return false }
      } while take(UInt8(ascii: ","))
      return take(UInt8(ascii: "}"))
    }

    /// Reads `[ value, … ]` of at most `max` values, `element` reading each.
    mutating func array(max: Int, _ element: (inout Reader) -> Bool) -> Bool {
      guard take(UInt8(ascii: "[")) else { return false }
      if take(UInt8(ascii: "]")) { return true }
      var count = 0
      repeat {
        count += 1
        guard count <= max, element(&self) else { return false }
      } while take(UInt8(ascii: ","))
      return take(UInt8(ascii: "]"))
    }

    mutating func details(into task: inout PlannerTask) -> Bool {
      object { reader, key in
        guard let field = Field(rawValue: key) else { return false }
        if reader.takeNull() { return true }
        switch field {
        case .notes:
          guard let notes = reader.text()?.checked(max: PlannerTask.maxNotesLength, lineBreaks: true) else {
            return false
          }
          task.notes = notes
        case .priority:
          guard let priority = reader.integer(), priority <= 9 else { return false }
          task.priority = priority
        case .due:
          guard let due = reader.due() else { return false }
          task.due = due
        case .recurrence:
          guard let recurrence = reader.recurrence() else { return false }
          task.recurrence = recurrence
        case .reminders:
          return reader.array(max: PlannerTask.maxReminders) { reader in
            guard let reminder = reader.reminder() else { return false }
            task.reminders.append(reminder)
            return true
          }
        case .categories:
          return reader.array(max: PlannerTask.maxCategories) { reader in
            guard let name = reader.text()?.checked(max: PlannerTask.maxCategoryLength, lineBreaks: false),
              !name.isEmpty
            else { return false }
            if !task.categories.contains(name) { task.categories.append(name) }
            return true
          }
        case .sortKey:
          guard let key = reader.text()?.checked(max: PlannerTask.maxSortKeyLength, lineBreaks: false) else {
            return false
          }
          task.sortKey = key
        case .lastOccurrenceDone:
          guard let date = reader.text().flatMap({ Self.bytes(of: $0.string, Self.date) }) else { return false }
          task.lastOccurrenceDone = date
        case .occurrencesDone:
          guard let count = reader.integer() else { return false }
          task.occurrencesDone = count
        }
        return true
      }
    }

    /// `{"date": "YYYY-MM-DD", "time": "HH:MM" or null, "timeZone": an IANA name or null}`.
    mutating func due() -> TaskDue? {
      var date: CalendarDate?
      var time: TimeOfDay?
      var zone: String?
      let read = object { reader, key in
        switch key {
        case "date":
          date = reader.text().flatMap { Self.bytes(of: $0.string, Self.date) }
          return date != nil
        case "time":
          if reader.takeNull() { return true }
          time = reader.text().flatMap { Self.bytes(of: $0.string, Self.timeOfDay) }
          return time != nil
        case "timeZone":
          if reader.takeNull() { return true }
          zone = reader.text()?.string
          return zone.map(TaskChanges.isTimeZone) == true
        default: return false
        }
      }
      guard read, let date else { return nil }
      return TaskDue(date: date, time: time, timeZone: zone)
    }

    /// `{"rrule": an RRULE of the supported subset, "from": "due" or "completion"}` (`from` may be left out: due).
    mutating func recurrence() -> TaskRecurrence? {
      var rule: RecurrenceRule?
      var from = TaskRecurrence.From.due
      let read = object { reader, key in
        switch key {
        case "rrule":
          guard let text = reader.text() else { return false }
          rule = try? RecurrenceRule(rrule: text.string)
          return rule != nil
        case "from":
          guard let text = reader.text(), let counted = TaskRecurrence.From(rawValue: text.string) else {
            return false
          }
          from = counted
          return true
        default: return false
        }
      }
      guard read, let rule else { return nil }
      return TaskRecurrence(rule: rule, from: from)
    }

    /// `{"at": a time, or "before": minutes, "acknowledgedAt": a time or null, "snoozedUntil": a time or null}`.
    mutating func reminder() -> TaskReminder? {
      var when: TaskReminder.When?
      var acknowledged: Date?
      var snoozed: Date?
      let read = object { reader, key in
        guard let field = ReminderField(rawValue: key) else { return false }
        if reader.takeNull() { return true }
        switch field {
        case .at, .before:
          guard when == nil else { return false }
          if field == .at {
            when = reader.time().map { .at($0) }
          } else {
            when = reader.integer().flatMap { $0 <= PlannerTask.maxReminderOffset ? .before(minutes: $0) : nil }
          }
          return when != nil
        case .acknowledgedAt:
          acknowledged = reader.time()
          return acknowledged != nil
        case .snoozedUntil:
          snoozed = reader.time()
          return snoozed != nil
        }
      }
      guard read, let when else { return nil }
      return TaskReminder(when, acknowledgedAt: acknowledged, snoozedUntil: snoozed)
    }

    /// `"YYYY-MM-DDTHH:MM:SS.mmmZ"` (as `PlannerTask.time` writes it) from 1970 on, as
    /// `Date.ISO8601FormatStyle` reads it to the bit (the same sum: the whole seconds since 2001, then the
    /// milliseconds).
    mutating func time() -> Date? {
      guard let text = text() else { return nil }
      return Self.bytes(of: text.string) { utf8 in
        guard utf8.count == 24, utf8[10] == UInt8(ascii: "T"), utf8[13] == UInt8(ascii: ":"),
          utf8[16] == UInt8(ascii: ":"), utf8[19] == UInt8(ascii: "."), utf8[23] == UInt8(ascii: "Z"),
          let date = Self.date(utf8[0..<10]), let hour = Self.number(utf8[11..<13]), hour < 24,
          let minute = Self.number(utf8[14..<16]), minute < 60, let second = Self.number(utf8[17..<19]), second < 60,
          let milliseconds = Self.number(utf8[20..<23])
        else { return nil }
        let seconds = date.dayNumber * 86_400 + hour * 3_600 + minute * 60 + second
        let time = Date(timeIntervalSinceReferenceDate: Double(seconds - 978_307_200) + Double(milliseconds) / 1000)
        return PlannerTask.timeRange.contains(time) ? time : nil
      }
    }

    /// `body` over the UTF-8 of `string`.
    static func bytes<Value>(of string: String, _ body: (UnsafeBufferPointer<UInt8>) -> Value?) -> Value? {
      var string = string
      return string.withUTF8(body)
    }

    /// `YYYY-MM-DD`, a day that exists.
    static func date<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> CalendarDate? where Bytes.Index == Int {
      let start = bytes.startIndex
      guard bytes.count == 10, bytes[start + 4] == UInt8(ascii: "-"), bytes[start + 7] == UInt8(ascii: "-"),
        let year = number(bytes[start..<start + 4]), let month = number(bytes[start + 5..<start + 7]),
        let day = number(bytes[start + 8..<start + 10])
      else { return nil }
      return CalendarDate(year: year, month: month, day: day)
    }

    /// `HH:MM` (as `TimeOfDay` writes it).
    static func timeOfDay<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> TimeOfDay? where Bytes.Index == Int {
      let start = bytes.startIndex
      guard bytes.count == 5, bytes[start + 2] == UInt8(ascii: ":"), let hour = number(bytes[start..<start + 2]),
        let minute = number(bytes[start + 3..<start + 5]), let time = TimeOfDay(hour: hour, minute: minute)
      else { return nil }
      return time
    }

    /// ASCII digits as a number.
    static func number<Bytes: Collection<UInt8>>(_ digits: Bytes) -> Int? {
      var value = 0
      for digit in digits {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
        value = value * 10 + Int(digit - UInt8(ascii: "0"))
      }
      return digits.isEmpty ? nil : value
    }

    /// A whole number from 0 to 999 999 999 as JSON writes it (no sign, leading zero, fraction or exponent).
    mutating func integer() -> Int? {
      skipWhitespace()
      let start = index
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
      let count = index - start
      guard count > 0, count <= 9, count == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
      if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
        return nil
      }
      return Self.number(UnsafeBufferPointer(rebasing: bytes[start..<index]))
    }

    /// A string whose escapes are those JSONSerialization writes for text (`\"`, `\\`, `\/`, `\n`, `\r`, `\t`,
    /// `\b`, `\f`); a `\u` escape or a raw control character is not read here.
    mutating func text() -> Text? {
      guard take(UInt8(ascii: "\"")) else { return nil }
      let start = index
      var plain = true
      var text = Text(string: "", scalars: 0, hasLineBreak: false, hasOtherControl: false)
      var previous: UInt8 = 0
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") { break }
        if byte < 0x20 { return nil }
        if byte == UInt8(ascii: "\\") {
          plain = false
          index += 1
          guard index < bytes.count else { return nil }
          switch bytes[index] {
          case UInt8(ascii: "n"), UInt8(ascii: "r"): text.hasLineBreak = true
          case UInt8(ascii: "b"), UInt8(ascii: "f"): text.hasOtherControl = true
          case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "t"): break
          default: return nil
          }
          text.scalars += 1
        } else {
          // DEL, and C1 controls (U+0080…U+009F: C2 80…C2 9F in UTF-8).
          if byte == 0x7F || (previous == 0xC2 && (0x80...0x9F).contains(byte)) { text.hasOtherControl = true }
          if byte & 0xC0 != 0x80 { text.scalars += 1 }
        }
        previous = byte
        index += 1
      }
      guard index < bytes.count else { return nil }
      let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
      index += 1
      if plain {
        text.string = String(decoding: raw, as: UTF8.self)
        return text
      }
      var unescaped: [UInt8] = []
      unescaped.reserveCapacity(raw.count)
      var position = 0
      while position < raw.count {
        var byte = raw[position]
        if byte == UInt8(ascii: "\\") {
          position += 1
          switch raw[position] {
          case UInt8(ascii: "n"): byte = 0x0A
          case UInt8(ascii: "r"): byte = 0x0D
          case UInt8(ascii: "t"): byte = 0x09
          case UInt8(ascii: "b"): byte = 0x08
          case UInt8(ascii: "f"): byte = 0x0C
          default: byte = raw[position]
          }
        }
        unescaped.append(byte)
        position += 1
      }
      text.string = String(decoding: unescaped, as: UTF8.self)
      return text
    }
  }
}

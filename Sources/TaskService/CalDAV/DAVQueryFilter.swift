// DAVQueryFilter: a calendar-query's filter (RFC 4791 §9.7) read against tasks: the VTODO component, a time range
// (§9.9's table for VTODO), and property filters (is-not-defined, text-match) as Thunderbird, DAVx5 and Evolution
// send them. Values; any thread.

import Foundation
import TasksCalendar

package struct DAVQueryFilter {
  /// Whether anything can match (a filter for VEVENTs matches no task).
  var component = true
  var start: Date?
  var end: Date?
  var properties: [(name: String, defined: Bool?, text: String?, negate: Bool)] = []

  /// The most property filters a query may hold: each is read against every task of the list, and 19 990 filters
  /// that every task passes (`<c:prop-filter name="UID"/>`) kept one request busy for 85 s over 1 000 tasks (a debug
  /// build; found by a hostile-case hunt). Clients send none to three.
  package static let maxPropertyFilters = 16

  /// A query with more than `maxPropertyFilters` property filters.
  package struct TooManyFilters: Error {}

  package init(_ filter: DAVElement?) throws(TooManyFilters) {
    guard let calendar = filter?.child(DAVXML.caldav, "comp-filter") else { return }
    guard calendar.attributes["name"]?.uppercased() == "VCALENDAR" else {
      component = false
      return
    }
    guard let todo = calendar.child(DAVXML.caldav, "comp-filter") else { return }
    guard todo.attributes["name"]?.uppercased() == "VTODO" else {
      component = false
      return
    }
    if todo.child(DAVXML.caldav, "is-not-defined") != nil { component = false }
    if let range = todo.child(DAVXML.caldav, "time-range") {
      start = range.attributes["start"].flatMap(Self.time)
      end = range.attributes["end"].flatMap(Self.time)
    }
    let filters = todo.children(DAVXML.caldav, "prop-filter")
    guard filters.count <= Self.maxPropertyFilters else { throw TooManyFilters() }
    for prop in filters {
      let name = prop.attributes["name"]?.uppercased() ?? ""
      let match = prop.child(DAVXML.caldav, "text-match")
      properties.append(
        (
          name, prop.child(DAVXML.caldav, "is-not-defined") != nil ? false : (match == nil ? true : nil),
          match?.text, match?.attributes["negate-condition"] == "yes"
        ))
    }
  }

  /// `20261203T000000Z`.
  static func time(_ text: String) -> Date? {
    let digits = text.utf8.filter { $0 >= 0x30 && $0 <= 0x39 }.map { Int($0 - 0x30) }
    guard text.hasSuffix("Z"), digits.count == 14 else { return nil }
    func number(_ range: Range<Int>) -> Int { digits[range].reduce(0) { $0 * 10 + $1 } }
    guard let date = CalendarDate(year: number(0..<4), month: number(4..<6), day: number(6..<8)) else { return nil }
    let seconds = number(8..<10) * 3600 + number(10..<12) * 60 + number(12..<14)
    return Date(timeIntervalSince1970: TimeInterval(date.dayNumber) * 86_400 + TimeInterval(seconds))
  }

  package func matches(_ task: DAVTask) -> Bool {
    guard component else { return false }
    if start != nil || end != nil, !inRange(task.stored) { return false }
    guard !properties.isEmpty else { return true }
    // Property filters read the text a GET gives (STATUS:CANCELLED or IN-PROCESS as the client wrote it).
    guard let calendar = try? ICalendar.parse(DAVTodo.render(task)),
      let todo = calendar.components.first(where: { $0.is("VTODO") && $0.property("RECURRENCE-ID") == nil })
    else { return false }
    for filter in properties {
      let values = todo.properties(filter.name).map(\.text)
      switch filter.defined {
      case false?: if !values.isEmpty { return false }
      case true?: if values.isEmpty { return false }
      case nil:
        let found = values.contains { $0.localizedCaseInsensitiveContains(filter.text ?? "") }
        // A negated match of a property that is not there is no match (RFC 4791 §9.7.5).
        if values.isEmpty || found == filter.negate { return false }
      }
    }
    return true
  }

  /// RFC 4791 §9.9 for a VTODO: by its DUE; else by COMPLETED and CREATED.
  func inRange(_ stored: StoredTask) -> Bool {
    let start = start ?? .distantPast
    let end = end ?? .distantFuture
    if let due = stored.task.due {
      let seconds = due.time.map { TimeInterval($0.hour * 3600 + $0.minute * 60) } ?? 0
      let instant = Date(timeIntervalSince1970: TimeInterval(due.date.dayNumber) * 86_400 + seconds)
      // A date without a time lasts the day; a zone moves the instant by at most a day: both are kept generous.
      return start < instant.addingTimeInterval(86_400 + 14 * 3600) && end >= instant.addingTimeInterval(-14 * 3600)
    }
    if let completed = stored.task.completedAt {
      return (start <= stored.createdAt || start <= completed) && (end >= stored.createdAt || end >= completed)
    }
    return end > stored.createdAt
  }
}

// ICalendar: RFC 5545's text format read into a tree of components and content lines, and written back. Nothing is
// interpreted here: names keep their spelling, parameter values their quotes, property values their escapes, so that
// what is read is written back byte for byte (lines folded anew at 75 octets, ends CRLF). Pure values; any thread.

/// Reads and writes iCalendar text (RFC 5545 §3.1): content lines unfolded, components nested, limits kept.
public enum ICalendar {
  /// The most content lines (after unfolding) a text may have.
  public static let maxLines = 10_000
  /// The deepest nesting of components (VCALENDAR › VTODO › VALARM is 3).
  public static let maxDepth = 8

  /// Reads one VCALENDAR object from UTF-8 text (CRLF or LF line ends; a leading byte order mark is skipped).
  public static func parse(_ bytes: some Collection<UInt8>) throws(ICalendarError) -> ICalComponent {
    var stack: [ICalComponent] = []
    var root: ICalComponent?
    for (number, raw) in try unfold(Array(bytes)) {
      let line = try ContentLine(raw, number: number)
      if root != nil { throw ICalendarError(.afterEnd, line: number, "text after END:\(root?.name ?? "")") }
      let keyword = line.name.uppercased()
      if stack.isEmpty && !(keyword == "BEGIN" && line.value.uppercased() == "VCALENDAR") {
        throw ICalendarError(.noCalendar, line: number, "the text does not start with BEGIN:VCALENDAR")
      }
      switch keyword {
      case "BEGIN":
        guard isName(line.value.utf8) else { throw ICalendarError(.badName, line: number, "BEGIN:\(line.value)") }
        guard stack.count < maxDepth else {
          throw ICalendarError(.tooDeep, line: number, "components nested deeper than \(maxDepth)")
        }
        stack.append(ICalComponent(line.value))
      case "END":
        guard let done = stack.popLast(), done.name.uppercased() == line.value.uppercased() else {
          throw ICalendarError(.unbalanced, line: number, "END:\(line.value) closes no BEGIN:\(line.value)")
        }
        if stack.isEmpty { root = done } else { stack[stack.count - 1].items.append(.component(done)) }
      default:
        stack[stack.count - 1].items.append(.property(line.property))
      }
    }
    guard let root else {
      if let open = stack.last { throw ICalendarError(.unbalanced, line: nil, "BEGIN:\(open.name) has no END") }
      throw ICalendarError(.noCalendar, line: nil, "the text has no BEGIN:VCALENDAR")
    }
    return root
  }

  /// Reads one VCALENDAR object from text.
  public static func parse(_ text: String) throws(ICalendarError) -> ICalComponent {
    try parse(Array(text.utf8))
  }

  /// The logical lines of `bytes` with the physical line each starts on: line ends removed, folded lines (those
  /// starting with a space or a tab) joined, empty lines skipped. Joining bytes, not characters, mends a writer that
  /// folded inside a UTF-8 sequence.
  static func unfold(_ bytes: [UInt8]) throws(ICalendarError) -> [(Int, [UInt8])] {
    var lines: [(Int, [UInt8])] = []
    var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    var number = 1
    var index = start
    func take(_ end: Int) throws(ICalendarError) {
      defer { number += 1 }
      let physical = bytes[start..<end]
      guard let first = physical.first else { return }
      if first == 0x20 || first == 0x09 {
        guard !lines.isEmpty else {
          throw ICalendarError(.noCalendar, line: number, "a folded line with no line before")
        }
        lines[lines.count - 1].1.append(contentsOf: physical.dropFirst())
      } else {
        guard lines.count < maxLines else {
          throw ICalendarError(.tooLong, line: number, "more than \(maxLines) lines")
        }
        lines.append((number, Array(physical)))
      }
    }
    while index < bytes.count {
      switch bytes[index] {
      case 0: throw ICalendarError(.nulByte, line: number, "a NUL byte")
      case 0x0D:
        guard index + 1 < bytes.count, bytes[index + 1] == 0x0A else {
          throw ICalendarError(.bareCR, line: number, "a carriage return not followed by a line feed")
        }
        try take(index)
        index += 2
        start = index
      case 0x0A:
        try take(index)
        index += 1
        start = index
      default: index += 1
      }
    }
    try take(index)
    return lines
  }

  /// An iana-token or x-name: letters, digits and "-" (RFC 5545 §3.1).
  static func isName(_ bytes: some Collection<UInt8>) -> Bool {
    !bytes.isEmpty && bytes.allSatisfy { $0 == 0x2D || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0 & 0xDF) }
  }

  // MARK: TEXT values

  /// A TEXT value as meant: `\n` and `\N` a line break, `\\`, `\;`, `\,` the character; any other backslash kept.
  public static func unescape(_ raw: some StringProtocol) -> String {
    var text = ""
    var escaping = false
    for scalar in raw.unicodeScalars {
      if escaping {
        switch scalar {
        case "n", "N": text.append("\n")
        case "\\", ";", ",": text.unicodeScalars.append(scalar)
        default: text.unicodeScalars.append(contentsOf: ["\\", scalar])
        }
        escaping = false
      } else if scalar == "\\" {
        escaping = true
      } else {
        text.unicodeScalars.append(scalar)
      }
    }
    if escaping { text.append("\\") }
    return text
  }

  /// Text as a TEXT value: backslash, semicolon and comma escaped, each line break (CRLF, LF or CR) as `\n`.
  public static func escape(_ text: String) -> String {
    var raw = ""
    var afterCR = false
    for scalar in text.unicodeScalars {
      defer { afterCR = scalar == "\r" }
      switch scalar {
      case "\\": raw += "\\\\"
      case ";": raw += "\\;"
      case ",": raw += "\\,"
      case "\r": raw += "\\n"
      case "\n": if !afterCR { raw += "\\n" }
      default: raw.unicodeScalars.append(scalar)
      }
    }
    return raw
  }

  /// A list value (`CATEGORIES:a,b\,c`) split at its unescaped commas, each part still escaped.
  public static func splitList(_ raw: String) -> [Substring] {
    var parts: [Substring] = []
    var start = raw.startIndex
    var escaping = false
    for index in raw.indices {
      if escaping {
        escaping = false
      } else if raw[index] == "\\" {
        escaping = true
      } else if raw[index] == "," {
        parts.append(raw[start..<index])
        start = raw.index(after: index)
      }
    }
    parts.append(raw[start...])
    return parts
  }

  // MARK: Writing

  /// `line` folded to lines of at most 75 octets (continuations start with a space), never inside a UTF-8 sequence,
  /// each ended by CRLF, appended to `text`.
  static func fold(_ line: String, into text: inout String) {
    var octets = 0
    for scalar in line.unicodeScalars {
      let width = UTF8.width(scalar)
      if octets + width > 75 {
        text += "\r\n "
        octets = 1
      }
      text.unicodeScalars.append(scalar)
      octets += width
    }
    text += "\r\n"
  }
}

/// A component: `BEGIN:NAME`, its properties and subcomponents in the order written, `END:NAME`.
public struct ICalComponent: Equatable, Sendable {
  /// What a component holds, in order.
  public enum Item: Equatable, Sendable {
    case property(ICalProperty)
    case component(ICalComponent)
  }

  /// The name as written after BEGIN (`VTODO`, `X-THING`); compare with `is(_:)`.
  public var name: String
  /// The properties and subcomponents, in the order written.
  public var items: [Item]

  /// An empty component, or one with `items`.
  public init(_ name: String, _ items: [Item] = []) {
    self.name = name
    self.items = items
  }

  /// Whether the component is named `name`, ignoring case.
  public func `is`(_ name: String) -> Bool { self.name.uppercased() == name.uppercased() }

  /// The properties, in order.
  public var properties: [ICalProperty] {
    items.compactMap { if case .property(let property) = $0 { property } else { nil } }
  }

  /// The subcomponents, in order.
  public var components: [ICalComponent] {
    items.compactMap { if case .component(let component) = $0 { component } else { nil } }
  }

  /// The properties named `name` (ignoring case), in order.
  public func properties(_ name: String) -> [ICalProperty] { properties.filter { $0.is(name) } }

  /// The first property named `name` (ignoring case).
  public func property(_ name: String) -> ICalProperty? { properties.first { $0.is(name) } }

  /// The text as RFC 5545 writes it: lines folded at 75 octets, CRLF line ends.
  public var text: String {
    var text = ""
    write(into: &text)
    return text
  }

  private func write(into text: inout String) {
    ICalendar.fold("BEGIN:" + name, into: &text)
    for item in items {
      switch item {
      case .property(let property): ICalendar.fold(property.line, into: &text)
      case .component(let component): component.write(into: &text)
      }
    }
    ICalendar.fold("END:" + name, into: &text)
  }
}

/// A content line: `NAME;PARAM=value:value`.
public struct ICalProperty: Equatable, Sendable {
  /// The name as written (`DUE`, `X-APPLE-SORT-ORDER`); compare with `is(_:)`.
  public var name: String
  /// The parameters, in the order written.
  public var parameters: [ICalParameter]
  /// The value as written: a TEXT value still escaped (see `text`).
  public var value: String

  /// A property whose value is written as given (already escaped where it is TEXT).
  public init(_ name: String, _ parameters: [ICalParameter] = [], value: String) {
    self.name = name
    self.parameters = parameters
    self.value = value
  }

  /// A property whose value is TEXT, escaped here.
  public init(_ name: String, _ parameters: [ICalParameter] = [], text: String) {
    self.init(name, parameters, value: ICalendar.escape(text))
  }

  /// Whether the property is named `name`, ignoring case.
  public func `is`(_ name: String) -> Bool { self.name.uppercased() == name.uppercased() }

  /// The value read as TEXT (escapes resolved).
  public var text: String { ICalendar.unescape(value) }

  /// The first value of the parameter named `name` (ignoring case), quotes removed.
  public func parameter(_ name: String) -> String? {
    parameters.first { $0.name.uppercased() == name.uppercased() }?.values.first
  }

  /// The content line, unfolded.
  var line: String {
    name + parameters.map { ";" + $0.name + "=" + $0.rawValues.joined(separator: ",") }.joined() + ":" + value
  }
}

/// A property's parameter: `TZID=Europe/Berlin`, `MEMBER="mailto:a@example.com","mailto:b@example.com"`.
public struct ICalParameter: Equatable, Sendable {
  /// The name as written.
  public var name: String
  /// The values as written, quotes included, so that each comes back as it was.
  public var rawValues: [String]

  /// A parameter with `values`, each quoted where it holds `:`, `;` or `,` (a `"` cannot be written and is dropped).
  public init(_ name: String, _ values: [String]) {
    self.name = name
    rawValues = values.map { value in
      let clean = value.filter { $0 != "\"" }
      return clean.contains(where: { ":;,".contains($0) }) ? "\"\(clean)\"" : clean
    }
  }

  init(name: String, rawValues: [String]) {
    self.name = name
    self.rawValues = rawValues
  }

  /// The values, quotes removed.
  public var values: [String] {
    rawValues.map { $0.count >= 2 && $0.hasPrefix("\"") && $0.hasSuffix("\"") ? String($0.dropFirst().dropLast()) : $0 }
  }
}

/// Why a text is not iCalendar: what is wrong and on which line (the first physical line of a folded one).
public struct ICalendarError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The kinds of fault.
  public enum Code: String, Sendable {
    case notUTF8, nulByte, bareCR, noCalendar, noColon, badName, badParameter, unbalanced, tooDeep, tooLong, afterEnd
  }

  /// What kind of fault it is.
  public let code: Code
  /// The physical line (1-based), when one line is at fault.
  public let line: Int?
  let detail: String

  init(_ code: Code, line: Int?, _ detail: String) {
    self.code = code
    self.line = line
    self.detail = detail.count > 80 ? String(detail.prefix(80)) + "…" : detail
  }

  /// A one-line message naming the line: `line 3: END:VTODO closes no BEGIN:VTODO`.
  public var description: String { line.map { "line \($0): \(detail)" } ?? detail }
}

/// One unfolded content line split into its parts (RFC 5545 §3.1).
private struct ContentLine {
  let name: String
  let parameters: [ICalParameter]
  let value: String

  init(_ bytes: [UInt8], number: Int) throws(ICalendarError) {
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw ICalendarError(.notUTF8, line: number, "not UTF-8")
    }
    let utf8 = Array(text.utf8)
    func piece(_ range: Range<Int>) -> String { String(decoding: utf8[range], as: UTF8.self) }
    var index = 0
    func name(_ what: String) throws(ICalendarError) -> String {
      let start = index
      while index < utf8.count, utf8[index] != UInt8(ascii: ";"), utf8[index] != UInt8(ascii: ":"),
        utf8[index] != UInt8(ascii: "=")
      {
        index += 1
      }
      guard index < utf8.count else { throw ICalendarError(.noColon, line: number, "no ':' in \(text)") }
      guard ICalendar.isName(utf8[start..<index]) else {
        throw ICalendarError(.badName, line: number, "\(what) \"\(piece(start..<index))\"")
      }
      return piece(start..<index)
    }
    self.name = try name("a property named")
    guard utf8[index] != UInt8(ascii: "=") else { throw ICalendarError(.badName, line: number, "'=' in a name") }
    var parameters: [ICalParameter] = []
    while utf8[index] == UInt8(ascii: ";") {
      index += 1
      let parameter = try name("a parameter named")
      guard utf8[index] == UInt8(ascii: "=") else {
        throw ICalendarError(.badParameter, line: number, "the parameter \(parameter) has no '='")
      }
      var values: [String] = []
      repeat {
        index += 1
        let start = index
        if index < utf8.count, utf8[index] == UInt8(ascii: "\"") {
          index += 1
          while index < utf8.count, utf8[index] != UInt8(ascii: "\"") { index += 1 }
          guard index < utf8.count else {
            throw ICalendarError(.badParameter, line: number, "the parameter \(parameter) has no closing quote")
          }
          index += 1
        } else {
          while index < utf8.count, !";:,\"".utf8.contains(utf8[index]) { index += 1 }
        }
        values.append(piece(start..<index))
        guard index < utf8.count, ",;:".utf8.contains(utf8[index]) else {
          throw ICalendarError(.badParameter, line: number, "the parameter \(parameter) is not followed by ':'")
        }
      } while utf8[index] == UInt8(ascii: ",")
      parameters.append(ICalParameter(name: parameter, rawValues: values))
    }
    self.parameters = parameters
    value = piece(index + 1..<utf8.count)
  }

  var property: ICalProperty { ICalProperty(name, parameters, value: value) }
}

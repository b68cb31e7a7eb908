// DAVXML: the XML of WebDAV requests read into a small tree (libxml2 through FoundationXML, with no DTD, no entity,
// a size and a depth limit), and the multistatus answers written. Values; any thread.

import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// An XML element of a request: its namespace and local name, its children, its text.
package struct DAVElement: Equatable {
  package var namespace: String
  package var name: String
  package var children: [DAVElement] = []
  package var text = ""
  package var attributes: [String: String] = [:]

  /// `namespace` + `name`, as `DAV:prop`.
  var key: String { namespace + name }

  package func child(_ namespace: String, _ name: String) -> DAVElement? {
    children.first { $0.namespace == namespace && $0.name == name }
  }

  package func children(_ namespace: String, _ name: String) -> [DAVElement] {
    children.filter { $0.namespace == namespace && $0.name == name }
  }
}

/// Why a request's XML was refused (answered 400 with the reason).
package struct DAVXMLError: Error, Equatable {
  package let reason: String
}

package enum DAVXML {
  package static let dav = "DAV:"
  package static let caldav = "urn:ietf:params:xml:ns:caldav"
  static let calendarServer = "http://calendarserver.org/ns/"
  static let apple = "http://apple.com/ns/ical/"
  static let maxDepth = 32
  static let maxElements = 20_000

  /// The document element of `data`. A DTD, an entity declaration or reference other than XML's five, a processing
  /// instruction, more than `maxDepth` levels or `maxElements` elements are refused, as is anything libxml2 cannot
  /// read.
  package static func parse(_ data: Data) throws(DAVXMLError) -> DAVElement {
    // UTF-8 only, and read as UTF-8: the checks below look at the bytes the parser reads. A body in UTF-16, or one
    // whose declaration names another encoding (UTF-7 spells `<` as `+ADw-`), would carry a DTD or a processing
    // instruction past them unseen.
    guard String(validating: data, as: UTF8.self) != nil, !data.contains(0) else {
      throw DAVXMLError(reason: "the body is not UTF-8")
    }
    var rest = data[...]
    if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
    if let declared = try declaration(rest) {
      rest = rest[declared.end...]
      if let encoding = declared.encoding, !["utf-8", "utf8", "us-ascii"].contains(encoding.lowercased()) {
        throw DAVXMLError(reason: "the body is declared in \(encoding); only UTF-8 is accepted")
      }
    }
    // No DAV request needs a DTD: one is refused before the parser sees it (no external entity, no expansion).
    if rest.range(of: Data("<!DOCTYPE".utf8)) != nil || rest.range(of: Data("<!ENTITY".utf8)) != nil {
      throw DAVXMLError(reason: "a document type declaration is not accepted")
    }
    // Nor a processing instruction: FoundationXML reads one without data through a null pointer, which ended the
    // whole service (`<?x?>`, found by fuzzing). Only the XML declaration, first, opens with `<?`.
    if rest.range(of: Data("<?".utf8)) != nil {
      throw DAVXMLError(reason: "a processing instruction is not accepted")
    }
    let reader = TreeReader()
    let parser = XMLParser(data: data)
    parser.shouldProcessNamespaces = true
    parser.shouldResolveExternalEntities = false
    parser.delegate = reader
    let parsed = parser.parse()
    if let problem = reader.problem { throw DAVXMLError(reason: problem) }
    guard parsed, let root = reader.root else {
      throw DAVXMLError(reason: "the body is not well-formed XML")
    }
    return root
  }

  /// The XML declaration `body` opens with (`<?xml version="1.0" encoding="utf-8"?>`): where it ends, and the
  /// encoding it names; nil without one. One that does not end, or whose encoding is not a quoted name, is refused.
  private static func declaration(_ body: Data.SubSequence) throws(DAVXMLError) -> (end: Int, encoding: String?)? {
    let opening = Data("<?xml".utf8)
    guard body.starts(with: opening), let next = body.dropFirst(opening.count).first,
      next == 0x20 || next == 0x09 || next == 0x0A || next == 0x0D
    else { return nil }
    guard let close = body.range(of: Data("?>".utf8)) else {
      throw DAVXMLError(reason: "the XML declaration does not end")
    }
    let text = String(decoding: body[body.startIndex..<close.lowerBound], as: UTF8.self)
    // Its version and nothing that opens or closes markup: what libxml2 does not read as a declaration it reads on,
    // and a `<?` inside would pass unseen (`<?xml a/><b<?xml?>`, found by fuzzing).
    guard text.contains("version"), !text.dropFirst().contains(where: { $0 == "<" || $0 == ">" }) else {
      throw DAVXMLError(reason: "the XML declaration is not understood")
    }
    guard let name = text.range(of: "encoding") else { return (close.upperBound, nil) }
    let value = text[name.upperBound...].drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    guard value.first == "=" else { throw DAVXMLError(reason: "the XML declaration's encoding is not understood") }
    let quoted = value.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    guard let quote = quoted.first, quote == "\"" || quote == "'",
      let end = quoted.dropFirst().firstIndex(of: quote)
    else { throw DAVXMLError(reason: "the XML declaration's encoding is not understood") }
    return (close.upperBound, String(quoted[quoted.index(after: quoted.startIndex)..<end]))
  }

  private final class TreeReader: NSObject, XMLParserDelegate {
    var stack: [DAVElement] = []
    var root: DAVElement?
    var problem: String?
    var count = 0

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      count += 1
      guard stack.count < DAVXML.maxDepth, count <= DAVXML.maxElements else {
        problem = "the XML is nested deeper than \(DAVXML.maxDepth) levels or has over \(DAVXML.maxElements) elements"
        parser.abortParsing()
        return
      }
      stack.append(DAVElement(namespace: namespaceURI ?? "", name: name, attributes: attributes))
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
      guard let element = stack.popLast() else { return }
      if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      guard !stack.isEmpty else { return }
      stack[stack.count - 1].text += string
    }

    func parser(_ parser: XMLParser, foundCDATA data: Data) {
      guard !stack.isEmpty else { return }
      stack[stack.count - 1].text += String(decoding: data, as: UTF8.self)
    }

    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? { nil }
  }

  // MARK: Writing

  /// `text` with `&`, `<`, `>` and `"` escaped.
  static func escaped(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for character in text.unicodeScalars {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "\r": out += "&#13;"
      default:
        // Characters XML 1.0 cannot carry are left out (a title cannot hold them either).
        if character.value < 0x20 && character != "\n" && character != "\t" { continue }
        out.unicodeScalars.append(character)
      }
    }
    return out
  }

  /// The prefixes the answers use.
  static let prefixes = [dav: "d", caldav: "c", calendarServer: "cs", apple: "a"]

  /// `<prefix:name>` for a namespace the answers know, else a declared default namespace.
  static func open(_ namespace: String, _ name: String) -> String {
    if let prefix = prefixes[namespace] { return "<\(prefix):\(name)>" }
    return "<\(name) xmlns=\"\(escaped(namespace))\">"
  }

  static func close(_ namespace: String, _ name: String) -> String {
    if let prefix = prefixes[namespace] { return "</\(prefix):\(name)>" }
    return "</\(name)>"
  }

  static func empty(_ namespace: String, _ name: String) -> String {
    if let prefix = prefixes[namespace] { return "<\(prefix):\(name)/>" }
    return "<\(name) xmlns=\"\(escaped(namespace))\"/>"
  }

  /// A multistatus document around `responses`.
  static func multistatus(_ responses: [String], extra: String = "") -> String {
    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<d:multistatus xmlns:d=\"DAV:\" "
      + "xmlns:c=\"urn:ietf:params:xml:ns:caldav\" xmlns:cs=\"http://calendarserver.org/ns/\" "
      + "xmlns:a=\"http://apple.com/ns/ical/\">" + responses.joined() + extra + "</d:multistatus>\n"
  }

  /// An error document with one precondition (`<d:error><c:valid-calendar-data/></d:error>`).
  static func error(_ namespace: String, _ name: String, _ description: String? = nil) -> String {
    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<d:error xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\">"
      + empty(namespace, name)
      + (description.map { "<d:responsedescription>\(escaped($0))</d:responsedescription>" } ?? "")
      + "</d:error>\n"
  }
}

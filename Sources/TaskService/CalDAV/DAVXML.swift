// DAVXML: the XML of WebDAV requests read into a small tree (libxml2's SAX2 interface, with no DTD, no entity,
// a size and a depth limit), and the multistatus answers written. Values; any thread.

import CXML2
import Foundation

/// An XML element of a request: its namespace and local name, its children, its text.
package struct DAVElement: Equatable, Sendable {
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
  /// Whether the reader met itself what `parse`'s checks before it refuse (a DTD, a processing instruction, a start
  /// tag longer than they allow): through `parse` this is a missed check (the fuzzing harness fails on it).
  package var metByReader = false
}

package enum DAVXML {
  package static let dav = "DAV:"
  package static let caldav = "urn:ietf:params:xml:ns:caldav"
  static let calendarServer = "http://calendarserver.org/ns/"
  static let apple = "http://apple.com/ns/ical/"
  static let maxDepth = 32
  static let maxElements = 20_000

  /// The document element of `data`. A DTD, an entity declaration or reference other than XML's five, a processing
  /// instruction, more than `maxDepth` levels or `maxElements` elements are refused, as is anything not well-formed
  /// (namespaces included).
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
    try checkMarkup(rest)
    return try tree(data)
  }

  static let maxStartTag = 4096
  static let longStartTag = "a start tag is longer than \(maxStartTag) bytes"

  /// The markup of `body` checked before the parser reads it, comments and CDATA sections skipped (what they hold is
  /// text, which a text-match may search for) and quotes honoured in start tags:
  /// - no DAV request needs a DTD or any markup declaration (`<!` opening neither a comment nor a CDATA section):
  ///   refused before the parser sees one (no external entity, no expansion);
  /// - nor a processing instruction: FoundationXML's reader, before ours, read one without data through a null
  ///   pointer, which ended the whole service (`<?x?>`, found by fuzzing); only the XML declaration, first and taken
  ///   off before this, opens with `<?`;
  /// - libxml2 2.9 compares each attribute of a start tag with every one before it: one tag of 105 403 attributes in
  ///   a 1 MiB body took 2.4-2.6 s of CPU (found by a review). A request's start tags are a few hundred bytes.
  /// The reader refuses a DTD and an instruction again where libxml2 meets one, should this scan and libxml2 ever
  /// disagree on where a comment or a section ends.
  static func checkMarkup(_ body: Data.SubSequence) throws(DAVXMLError) {
    var index = body.startIndex
    // The close is looked for after the whole opening: `<!-->` is no comment to libxml2, which reads on to the next
    // `-->` (found by a review: a scan that took `<!-->` for a whole comment let what libxml2 read as the comment's
    // text hide a start tag of 105 423 attributes, 2.4 s of CPU, and a DTD the reader then had to refuse itself).
    func skip(_ opening: String, past end: String) -> Bool {
      guard body[index...].starts(with: opening.utf8) else { return false }
      index = body[(index + opening.utf8.count)...].range(of: Data(end.utf8))?.upperBound ?? body.endIndex
      return true
    }
    while let open = body[index...].firstIndex(of: UInt8(ascii: "<")) {
      index = open + 1
      if skip("!--", past: "-->") || skip("![CDATA[", past: "]]>") { continue }
      let markup = body[index...]
      switch markup.first {
      case UInt8(ascii: "!"): throw DAVXMLError(reason: "a document type declaration is not accepted")
      case UInt8(ascii: "?"): throw DAVXMLError(reason: "a processing instruction is not accepted")
      case UInt8(ascii: "/"), nil: continue
      default: break
      }
      var quote: UInt8?
      while index < body.endIndex {
        let byte = body[index]
        index += 1
        if let open = quote {
          if byte == open { quote = nil }
        } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
          quote = byte
        } else if byte == UInt8(ascii: ">") {
          break
        }
      }
      // An unclosed tag counts to the end: the parser refuses it anyway.
      if index - open > maxStartTag {
        throw DAVXMLError(reason: longStartTag)
      }
    }
  }

  /// The tree libxml2 reads from `data`, without `parse`'s checks on the markup: a DTD or a processing instruction is
  /// refused again where the parser meets it.
  package static func tree(_ data: Data) throws(DAVXMLError) -> DAVElement {
    try TreeReader.read(data)
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

  /// The tree of a body, read by libxml2's push parser through SAX2 callbacks of our own: no document is built, no
  /// entity is looked up (a reference to any but XML's five is an error, there being no DTD), and libxml2's errors
  /// go to a callback that only notes them (not to stderr; FoundationXML's reader kept a copy of each message for
  /// good: a leak any signed-in client could grow, found by fuzzing).
  private final class TreeReader {
    var stack: [DAVElement] = []
    var root: DAVElement?
    var problem: String?
    var metByReader = false
    var count = 0
    var context: xmlParserCtxtPtr?
    var namespaceError = false

    /// libxml2's global state, made once before any parse (`xmlInitParser` is not safe to race).
    private static let initialized: Bool = {
      xmlInitParser()
      return true
    }()

    static func read(_ data: Data) throws(DAVXMLError) -> DAVElement {
      _ = initialized
      guard data.count < Int32.max else { throw DAVXMLError(reason: "the body is too large") }
      let reader = TreeReader()
      var handler = xmlSAXHandler()
      handler.initialized = 0xDEED_BEAF  // XML_SAX2_MAGIC: the callbacks below are SAX2's
      handler.startElementNs = { user, name, _, uri, _, _, attributeCount, _, attributes in
        TreeReader.of(user).start(name, uri, Int(attributeCount), attributes)
      }
      handler.endElementNs = { user, _, _, _ in TreeReader.of(user).end() }
      handler.characters = { user, bytes, length in TreeReader.of(user).text(bytes, length) }
      handler.ignorableWhitespace = handler.characters
      handler.cdataBlock = handler.characters
      // What `checkMarkup` refuses, refused again where libxml2 meets it, before it reads any of it.
      handler.internalSubset = { user, _, _, _ in
        TreeReader.of(user).refuse("a document type declaration is not accepted", metByReader: true)
      }
      handler.processingInstruction = { user, _, _ in
        TreeReader.of(user).refuse("a processing instruction is not accepted", metByReader: true)
      }
      // Only namespace errors proper are noted (an undeclared prefix, a name with two colons: codes 200…205);
      // libxml2 also raises an IRI as a namespace name (`urn:café`) as an error, which Namespaces in XML allows.
      handler.serror = { user, error in
        if let code = error?.pointee.code, (200..<300).contains(code) { TreeReader.of(user).namespaceError = true }
      }
      let user = Unmanaged.passUnretained(reader).toOpaque()
      guard let context = xmlCreatePushParserCtxt(&handler, user, nil, 0, nil) else {
        throw DAVXMLError(reason: "the body could not be read")
      }
      defer { xmlFreeParserCtxt(context) }
      reader.context = context
      // No network; XML's five references given as their characters in attributes too (without NOENT, SAX2 hands
      // `&amp;` in an attribute on as `&#38;`). There is no other entity to replace: a DTD is refused twice over.
      _ = xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOENT.rawValue))
      withExtendedLifetime(reader) {
        data.withUnsafeBytes { bytes in
          _ = xmlParseChunk(context, bytes.bindMemory(to: CChar.self).baseAddress, Int32(bytes.count), 1)
        }
      }
      if let problem = reader.problem { throw DAVXMLError(reason: problem, metByReader: reader.metByReader) }
      // Well-formed, and namespace-well-formed: a prefix never declared, or a name with two colons, is refused too
      // (libxml2 reads on past them, as expat does not).
      guard context.pointee.wellFormed != 0, !reader.namespaceError, let root = reader.root else {
        throw DAVXMLError(reason: "the body is not well-formed XML")
      }
      return root
    }

    private static func of(_ user: UnsafeMutableRawPointer?) -> TreeReader {
      Unmanaged<TreeReader>.fromOpaque(user!).takeUnretainedValue()
    }

    private static func string(_ bytes: UnsafePointer<xmlChar>?) -> String {
      bytes.map { String(cString: $0) } ?? ""
    }

    private func refuse(_ reason: String, metByReader: Bool = false) {
      if problem == nil { (problem, self.metByReader) = (reason, metByReader) }
      xmlStopParser(context)
    }

    /// An element opens. `attributes` holds five pointers for each: local name, prefix, namespace, value, value's end.
    private func start(
      _ name: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?, _ attributeCount: Int,
      _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
      count += 1
      // A start tag of `maxStartTag` bytes holds at most this many attributes (` a=''`, five bytes each): more means
      // the checks missed a longer one, which libxml2 has just compared pairwise (refused here for the harness to see).
      guard attributeCount <= DAVXML.maxStartTag / 5 else {
        refuse(DAVXML.longStartTag, metByReader: true)
        return
      }
      guard stack.count < DAVXML.maxDepth, count <= DAVXML.maxElements else {
        refuse("the XML is nested deeper than \(DAVXML.maxDepth) levels or has over \(DAVXML.maxElements) elements")
        return
      }
      var element = DAVElement(namespace: Self.string(uri), name: Self.string(name))
      if let attributes {
        for index in stride(from: 0, to: attributeCount * 5, by: 5) {
          guard let local = attributes[index], let value = attributes[index + 3], let end = attributes[index + 4]
          else { continue }
          let prefix = Self.string(attributes[index + 1])
          let key = prefix.isEmpty ? Self.string(local) : prefix + ":" + Self.string(local)
          element.attributes[key] = String(
            decoding: UnsafeBufferPointer(start: value, count: max(0, end - value)), as: UTF8.self)
        }
      }
      stack.append(element)
    }

    private func end() {
      guard let element = stack.popLast() else { return }
      if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
    }

    private func text(_ bytes: UnsafePointer<xmlChar>?, _ length: Int32) {
      guard !stack.isEmpty, let bytes, length > 0 else { return }
      stack[stack.count - 1].text += String(
        decoding: UnsafeBufferPointer(start: bytes, count: Int(length)), as: UTF8.self)
    }
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

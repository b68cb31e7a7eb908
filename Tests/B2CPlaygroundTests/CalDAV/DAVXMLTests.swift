// Tests of the reader of CalDAV's request bodies (libxml2's SAX2 interface): the tree it makes, each kind of garbage
// refused with its reason, its own refusals of a DTD and a processing instruction behind the checks on the bytes, and,
// over the fuzzing corpus, its agreement with expat on what is well-formed and with FoundationXML's reader (the one it
// replaced, which read garbage in libxml2's recovery mode) on each tree it reads.

import Foundation
import TasksTestSupport
import Testing

@testable import TaskService

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite("CalDAV: the request bodies' XML")
struct DAVXMLTests {
  static func parse(_ text: String) throws(DAVXMLError) -> DAVElement { try DAVXML.parse(Data(text.utf8)) }

  @Test("a calendar-query's tree: namespaces, attributes, text with references and CDATA")
  func tree() throws {
    let body = """
      <?xml version="1.0" encoding="utf-8"?>
      <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:x="urn:x">
        <d:prop><d:getetag/><c:calendar-data/></d:prop>
        <c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO" x:mark="a&amp;b&#33;">
          <c:prop-filter name="SUMMARY"><c:text-match collation="i;unicode-casemap">Fish &amp; chips &lt;3&#x21;<![CDATA[ & <more> ]]>é</c:text-match></c:prop-filter>
        </c:comp-filter></c:comp-filter></c:filter>
        <unqualified xmlns="">plain</unqualified><defaulted xmlns="urn:y"/>
      </c:calendar-query>
      """
    let root = try Self.parse(body)
    #expect(root.namespace == DAVXML.caldav && root.name == "calendar-query")
    #expect(root.children.map(\.name) == ["prop", "filter", "unqualified", "defaulted"])
    #expect(root.children.map(\.namespace) == [DAVXML.dav, DAVXML.caldav, "", "urn:y"])
    #expect(
      try #require(root.child(DAVXML.dav, "prop")).children.map(\.key) == [
        "DAV:getetag", DAVXML.caldav + "calendar-data",
      ])
    let todo = try #require(
      root.child(DAVXML.caldav, "filter")?.child(DAVXML.caldav, "comp-filter")?.child(DAVXML.caldav, "comp-filter"))
    #expect(todo.attributes == ["name": "VTODO", "x:mark": "a&b!"])
    let match = try #require(todo.child(DAVXML.caldav, "prop-filter")?.child(DAVXML.caldav, "text-match"))
    #expect(match.text == "Fish & chips <3! & <more> é")
    #expect(match.attributes == ["collation": "i;unicode-casemap"])
    #expect(root.child("", "unqualified")?.text == "plain")
    // Namespace names libxml2 raises errors on but Namespaces in XML allows (an IRI, a URI with braces): read.
    #expect(try Self.parse("<x:a xmlns:x=\"urn:café\"/>").namespace == "urn:café")
    #expect(try Self.parse("<a xmlns=\"http://example.com/{ns}\"/>").namespace == "http://example.com/{ns}")
  }

  @Test(
    "garbage is refused with its reason",
    arguments: [
      ("", "not well-formed"), ("<d:prop xmlns:d=\"DAV:\">", "not well-formed"),
      ("<a></b>", "not well-formed"), ("<a/><b/>", "not well-formed"), ("text", "not well-formed"),
      ("<a>&nbsp;</a>", "not well-formed"), ("<a>&#0;</a>", "not well-formed"), ("<p:a/>", "not well-formed"),
      ("<a x='1' x='2'/>", "not well-formed"), ("<a>\u{1}</a>", "not well-formed"),
      ("<?xml version=\"1.0\" encoding=\"latin1\"?><a/>", "declared in latin1"),
      ("<!DOCTYPE a><a/>", "document type"), ("<a><?x?></a>", "processing instruction"),
      ("<a><!ELEMENT b ANY></a>", "document type"), ("<a><![CDATA[x]]><!-- y --><?x?></a>", "processing instruction"),
      ("<a><![CDATA[x]]><!DOCTYPE a></a>", "document type"), ("<a><!-- x --><?x", "processing instruction"),
      (String(repeating: "<a>", count: 33) + String(repeating: "</a>", count: 33), "nested deeper"),
      ("<a>" + String(repeating: "<b/>", count: 20_000) + "</a>", "over 20000 elements"),
      ("<d:a:b xmlns:d=\"DAV:\"/>", "not well-formed"), ("<a xmlns:x=\"\"/>", "not well-formed"),
      // One start tag of 20 000 attributes: libxml2 2.9 compares each with every one before it.
      ("<a" + (0..<20_000).map { " a\($0)=''" }.joined() + "/>", "start tag is longer than 4096"),
    ])
  func garbage(body: String, reason: String) {
    #expect {
      try Self.parse(body)
    } throws: { error in
      // Refused by the checks before the reader where they can be (the reader would refuse some of them too).
      (error as? DAVXMLError).map { $0.reason.contains(reason) && !$0.metByReader } == true
    }
  }

  @Test("the limits' edges are read: 32 levels, 19 999 elements, a start tag of 4096 bytes, long text in any script")
  func edges() throws {
    let nested = String(repeating: "<a>", count: 32) + "x" + String(repeating: "</a>", count: 32)
    #expect(try Self.parse(nested).name == "a")
    let wide = "<a>" + String(repeating: "<b/>", count: 19_999) + "</a>"
    #expect(try Self.parse(wide).children.count == 19_999)
    let tag = "<a x='" + String(repeating: "y", count: 4096 - 9) + "'/>"
    #expect(tag.utf8.count == 4096)
    #expect(try Self.parse(tag).attributes["x"]?.count == 4087)
    #expect(throws: DAVXMLError(reason: "a start tag is longer than 4096 bytes")) {
      try Self.parse("<a x='" + String(repeating: "y", count: 4096 - 8) + "'/>")
    }
    // Comments and CDATA sections are not markup, however long, and what they hold is text: a text-match may search
    // for `<?` or `<!DOCTYPE` (the checks on the bytes had refused both anywhere, until 2026-12-06).
    let long = String(repeating: "<b c='d' ", count: 1000)
    #expect(try Self.parse("<a><!--\(long)--><![CDATA[\(long)]]></a>").text == long)
    let markup = "<?x?> <!DOCTYPE b> <!ENTITY c \"d\"> <?xml version=\"1.0\"?>"
    #expect(try Self.parse("<a><!-- \(markup) --><![CDATA[\(markup)]]><!-- ]]> <? --></a>").text == markup)
    #expect(try Self.parse("\u{FEFF}<?xml version=\"1.0\"?>\n<a>x</a>").text == "x")
    // Text and CDATA in many-byte characters, longer than libxml2's chunks: no character is cut between chunks.
    let text = String(repeating: "é日本語🙂", count: 2000)
    #expect(try Self.parse("<a>\(text)<![CDATA[\(text)]]>\(text)</a>").text == text + text + text)
  }

  @Test("parses on several threads at once read what one thread reads")
  func concurrent() async throws {
    let bodies = (0..<8).map { index in
      "<c:calendar-query xmlns:c=\"urn:ietf:params:xml:ns:caldav\"><c:filter><c:comp-filter name=\"V\(index)\">"
        + String(
          repeating: "<c:prop-filter name=\"S\"><c:text-match>ü\(index)</c:text-match></c:prop-filter>", count: 50)
        + "</c:comp-filter></c:filter></c:calendar-query>"
    }
    let expected = try bodies.map { try Self.parse($0) }
    try await withThrowingTaskGroup(of: Bool.self) { group in
      for worker in 0..<4 {
        group.addTask {
          for round in 0..<100 {
            let index = (worker + round) % bodies.count
            guard try Self.parse(bodies[index]) == expected[index] else { return false }
          }
          return true
        }
      }
      for try await agreed in group { #expect(agreed) }
    }
  }

  @Test("the checks before the parser find comments and sections where libxml2 does, and refuse by themselves")
  func markupScan() throws {
    // Asked directly: the reader would refuse most of these too, with the same reason.
    for (body, reason) in [
      ("<a><?x?></a>", "processing instruction"), ("<!DOCTYPE a><a/>", "document type"),
      ("<a><![CDATA[x]]><!-- y --><?x?></a>", "processing instruction"),
      ("<!-- x --><!DOCTYPE a><a/>", "document type"),
      // `<!-->` and `<!--->` open a comment that ends at the next `-->`, not there: what follows is the comment's
      // text to libxml2, and a scan that ended the comment early read past the `-->` hidden in a quote or a section.
      ("<a><!--><b '--><?x?></a>", "processing instruction"), ("<!--><x '--><!DOCTYPE a><a/>", "document type"),
      ("<!---><x \"--><!DOCTYPE a SYSTEM \"file:///etc/passwd\"><a/>", "document type"),
      ("<a><!--><![CDATA[--><?x?></a>", "processing instruction"),
    ] {
      #expect("\(body)") {
        try DAVXML.checkMarkup(Data(body.utf8)[...])
      } throws: { error in
        (error as? DAVXMLError)?.reason.contains(reason) == true
      }
    }
    // A start tag of 20 000 attributes behind `<!-->` and an unclosed-looking section: measured, and refused.
    let hidden = "<a><!--><![CDATA[--><b" + (0..<20_000).map { " a\($0)=''" }.joined() + "/></a>"
    #expect(throws: DAVXMLError(reason: "a start tag is longer than 4096 bytes")) { try Self.parse(hidden) }
    // `--` inside a comment ends it for the scan and not for libxml2 (2.9 reads on to the next `-->`), which hides
    // what follows from the scan; but it is a fatal error, after which libxml2 reads nothing more.
    #expect(throws: DAVXMLError(reason: "the body is not well-formed XML")) {
      try Self.parse("<a><!-- x ---><![CDATA[ --><?x?>]]></a>")
    }
    #expect(throws: DAVXMLError(reason: "the body is not well-formed XML")) {
      try Self.parse("<a><!-- x ---><![CDATA[ --><b" + (0..<20_000).map { " a\($0)=''" }.joined() + "/>]]></a>")
    }
    // Comments libxml2 reads as comments are read, whatever they hold.
    #expect(try Self.parse("<a><!--><?x--></a>").name == "a")
    #expect(try Self.parse("<a><!--->x<?y-->z<!---->w</a>").text == "zw")
    #expect(try Self.parse("<a><![CDATA[]]><![CDATA[]]]]><![CDATA[>]]></a>").text == "]]>")
  }

  @Test("behind the checks on the bytes, the reader refuses a DTD, an instruction and a long start tag itself")
  func ownRefusals() throws {
    for (body, reason) in [
      ("<!DOCTYPE a [<!ENTITY e \"x\">]><a>&e;</a>", "a document type declaration is not accepted"),
      ("<a><?pi?></a>", "a processing instruction is not accepted"),
      ("<?pi data?><a/>", "a processing instruction is not accepted"),
      // External entities: a DTD from a file, a parameter entity from one; nothing is read.
      ("<!DOCTYPE a SYSTEM \"file:///etc/passwd\"><a/>", "a document type declaration is not accepted"),
      (
        "<!DOCTYPE a [<!ENTITY % p SYSTEM \"file:///etc/passwd\"> %p;]><a/>",
        "a document type declaration is not accepted"
      ),
    ] {
      #expect(throws: DAVXMLError(reason: reason, metByReader: true)) { try DAVXML.tree(Data(body.utf8)) }
    }
    #expect(try DAVXML.tree(Data("<a>x</a>".utf8)).text == "x")
    // A start tag with more attributes than 4 096 bytes can hold: the checks missed it (the harness fails on it).
    func tag(_ attributes: Int) -> Data { Data(("<a" + (0..<attributes).map { " a\($0)=''" }.joined() + "/>").utf8) }
    #expect(throws: DAVXMLError(reason: "a start tag is longer than 4096 bytes", metByReader: true)) {
      try DAVXML.tree(tag(820))
    }
    #expect(try DAVXML.tree(tag(819)).attributes.count == 819)
  }

  /// FoundationXML's reader as the service had it: the same tree from the same callbacks, with the same limits.
  final class FoundationReader: NSObject, XMLParserDelegate {
    var stack: [DAVElement] = []
    var root: DAVElement?
    var count = 0
    var limited = false

    static func read(_ data: Data) -> (DAVElement?, limited: Bool) {
      let reader = FoundationReader()
      let parser = XMLParser(data: data)
      parser.shouldProcessNamespaces = true
      parser.shouldResolveExternalEntities = false
      parser.delegate = reader
      let parsed = parser.parse()
      return (parsed && !reader.limited ? reader.root : nil, reader.limited)
    }

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      count += 1
      guard stack.count < DAVXML.maxDepth, count <= DAVXML.maxElements else {
        limited = true
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
      if !stack.isEmpty { stack[stack.count - 1].text += string }
    }

    func parser(_ parser: XMLParser, foundCDATA data: Data) {
      if !stack.isEmpty { stack[stack.count - 1].text += String(decoding: data, as: UTF8.self) }
    }
  }

  /// Expat's verdict on each file of `folder` (Python's `xml.parsers.expat`, namespaces on): true for well-formed.
  static func expatVerdicts(_ folder: URL) async throws -> [String: Bool] {
    let script = """
      import os, sys, xml.parsers.expat
      for name in sorted(os.listdir(sys.argv[1])):
          parser = xml.parsers.expat.ParserCreate(namespace_separator=" ")
          try:
              parser.Parse(open(os.path.join(sys.argv[1], name), "rb").read(), True)
              print(name, "well-formed")
          except (xml.parsers.expat.ExpatError, ValueError):
              print(name, "refused")
      """
    let run = try await ChildProcess.run(URL(filePath: "/usr/bin/python3"), ["-c", script, folder.path])
    try #require(run.status == 0, "\(run.error)")
    var verdicts: [String: Bool] = [:]
    for line in run.output.split(separator: "\n") {
      let words = line.split(separator: " ")
      if words.count == 2 { verdicts[String(words[0])] = words[1] == "well-formed" }
    }
    return verdicts
  }

  @Test("over the fuzzing corpus, the reader agrees with expat on what is well-formed, and with FoundationXML's tree")
  func agreesWithOthers() async throws {
    let corpus = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appending(path: "Fuzz/corpus/xml")
    let names = try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted()
    let expat = try await Self.expatVerdicts(corpus)
    try #require(expat.count == names.count)
    var compared = (read: 0, refused: 0)
    for name in names {
      let data = try Data(contentsOf: corpus.appending(path: name))
      let ours = Result { () throws(DAVXMLError) in try DAVXML.parse(data) }
      // Whatever the reader refuses itself (a DTD, an instruction), the checks before it refuse first.
      if case .failure(let error) = ours { #expect(!error.metByReader, "\(name): the checks missed \(error.reason)") }
      switch ours {
      case .success(let tree):
        #expect(expat[name] == true, "\(name): read, but expat refuses it")
        // FoundationXML is asked only here: a processing instruction, which the checks refuse, could crash it.
        #expect(FoundationReader.read(data).0 == tree, "\(name)")
        compared.read += 1
      case .failure(let error) where error.reason.contains("well-formed"):
        #expect(expat[name] == false, "\(name): refused, but expat reads it")
        compared.refused += 1
      case .failure(let error):
        // Refused before the parser (a DTD, an instruction, an encoding, the limits): what expat says is no matter,
        // but the reason is one of those.
        let before = [
          "not UTF-8", "declared in", "XML declaration", "document type", "processing instruction", "nested deeper",
          "start tag is longer",
        ]
        #expect(before.contains { error.reason.contains($0) }, "\(name): \(error.reason)")
      }
    }
    // The corpus has both kinds, many of each (a corpus gone empty or unreadable would compare nothing).
    #expect(compared.read >= 20 && compared.refused >= 50, "\(compared)")
  }
}

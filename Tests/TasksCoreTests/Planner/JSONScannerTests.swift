// JSONScanner's objects: a key given twice is refused, whether its bytes repeat or only its text does (an escape),
// and keys of the same length that differ are each read once; a key matches the names it is, and no other.

import TasksCalendar
import TasksTestSupport
import Testing

@Suite("JSONScanner's objects")
struct JSONScannerTests {
  /// The keys `json`'s object was read with, in order, or nil when the scanner refused it.
  static func keys(_ json: String) -> [String]? {
    var bytes = Array(json.utf8)
    return bytes.withUnsafeMutableBufferPointer { buffer -> [String]? in
      var scanner = JSONScanner(bytes: UnsafeBufferPointer(buffer))
      var keys: [String] = []
      let read = scanner.object { scanner, key in
        keys.append(key.string)
        return scanner.skipValue()
      }
      return read && scanner.atEnd() ? keys : nil
    }
  }

  @Test("a key given twice is refused, as bytes or as text; different keys of one length are read")
  func repeatedKeys() {
    #expect(Self.keys(#"{"id": 1, "ix": 2, "di": 3, "listId": 4}"#) == ["id", "ix", "di", "listId"])
    #expect(Self.keys(#"{"id": 1, "title": "a", "id": 2}"#) == nil)
    #expect(Self.keys(#"{"title": 1,"title":2}"#) == nil)
    // The same text through an escape: "a\/b" is "a/b".
    #expect(Self.keys(#"{"a/b": 1, "a\/b": 2}"#) == nil)
    #expect(Self.keys(#"{"a\/b": 1, "a/b": 2}"#) == nil)
    #expect(Self.keys(#"{"a\/b": 1, "a/c": 2, "x": 3, "x": 4}"#) == nil)
    #expect(Self.keys(#"{"a\/b": 1, "a/c": 2}"#) == ["a/b", "a/c"])
    #expect(Self.keys(#"{"é": 1, "e": 2, "é": 3}"#) == nil)
    #expect(Self.keys(#"{"é": 1, "e": 2}"#) == ["é", "e"])
    #expect(Self.keys(#"{}"#) == [])
    // Seventeen keys, as a task has, each once; then the first again at the end.
    let many = (0..<17).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
    #expect(Self.keys("{" + many + "}")?.count == 17)
    #expect(Self.keys("{" + many + ", \"k0\": 0}") == nil)
    // A task's keys, two of which share a bit of the quick check (listId, categories), and each again.
    let task = [
      "id", "listId", "parentId", "title", "notes", "status", "completedAt", "priority", "due", "recurrence",
      "reminders", "categories", "sortKey", "createdAt", "updatedAt", "version", "changedBy",
    ]
    let members = task.map { "\"\($0)\": 0" }.joined(separator: ", ")
    #expect(Self.keys("{" + members + "}") == task)
    for key in task { #expect(Self.keys("{" + members + ", \"\(key)\": 1}") == nil, "\(key) twice") }
    // Past the keys kept on the stack (24): forty keys read, a repeat of one kept on either side refused, as bytes
    // and as text.
    let forty = (0..<40).map { "\"key \($0)\": \($0)" }.joined(separator: ", ")
    #expect(Self.keys("{" + forty + "}")?.count == 40)
    for repeated in [0, 23, 24, 39] {
      #expect(Self.keys("{" + forty + ", \"key \(repeated)\": 1}") == nil, "key \(repeated) twice")
      #expect(Self.keys("{" + forty + ", \"key\\/ \(repeated)\": 1}") != nil)
      #expect(Self.keys("{" + forty + ", \"k\\/ey \(repeated)\": 1, \"k/ey \(repeated)\": 2}") == nil)
    }
    #expect(Self.keys("{" + forty + ", \"key \\u0032\": 1}") == nil, "an escape the scanner leaves to others")
    // Keys of one text, written plain before the stack is full and past it, then through an escape.
    let slashed = (0..<40).map { "\"k/\($0)\": \($0)" }.joined(separator: ", ")
    for repeated in [3, 30] { #expect(Self.keys("{" + slashed + ", \"k\\/\(repeated)\": 1}") == nil, "k/\(repeated)") }
    #expect(Self.keys("{" + slashed + ", \"k\\/40\": 1}")?.last == "k/40")
  }

  @Test("a key is the name it reads as, plain, escaped or not ASCII, and no other")
  func keyNames() {
    // (DEL is written as it is: JSON allows it raw, and it takes the key off the ASCII path.)
    let json = #"{"id": 1, "idx": 2, "i\/d": 3, "é": 4, ""# + "\u{7F}" + #"": 5, "listId": 6, "": 7}"#
    var bytes = Array(json.utf8)
    var seen: [String] = []
    let read = bytes.withUnsafeMutableBufferPointer { buffer in
      var scanner = JSONScanner(bytes: UnsafeBufferPointer(buffer))
      return scanner.object { scanner, key in
        switch key {
        case "id": seen.append("id")
        case "listId": seen.append("listId")
        case "i/d": seen.append("escaped")
        case "": seen.append("empty")
        default: seen.append("other " + key.string)
        }
        #expect((key == "id") == (key.string == "id"))
        #expect(!(key == "i"), "a name that is only the start of the key")
        return scanner.skipValue()
      }
    }
    #expect(read)
    #expect(seen == ["id", "other idx", "escaped", "other é", "other \u{7F}", "listId", "empty"])
  }

  @Test("texts as the writer writes them: the same text, its scalars, its line breaks and other controls")
  func texts() {
    var random = SeededGenerator(seed: 67)
    let pieces = [
      "a", "Buy milk ", "0123456789", "é", "😀", "\u{7F}", "\u{80}", "\u{85}", "\u{9F}", "\u{A0}", "\n", "\r", "\t",
      "\u{8}", "\u{C}", "\"", "\\", "/", "\u{2028}",
    ]
    for _ in 0..<5_000 {
      let text = (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }
        .joined()
      var bytes: [UInt8] = []
      JSONWriter.appendString(text, to: &bytes)
      let read = bytes.withUnsafeBufferPointer { buffer in
        var scanner = JSONScanner(bytes: buffer)
        return scanner.text()
      }
      let scalars = text.unicodeScalars
      #expect(read?.string == text, "\(Array(text.utf8))")
      #expect(read?.scalars == scalars.count, "\(Array(text.utf8))")
      #expect(read?.hasLineBreak == scalars.contains { $0 == "\n" || $0 == "\r" }, "\(Array(text.utf8))")
      let control = scalars.contains {
        ($0.value < 0x20 && !["\n", "\r", "\t"].contains($0)) || (0x7F...0x9F).contains($0.value)
      }
      #expect(read?.hasOtherControl == control, "\(Array(text.utf8))")
    }
  }
}

// JSONScanner's objects: a key given twice is refused, whether its bytes repeat or only its text does (an escape),
// and keys of the same length that differ are each read once.

import TasksCalendar
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
        keys.append(key)
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
  }
}

// StoredDetails: a task's details column read into Swift's own values, for the JSON the service itself writes there;
// anything else is left to JSONSerialization. Pure functions.

import Foundation

/// The details column (`PlannerTask.details`) as a JSON object of Swift values: `String`, `[Any]`, `[String: Any]`,
/// `NSNull`, and numbers and booleans as the `NSNumber`s JSONSerialization gives.
///
/// Why not JSONSerialization alone: a first sync of 10 000 tasks spent half of the service's time in reading the
/// details (perf, Tests/Benchmarks/RESULTS.md): JSONSerialization on Linux builds Foundation objects (NSDictionary,
/// NSString), and every field's cast back to a Swift type is a bridge. JSONDecoder into a typed struct was no faster
/// (measured: 55 ms against 53 ms for 10 000 rows of the benchmark's details). This reader takes only what the
/// service writes (objects, arrays, strings with the escapes JSONSerialization writes, whole numbers, true, false,
/// null) and answers nil for anything else — a `\u` escape, a fraction, a repeated key, text after the object, any
/// syntax error — so that JSONSerialization then reads it (and refuses what it refuses). What it answers is what
/// JSONSerialization's object holds (StoredDetailsTests compares the two on written details and on damaged ones);
/// the fields are then checked as before (`TaskChanges(object:)`).
enum StoredDetails {
  /// The object `text` holds, or nil when this reader leaves it to JSONSerialization.
  static func object(_ text: String) -> [String: Any]? {
    var text = text
    return text.withUTF8 { bytes in
      var reader = Reader(bytes: bytes)
      guard let object = reader.value(depth: 0) as? [String: Any], reader.atEnd() else { return nil }
      return object
    }
  }

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

    /// Deeper than the service writes (reminders in an array in the object): not ours to read.
    static let maxDepth = 4

    mutating func skipWhitespace() {
      while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    mutating func take(_ byte: UInt8) -> Bool {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == byte else { return false }
      index += 1
      return true
    }

    mutating func value(depth: Int) -> Any? {
      skipWhitespace()
      guard index < bytes.count, depth <= Self.maxDepth else { return nil }
      switch bytes[index] {
      case UInt8(ascii: "{"): return object(depth: depth)
      case UInt8(ascii: "["): return array(depth: depth)
      case UInt8(ascii: "\""): return string()
      case UInt8(ascii: "n"): return word("null", NSNull())
      case UInt8(ascii: "t"): return word("true", NSNumber(value: true))
      case UInt8(ascii: "f"): return word("false", NSNumber(value: false))
      default: return integer()
      }
    }

    mutating func word(_ word: StaticString, _ value: Any) -> Any? {
      let count = word.utf8CodeUnitCount
      guard bytes.count - index >= count,
        UnsafeBufferPointer(rebasing: bytes[index..<index + count]).elementsEqual(
          UnsafeBufferPointer(start: word.utf8Start, count: count))
      else { return nil }
      index += count
      return value
    }

    mutating func object(depth: Int) -> [String: Any]? {
      index += 1
      var object: [String: Any] = [:]
      if take(UInt8(ascii: "}")) { return object }
      repeat {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string(), take(UInt8(ascii: ":")),
          let value = value(depth: depth + 1), object.updateValue(value, forKey: key) == nil
        else { return nil }
      } while take(UInt8(ascii: ","))
      return take(UInt8(ascii: "}")) ? object : nil
    }

    mutating func array(depth: Int) -> [Any]? {
      index += 1
      var array: [Any] = []
      if take(UInt8(ascii: "]")) { return array }
      repeat {
        guard let value = value(depth: depth + 1) else { return nil }
        array.append(value)
      } while take(UInt8(ascii: ","))
      return take(UInt8(ascii: "]")) ? array : nil
    }

    /// A string whose escapes are those JSONSerialization writes for text (`\"`, `\\`, `\/`, `\n`, `\r`, `\t`,
    /// `\b`, `\f`); a `\u` escape or a raw control character is not read here.
    mutating func string() -> String? {
      index += 1
      let start = index
      var plain = true
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") { break }
        if byte < 0x20 { return nil }
        if byte == UInt8(ascii: "\\") {
          plain = false
          index += 1
        }
        index += 1
      }
      guard index < bytes.count else { return nil }
      let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
      index += 1
      if plain { return String(decoding: raw, as: UTF8.self) }
      var unescaped: [UInt8] = []
      unescaped.reserveCapacity(raw.count)
      var position = 0
      while position < raw.count {
        var byte = raw[position]
        if byte == UInt8(ascii: "\\") {
          position += 1
          switch raw[position] {
          case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): byte = raw[position]
          case UInt8(ascii: "n"): byte = 0x0A
          case UInt8(ascii: "r"): byte = 0x0D
          case UInt8(ascii: "t"): byte = 0x09
          case UInt8(ascii: "b"): byte = 0x08
          case UInt8(ascii: "f"): byte = 0x0C
          default: return nil
          }
        }
        unescaped.append(byte)
        position += 1
      }
      return String(decoding: unescaped, as: UTF8.self)
    }

    /// A whole number of at most 15 digits as JSON writes it (no leading zero, no fraction or exponent).
    mutating func integer() -> NSNumber? {
      let start = index
      if bytes[index] == UInt8(ascii: "-") { index += 1 }
      let digits = index
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
      let count = index - digits
      guard count > 0, count <= 15, count == 1 || bytes[digits] != UInt8(ascii: "0") else { return nil }
      if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
        return nil
      }
      guard let number = Int(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
      else { return nil }
      return NSNumber(value: number)
    }
  }
}

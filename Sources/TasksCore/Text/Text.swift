// Text: the few string operations the core needs beyond the standard library, without Foundation's
// internationalization (the GNOME app loads FoundationEssentials only). Value types; any thread.

import CGLib
import FoundationEssentials
import TasksCalendar

extension StringProtocol {
  /// The text without white space at either end; line breaks count as white space unless `newlines` is false.
  public func trimmed(newlines: Bool = true) -> String {
    trimmed { $0.isWhitespace && (newlines || !$0.isNewline) }
  }

  /// The text without the characters `drop` accepts at either end.
  public func trimmed(where drop: (Character) -> Bool) -> String {
    guard let first = firstIndex(where: { !drop($0) }), let last = lastIndex(where: { !drop($0) }) else { return "" }
    return String(self[first...last])
  }

  /// The text's lines, split at any line break (`\n`, `\r\n`, `\r`, U+2028…), empty ones kept.
  public var lines: [Substring] {
    String(self).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
  }
}

extension String {
  /// A message built from a translated template: each `%@` or `%d` takes the next of `values`, `%1$@` the first
  /// (a translation may reorder them), `%%` is a percent sign. An unknown directive is left as it is.
  public init(template: String, _ values: any CustomStringConvertible...) {
    var result = ""
    var next = 0
    var rest = Substring(template)
    while let percent = rest.firstIndex(of: "%") {
      result += rest[..<percent]
      rest = rest[rest.index(after: percent)...]
      if rest.first == "%" {
        result += "%"
        rest = rest.dropFirst()
        continue
      }
      var index = next
      let digits = rest.prefix(while: \.isASCII).prefix(while: \.isNumber)
      if !digits.isEmpty, rest.dropFirst(digits.count).first == "$", let position = Int(digits), position > 0 {
        index = position - 1
        rest = rest.dropFirst(digits.count + 1)
      } else {
        next += 1
      }
      guard let directive = rest.first, directive == "@" || directive == "d", index < values.count else {
        result += "%"
        continue
      }
      result += values[index].description
      rest = rest.dropFirst()
    }
    self = result + rest
  }

  /// The text with every byte outside `keeping` (ASCII characters) written as `%XX`, from its UTF-8 bytes.
  public func percentEncoded(keeping: (UInt8) -> Bool) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(utf8.count)
    let hex = Array("0123456789ABCDEF".utf8)
    for byte in utf8 {
      if byte < 0x80, keeping(byte) {
        bytes.append(byte)
      } else {
        bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The text with each `%XX` replaced by its byte; nil when a `%` is not followed by two hex digits or the bytes
  /// are not UTF-8.
  public var percentDecoded: String? {
    var bytes: [UInt8] = []
    var input = utf8.makeIterator()
    while let byte = input.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = input.next().flatMap(\.hexDigitValue), let low = input.next().flatMap(\.hexDigitValue) else {
        return nil
      }
      bytes.append(high << 4 | low)
    }
    return String(validating: bytes, as: UTF8.self)
  }

  /// The text as searches compare it: case folded, compatibility forms (full-width letters, ligatures) decomposed,
  /// and accents and other combining marks removed ("Ｃafé" → "cafe"). GLib's Unicode tables do the folding.
  public var searchFolded: String {
    // ASCII has no accents or width forms: lower case is all its folding (most task texts, and no GLib call).
    guard !utf8.allSatisfy({ $0 < 0x80 }) else { return lowercased() }
    guard let decomposed = g_utf8_normalize(self, -1, G_NORMALIZE_NFKD) else { return lowercased() }
    defer { g_free(decomposed) }
    guard let folded = g_utf8_casefold(decomposed, -1) else { return lowercased() }
    defer { g_free(folded) }
    var scalars = String.UnicodeScalarView()
    for scalar in String(cString: folded).unicodeScalars {
      switch scalar.properties.generalCategory {
      case .nonspacingMark, .spacingMark, .enclosingMark: continue
      default: scalars.append(scalar)
      }
    }
    return String(scalars)
  }
}

extension Unicode.Scalar {
  /// Whether the scalar is an ASCII letter or digit.
  public var isASCIIAlphanumeric: Bool {
    switch value {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
    default: false
    }
  }
}

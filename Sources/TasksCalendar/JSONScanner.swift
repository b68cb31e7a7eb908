// JSONScanner: a forward reader of JSON text as this project's writers write it, for the readers that take the
// change feed's tasks by the thousand (the service's details column, the app's feed pages and kept copy) straight
// into typed values. Value type over borrowed bytes; any thread.

/// Reads JSON values one by one from UTF-8 bytes, answering nil or false for anything outside what JSON writers
/// write for text and whole numbers: a `\u` escape, a fraction or exponent, a sign, a leading zero, more than 15
/// digits, bytes that are not UTF-8, any syntax error. Its users then leave the text to a general reader
/// (JSONSerialization, JSONDecoder), which reads it or says what is wrong.
public struct JSONScanner {
  @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
  @usableFromInline var index = 0

  /// A reader of `bytes`, which must outlive it.
  public init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  /// A string value and what text checks need, found while it was read.
  public struct Text {
    public var string: String
    /// Unicode scalars in it.
    public var scalars: Int
    /// Whether it holds a line feed or carriage return.
    public var hasLineBreak: Bool
    /// Whether it holds a control character other than a tab or a line break (C0, DEL, C1).
    public var hasOtherControl: Bool
  }

  /// Whether only whitespace is left.
  public mutating func atEnd() -> Bool {
    skipWhitespace()
    return index == bytes.count
  }

  @inlinable mutating func skipWhitespace() {
    while index < bytes.count,
      bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D
        || bytes[index] == 0x09
    {
      index += 1
    }
  }

  /// Takes `byte` (after whitespace) if it comes next.
  @inlinable public mutating func take(_ byte: UInt8) -> Bool {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
  }

  /// Takes `null` if it comes next.
  public mutating func takeNull() -> Bool { takeWord("null") }

  /// `true` or `false`, or nil (nothing taken) when neither comes next.
  public mutating func boolean() -> Bool? {
    if takeWord("true") { return true }
    if takeWord("false") { return false }
    return nil
  }

  mutating func takeWord(_ word: StaticString) -> Bool {
    skipWhitespace()
    let count = word.utf8CodeUnitCount
    guard bytes.count - index >= count else { return false }
    for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
    index += count
    return true
  }

  /// Reads `{ "key": value, … }`, each key once: `member` reads the value after each key, or answers false to give
  /// up.
  public mutating func object(_ member: (inout JSONScanner, Key) -> Bool) -> Bool {
    guard take(UInt8(ascii: "{")) else { return false }
    if take(UInt8(ascii: "}")) { return true }
    // The keys so far on the stack (a task has seventeen; more go to an array): no allocation an object.
    return withUnsafeTemporaryAllocation(of: UnsafeBufferPointer<UInt8>.self, capacity: Keys.onStack) { stack in
      var keys = Keys(stack: stack)
      repeat {
        guard let key = key(), keys.insert(key), take(UInt8(ascii: ":")), member(&self, key) else { return false }
      } while take(UInt8(ascii: ","))
      return take(UInt8(ascii: "}"))
    }
  }

  /// An object's key, as its members' readers match it against the names they know (`case "id":`, `key == "id"`)
  /// without a String made for it (a task has seventeen: without a String made and compared for each, and with plain
  /// text read in a loop of its own, the CLI's decoding of 10 000 tasks took a third fewer samples). A plain value
  /// (two words and a flag): the bytes it was read from outlive it.
  public struct Key {
    /// The key as written, with its quotes (in the scanned bytes).
    @usableFromInline let quoted: UnsafeBufferPointer<UInt8>
    /// Whether it is printable ASCII without an escape: its bytes between the quotes are its text.
    @usableFromInline let plain: Bool

    /// The key as text.
    public var string: String {
      if plain { return String(decoding: Self.between(quoted), as: UTF8.self) }
      var scanner = JSONScanner(bytes: quoted)
      return scanner.text()?.string ?? ""  // (read once already, when the key was)
    }

    /// The bytes between a key's quotes.
    static func between(_ quoted: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
      UnsafeBufferPointer(rebasing: quoted[quoted.startIndex + 1..<quoted.endIndex - 1])
    }

    /// Whether the key is `name` (printable ASCII, as every name a reader knows is).
    @inlinable @inline(__always) public static func == (key: Key, name: StaticString) -> Bool {
      guard key.plain else { return key.string == name.description }
      let count = name.utf8CodeUnitCount
      guard key.quoted.count == count + 2 else { return false }
      let start = name.utf8Start
      for offset in 0..<count where key.quoted[offset + 1] != start[offset] { return false }
      return true
    }

    /// `case "name":` in a switch over a key.
    @inlinable @inline(__always) public static func ~= (name: StaticString, key: Key) -> Bool { key == name }
  }

  /// A key: printable ASCII without an escape as its bytes, anything else read (and checked) as `text` reads it.
  private mutating func key() -> Key? {
    skipWhitespace()
    let start = index
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
    var end = index + 1
    while end < bytes.count {
      let byte = bytes[end]
      if byte == UInt8(ascii: "\"") {
        index = end + 1
        return Key(quoted: UnsafeBufferPointer(rebasing: bytes[start..<index]), plain: true)
      }
      guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { break }
      end += 1
    }
    guard text() != nil else { return nil }
    return Key(quoted: UnsafeBufferPointer(rebasing: bytes[start..<index]), plain: false)
  }

  /// The keys of an object so far, to refuse one given twice: compared as their bytes, or as text once one is not
  /// plain (an escape's bytes differ from its text's).
  private struct Keys {
    /// How many keys are kept on the stack.
    static let onStack = 24
    let stack: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>
    var count = 0
    /// The keys past the stack's.
    var more: [UnsafeBufferPointer<UInt8>] = []
    var texts: [String]?
    /// A bit for each plain key so far, by its length and two of its bytes: a key whose bit is not set is new, and
    /// is compared with none (a task's seventeen keys set sixteen bits).
    var bits: UInt64 = 0

    init(stack: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>) {
      self.stack = stack
    }

    /// The plain keys so far.
    func plain(_ index: Int) -> UnsafeBufferPointer<UInt8> {
      index < stack.count ? stack[index] : more[index - stack.count]
    }

    /// Adds `key`; false if the object has it already.
    mutating func insert(_ key: Key) -> Bool {
      if texts == nil, !key.plain {
        texts = (0..<count).map { String(decoding: Key.between(plain($0)), as: UTF8.self) }
      }
      if texts != nil {
        let text = key.string
        guard texts?.contains(text) == false else { return false }
        texts?.append(text)
        return true
      }
      let new = key.quoted
      let bit = UInt64(1) << ((UInt64(new.count) &* 7 &+ UInt64(new[1]) &+ UInt64(new[new.count - 2]) &* 3) & 63)
      defer { bits |= bit }
      for index in 0..<(bits & bit == 0 ? 0 : count) {
        let seen = plain(index)
        guard seen.count == new.count else { continue }
        var same = true
        for offset in 1..<new.count - 1 where seen[offset] != new[offset] {
          same = false
          break
        }
        if same { return false }
      }
      if count < stack.count {
        stack.initializeElement(at: count, to: new)
      } else {
        more.append(new)
      }
      count += 1
      return true
    }
  }

  /// Reads `[ value, … ]` of at most `max` values, `element` reading each (false: give up).
  public mutating func array(max: Int = .max, _ element: (inout JSONScanner) -> Bool) -> Bool {
    guard take(UInt8(ascii: "[")) else { return false }
    if take(UInt8(ascii: "]")) { return true }
    var count = 0
    repeat {
      count += 1
      guard count <= max, element(&self) else { return false }
    } while take(UInt8(ascii: ","))
    return take(UInt8(ascii: "]"))
  }

  /// Skips one value of any kind: a string (any escape), a number, a literal, or an object or array nested at most
  /// 64 deep; false for what is not one.
  public mutating func skipValue(depth: Int = 0) -> Bool {
    skipWhitespace()
    guard index < bytes.count, depth < 64 else { return false }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      index += 1
      if take(UInt8(ascii: "}")) { return true }
      repeat {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), skipString(), take(UInt8(ascii: ":")),
          skipValue(depth: depth + 1)
        else { return false }
      } while take(UInt8(ascii: ","))
      return take(UInt8(ascii: "}"))
    case UInt8(ascii: "["):
      index += 1
      if take(UInt8(ascii: "]")) { return true }
      repeat {
        guard skipValue(depth: depth + 1) else { return false }
      } while take(UInt8(ascii: ","))
      return take(UInt8(ascii: "]"))
    case UInt8(ascii: "\""): return skipString()
    case UInt8(ascii: "t"), UInt8(ascii: "f"): return boolean() != nil
    case UInt8(ascii: "n"): return takeNull()
    default:
      let start = index
      while index < bytes.count, Self.numberBytes.contains(bytes[index]) { index += 1 }
      return index > start
    }
  }

  private static let numberBytes = Set("-+.0123456789eE".utf8)

  private mutating func skipString() -> Bool {
    index += 1
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return true
      }
      if byte < 0x20 { return false }
      index += byte == UInt8(ascii: "\\") ? 2 : 1
    }
    return false
  }

  /// A whole number from 0 with at most `maxDigits` digits (at most 15), as JSON writes it: no sign, leading zero,
  /// fraction or exponent.
  public mutating func integer(maxDigits: Int = 15) -> Int? {
    skipWhitespace()
    let start = index
    var value = 0
    while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
      value = value &* 10 &+ Int(bytes[index] - UInt8(ascii: "0"))
      index += 1
    }
    let count = index - start
    guard count > 0, count <= min(maxDigits, 15), count == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
    if index < bytes.count,
      bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")
    {
      return nil
    }
    return value
  }

  /// The bytes between the quotes of a string of printable ASCII without an escape (an id, a time), taken; nil,
  /// with nothing taken, for any other value or string (which `text` then reads as it reads any).
  public mutating func plainText() -> UnsafeBufferPointer<UInt8>? {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
    var end = index + 1
    while end < bytes.count {
      let byte = bytes[end]
      if byte == UInt8(ascii: "\"") {
        let text = UnsafeBufferPointer(rebasing: bytes[index + 1..<end])
        index = end + 1
        return text
      }
      guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
      end += 1
    }
    return nil
  }

  /// A string whose escapes are those JSON writers use for text (`\"`, `\\`, `\/`, `\n`, `\r`, `\t`, `\b`, `\f`)
  /// and whose bytes are UTF-8; a `\u` escape or a raw control character is not read here.
  public mutating func text() -> Text? {
    guard take(UInt8(ascii: "\"")) else { return nil }
    let start = index
    // Printable ASCII without an escape first, in a loop of its own: most of what is read (ids, times, titles).
    while index < bytes.count {
      let byte = bytes[index]
      guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else { break }
      index += 1
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
      let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
      index += 1
      return Text(
        string: String(decoding: raw, as: UTF8.self), scalars: raw.count, hasLineBreak: false, hasOtherControl: false)
    }
    // Anything else from where that stopped, every byte checked.
    var plain = true
    var ascii = true
    var text = Text(string: "", scalars: index - start, hasLineBreak: false, hasOtherControl: false)
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
        if byte >= 0x80 { ascii = false }
        // DEL, and C1 controls (U+0080…U+009F: C2 80…C2 9F in UTF-8).
        if byte == 0x7F || (previous == 0xC2 && byte >= 0x80 && byte <= 0x9F) { text.hasOtherControl = true }
        if byte & 0xC0 != 0x80 { text.scalars += 1 }
      }
      previous = byte
      index += 1
    }
    guard index < bytes.count else { return nil }
    let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
    index += 1
    if plain {
      guard let string = ascii ? String(decoding: raw, as: UTF8.self) : String(validating: raw, as: UTF8.self) else {
        return nil
      }
      text.string = string
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
    guard let string = String(validating: unescaped, as: UTF8.self) else { return nil }
    text.string = string
    return text
  }

  /// A due date as the API writes it: `{"date": "YYYY-MM-DD", "time": "HH:MM" or null, "timeZone": a name or
  /// null}`, the time zone's name taken when `acceptsZone` says so.
  public mutating func taskDue(acceptsZone: (String) -> Bool) -> TaskDue? {
    var date: CalendarDate?
    var time: TimeOfDay?
    var zone: String?
    let read = object { scanner, key in
      switch key {
      case "date":
        date = scanner.text().flatMap { Self.bytes(of: $0.string) { CalendarDate(digits: $0) } }
        return date != nil
      case "time":
        if scanner.takeNull() { return true }
        time = scanner.text().flatMap { Self.bytes(of: $0.string) { TimeOfDay(digits: $0) } }
        return time != nil
      case "timeZone":
        if scanner.takeNull() { return true }
        zone = scanner.text()?.string
        return zone.map(acceptsZone) == true
      default: return false
      }
    }
    guard read, let date else { return nil }
    return TaskDue(date: date, time: time, timeZone: zone)
  }

  /// A string's UTF-8 given to `body`.
  public static func bytes<Value>(of string: String, _ body: (UnsafeBufferPointer<UInt8>) -> Value?) -> Value? {
    var string = string
    return string.withUTF8(body)
  }

  /// ASCII digits as a number; nil for anything else or nothing.
  @inlinable public static func number<Bytes: Collection<UInt8>>(_ digits: Bytes) -> Int? {
    var value = 0
    for digit in digits {
      guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(digit - UInt8(ascii: "0"))
    }
    return digits.isEmpty ? nil : value
  }
}

extension CalendarDate {
  /// `YYYY-MM-DD` in ASCII digits, a day that exists (what `CalendarDate(_:)` reads from them).
  @inlinable public init?<Bytes: Collection<UInt8>>(digits bytes: Bytes) where Bytes.Index == Int {
    let start = bytes.startIndex
    guard bytes.count == 10, bytes[start + 4] == UInt8(ascii: "-"), bytes[start + 7] == UInt8(ascii: "-"),
      let year = JSONScanner.number(bytes[start..<start + 4]),
      let month = JSONScanner.number(bytes[start + 5..<start + 7]),
      let day = JSONScanner.number(bytes[start + 8..<start + 10])
    else { return nil }
    self.init(year: year, month: month, day: day)
  }
}

extension TimeOfDay {
  /// `HH:MM` in ASCII digits, as `TimeOfDay` writes it.
  @inlinable public init?<Bytes: Collection<UInt8>>(digits bytes: Bytes) where Bytes.Index == Int {
    let start = bytes.startIndex
    guard bytes.count == 5, bytes[start + 2] == UInt8(ascii: ":"),
      let hour = JSONScanner.number(bytes[start..<start + 2]),
      let minute = JSONScanner.number(bytes[start + 3..<start + 5])
    else { return nil }
    self.init(hour: hour, minute: minute)
  }
}

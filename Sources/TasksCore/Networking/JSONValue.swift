// JSONValue: a JSON document read without a schema, with booleans, whole numbers and fractions kept apart.
// Value type; any thread.

import FoundationEssentials

/// Any JSON value, as `JSONDecoder` reads it (FoundationEssentials has no `JSONSerialization`). Booleans are never
/// numbers and numbers never booleans; a number without a fraction that fits 64 bits is an `integer`.
enum JSONValue: Codable, Equatable, Sendable {
  case null
  case boolean(Bool)
  case integer(Int64)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// The value `data` holds, or nil when it is not JSON. Of duplicate members the first is kept.
  static func parse(_ data: Data) -> JSONValue? {
    try? JSONDecoder().decode(JSONValue.self, from: data)
  }

  /// The members of a JSON object, or nil when `data` is not one.
  static func object(_ data: Data) -> [String: JSONValue]? {
    parse(data)?.object
  }

  init(from decoder: any Decoder) throws {
    // Each kind tried is a typed decoding, and each that fails makes an error with its coding path: the kinds go
    // from the most common in the service's answers (strings, then whole numbers, objects and arrays) to the
    // rarest. The kinds are disjoint, so the order changes no value.
    let value = try decoder.singleValueContainer()
    if value.decodeNil() {
      self = .null
    } else if let string = try? value.decode(String.self) {
      self = .string(string)
    } else if let integer = try? value.decode(Int64.self) {
      self = .integer(integer)
    } else if let object = try? value.decode([String: JSONValue].self) {
      self = .object(object)
    } else if let array = try? value.decode([JSONValue].self) {
      self = .array(array)
    } else if let boolean = try? value.decode(Bool.self) {
      self = .boolean(boolean)
    } else {
      self = .number(try value.decode(Double.self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var value = encoder.singleValueContainer()
    switch self {
    case .null: try value.encodeNil()
    case .boolean(let boolean): try value.encode(boolean)
    case .integer(let integer): try value.encode(integer)
    case .number(let number): try value.encode(number)
    case .string(let string): try value.encode(string)
    case .array(let array): try value.encode(array)
    case .object(let object): try value.encode(object)
    }
  }

  /// The members, if this is an object.
  var object: [String: JSONValue]? {
    if case .object(let members) = self { members } else { nil }
  }

  /// The elements, if this is an array.
  var array: [JSONValue]? {
    if case .array(let elements) = self { elements } else { nil }
  }

  /// The truth value, if this is true or false.
  var bool: Bool? {
    if case .boolean(let value) = self { value } else { nil }
  }

  /// The text, if this is a string.
  var string: String? {
    if case .string(let text) = self { text } else { nil }
  }

  /// A whole number given as a JSON number without a fraction (below 9e15 if written with one) or a string of
  /// digits; nil for anything else, booleans included.
  var integer: Int64? {
    switch self {
    case .integer(let integer): integer
    case .number(let number):
      number.isFinite && number.rounded() == number && abs(number) < 9e15 ? Int64(number) : nil
    case .string(let text): Int64(text.trimmed(newlines: false))
    default: nil
    }
  }
}

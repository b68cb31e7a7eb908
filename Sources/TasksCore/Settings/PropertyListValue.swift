// PropertyListValue: a property list read without a schema, as `PropertyListDecoder` reads it. Value type; any thread.

import FoundationEssentials

/// Any property-list value (XML, binary or OpenStep), each kind kept apart: a `<string>1</string>` is never a
/// number, an `<integer>` never a boolean.
enum PropertyListValue: Decodable, Sendable {
  case string(String)
  case boolean(Bool)
  case integer(Int64)
  case real(Double)
  case date(Date)
  case data(Data)
  case array([PropertyListValue])
  case dictionary([String: PropertyListValue])

  /// The values of a dictionary, by key.
  private struct Key: CodingKey {
    let stringValue: String
    init(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
  }

  init(from decoder: any Decoder) throws {
    if let members = try? decoder.container(keyedBy: Key.self) {
      var dictionary: [String: PropertyListValue] = [:]
      for key in members.allKeys {
        dictionary[key.stringValue] = try members.decode(PropertyListValue.self, forKey: key)
      }
      self = .dictionary(dictionary)
    } else if var elements = try? decoder.unkeyedContainer() {
      var array: [PropertyListValue] = []
      while !elements.isAtEnd { array.append(try elements.decode(PropertyListValue.self)) }
      self = .array(array)
    } else {
      let value = try decoder.singleValueContainer()
      if let boolean = try? value.decode(Bool.self) {
        self = .boolean(boolean)
      } else if let integer = try? value.decode(Int64.self) {
        self = .integer(integer)
      } else if let real = try? value.decode(Double.self) {
        self = .real(real)
      } else if let date = try? value.decode(Date.self) {
        self = .date(date)
      } else if let data = try? value.decode(Data.self) {
        self = .data(data)
      } else {
        self = .string(try value.decode(String.self))
      }
    }
  }

  /// The text, if this is a string.
  var string: String? {
    if case .string(let text) = self { text } else { nil }
  }

  /// A user's word for the value's kind ("a number", "an array"…), for errors.
  var kind: String {
    switch self {
    case .string: "a string"
    case .boolean: "a boolean"
    case .integer, .real: "a number"
    case .array: "an array"
    case .dictionary: "a dictionary"
    case .data: "data"
    case .date: "a date"
    }
  }
}

// PlannerJSONReader: the task API v2's JSON read straight into typed values through `Decodable` (no tree of
// `JSONValue`s in between: every start reads the whole offline copy, 2 000 tasks and more), with each refusal a
// `PlannerJSONError` naming the field by its path ("tasks[3].due.date"). Value type; any thread.

import FoundationEssentials
import TasksCalendar

/// What is wrong with the service's JSON: the field's path and what was expected.
public struct PlannerJSONError: Error, Equatable, Sendable, CustomStringConvertible {
  public let field: String
  public let expected: String

  public init(field: String, expected: String) {
    self.field = field
    self.expected = expected
  }

  public var description: String { "\(field): expected \(expected)" }

  /// The path of a place in the document, "body" for the whole of it.
  static func path(_ codingPath: [any CodingKey]) -> String {
    var text = ""
    for key in codingPath {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    return text.isEmpty ? "body" : text
  }

  /// What the decoder refused, named by where it was.
  init(_ error: DecodingError) {
    switch error {
    case .typeMismatch(let type, let context):
      self.init(field: Self.path(context.codingPath), expected: Self.kind(type))
    case .valueNotFound(let type, let context):
      self.init(field: Self.path(context.codingPath), expected: Self.kind(type))
    case .keyNotFound(let key, let context):
      self.init(field: Self.path(context.codingPath + [key]), expected: "a value")
    case .dataCorrupted(let context):
      self.init(field: Self.path(context.codingPath), expected: context.codingPath.isEmpty ? "JSON" : "a value")
    @unknown default:
      self.init(field: "body", expected: "JSON")
    }
  }

  private static func kind(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: "a string"
    case is Bool.Type: "true or false"
    case is Int64.Type, is Int.Type: "a whole number"
    case is Double.Type: "a number"
    case is [Any].Type: "a list"
    default: "an object"
    }
  }
}

/// A member's name as a coding key.
struct PlannerJSONKey: CodingKey {
  let stringValue: String
  var intValue: Int? { nil }

  init(_ name: String) { stringValue = name }
  init?(stringValue: String) { self.init(stringValue) }
  init?(intValue: Int) { nil }
}

/// Reads the members of one JSON object, each refusal a `PlannerJSONError` with the member's path. A member that is
/// absent or null is nil (or empty, or the required one's error).
struct PlannerJSONReader {
  private let fields: KeyedDecodingContainer<PlannerJSONKey>
  private let codingPath: [any CodingKey]

  /// The object at `decoder`'s place; anything else is an error naming it.
  init(_ decoder: any Decoder) throws(PlannerJSONError) {
    codingPath = decoder.codingPath
    do {
      fields = try decoder.container(keyedBy: PlannerJSONKey.self)
    } catch {
      throw PlannerJSONError(
        field: PlannerJSONError.path(decoder.codingPath), expected: codingPath.isEmpty ? "a JSON object" : "an object")
    }
  }

  /// An error naming `key`.
  func error(_ key: String, expected: String) -> PlannerJSONError {
    PlannerJSONError(field: PlannerJSONError.path(codingPath + [PlannerJSONKey(key)]), expected: expected)
  }

  /// The member as `Value` (a `Decodable` of the reader's own kind throws its own errors), nil when absent or null.
  func optional<Value: Decodable>(_ key: String, _ type: Value.Type = Value.self) throws(PlannerJSONError) -> Value? {
    do {
      return try fields.decodeIfPresent(type, forKey: PlannerJSONKey(key))
    } catch let error as PlannerJSONError {
      throw error
    } catch let error as DecodingError {
      throw PlannerJSONError(error)
    } catch {
      throw self.error(key, expected: "a value")
    }
  }

  /// A list member's elements; empty when absent or null.
  func list<Value: Decodable>(_ key: String, of type: Value.Type = Value.self) throws(PlannerJSONError) -> [Value] {
    try optional(key, [Value].self) ?? []
  }

  func string(_ key: String) throws(PlannerJSONError) -> String {
    try required(key, expected: "a string") { $0 }
  }

  func uuid(_ key: String) throws(PlannerJSONError) -> UUID { try required(key, expected: "a UUID", UUID.init(text:)) }

  func optionalUUID(_ key: String) throws(PlannerJSONError) -> UUID? {
    try optional(key, expected: "a UUID", UUID.init(text:))
  }

  func time(_ key: String) throws(PlannerJSONError) -> Date {
    try required(key, expected: "an RFC 3339 time", WireDate.parse)
  }

  func optionalTime(_ key: String) throws(PlannerJSONError) -> Date? {
    try optional(key, expected: "an RFC 3339 time", WireDate.parse)
  }

  /// A string member made into a value by `make` (nil: not one, an error saying what was `expected`).
  private func optional<Value>(_ key: String, expected: String, _ make: (String) -> Value?) throws(PlannerJSONError)
    -> Value?
  {
    guard let text = try optional(key, String.self) else { return nil }
    guard let value = make(text) else { throw error(key, expected: expected) }
    return value
  }

  private func required<Value>(_ key: String, expected: String, _ make: (String) -> Value?) throws(PlannerJSONError)
    -> Value
  {
    guard let value = try optional(key, expected: expected, make) else { throw error(key, expected: expected) }
    return value
  }

  /// A whole number (JSON's 3, or 3.0), nil when absent or null.
  func whole(_ key: String) throws(PlannerJSONError) -> Int64? {
    guard (try? fields.decodeNil(forKey: PlannerJSONKey(key))) == false else { return nil }
    if let number = try? fields.decode(Int64.self, forKey: PlannerJSONKey(key)) { return number }
    guard let number = try? fields.decode(Double.self, forKey: PlannerJSONKey(key)), number.rounded() == number,
      abs(number) < 1e15
    else { throw error(key, expected: "a whole number") }
    return Int64(number)
  }

  /// true or false, nil when absent or null.
  func bool(_ key: String) throws(PlannerJSONError) -> Bool? { try optional(key, Bool.self) }

  /// `data` as one `Value`; what is not is a `PlannerJSONError` naming the part ("body" when it is not JSON).
  static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws(PlannerJSONError) -> Value {
    do {
      return try JSONDecoder().decode(type, from: data)
    } catch let error as PlannerJSONError {
      throw error
    } catch let error as DecodingError {
      throw PlannerJSONError(error)
    } catch {
      throw PlannerJSONError(field: "body", expected: "JSON")
    }
  }
}

/// A UUID as an element of a list ("deleted": {"tasks": [...]}).
struct PlannerJSONID: Decodable {
  let id: UUID

  init(from decoder: any Decoder) throws {
    let text = try? decoder.singleValueContainer().decode(String.self)
    guard let id = text.flatMap(UUID.init(text:)) else {
      throw PlannerJSONError(field: PlannerJSONError.path(decoder.codingPath), expected: "a UUID")
    }
    self.id = id
  }
}

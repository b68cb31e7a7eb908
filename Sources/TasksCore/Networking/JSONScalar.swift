// JSONScalar: tells JSON booleans from numbers in JSONSerialization's output. Any thread.

import Foundation

/// Reads scalars out of `JSONSerialization` results. On Linux a JSON `1` also answers `is Bool` and a `true` also
/// answers `as? Int`; only the number's `objCType` tells them apart.
enum JSONScalar {
  /// Whether `value` is a JSON `true` or `false`.
  static func isBoolean(_ value: Any) -> Bool {
    if type(of: value) == Bool.self { return true }
    guard let number = value as? NSNumber else { return false }
    return String(cString: number.objCType) == "c"
  }

  /// `value` as a boolean, only if it is a JSON boolean.
  static func boolean(_ value: Any?) -> Bool? {
    guard let value, isBoolean(value) else { return nil }
    return value as? Bool
  }

  /// `value` as a whole number, if it is a JSON number (not a boolean) without a fraction, or a string of digits.
  static func integer(_ value: Any?) -> Int64? {
    guard let value else { return nil }
    if let text = value as? String { return Int64(text.trimmingCharacters(in: .whitespaces)) }
    guard !isBoolean(value), let number = value as? NSNumber else { return nil }
    let double = number.doubleValue
    guard double.isFinite, double.rounded() == double, abs(double) < 9e15 else { return nil }
    return number.int64Value
  }
}

// Variant: GVariant values built and read from Swift (what D-Bus messages carry). Any thread; values are immutable.

import CGio

/// A `GVariant`, owned: a new value is sunk (its floating reference taken) and released when the last copy goes.
public final class Variant: @unchecked Sendable {
  /// The value (this object holds a reference).
  public let value: OpaquePointer

  /// Takes a new (floating) `value`.
  public init(taking value: OpaquePointer) { self.value = g_variant_ref_sink(value) }

  /// Takes over a full reference to `value` (what `g_variant_get_child_value` and the like answer).
  public init(owning value: OpaquePointer) { self.value = value }

  deinit { g_variant_unref(value) }

  /// A string (`s`).
  public static func string(_ text: String) -> Variant { Variant(taking: g_variant_new_string(text)) }

  /// A 64-bit integer (`x`).
  public static func int64(_ number: Int64) -> Variant { Variant(taking: g_variant_new_int64(gint64(number))) }

  /// A dictionary of variants (`a{sv}`), its keys sorted.
  public static func dictionary(_ entries: [String: Variant]) -> Variant {
    let children = entries.sorted { $0.key < $1.key }.map { key, value in
      Variant(taking: g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value.value)))
    }
    return array(of: "{sv}", children)
  }

  /// An array of dictionaries (`aa{sv}`).
  public static func dictionaries(_ list: [[String: Variant]]) -> Variant {
    array(of: "a{sv}", list.map(dictionary))
  }

  /// A tuple of `items` (a method's answer).
  public static func tuple(_ items: [Variant]) -> Variant {
    var children: [OpaquePointer?] = items.map(\.value)
    return withExtendedLifetime(items) { Variant(taking: g_variant_new_tuple(&children, gsize(children.count))) }
  }

  /// `value` in a variant (`v`).
  public static func boxed(_ value: Variant) -> Variant { Variant(taking: g_variant_new_variant(value.value)) }

  /// An array of `items` (kept alive until the array holds references of its own).
  public static func array(of elementType: String, _ items: [Variant]) -> Variant {
    let type = g_variant_type_new(elementType)
    defer { g_variant_type_free(type) }
    var children: [OpaquePointer?] = items.map(\.value)
    return withExtendedLifetime(items) {
      Variant(taking: g_variant_new_array(type, &children, gsize(children.count)))
    }
  }

  /// The type, as D-Bus writes it (`s`, `a{sv}`…).
  public var typeString: String { String(cString: g_variant_get_type_string(value)) }

  /// The string of an `s`, `o` or `g` value; nil for other types.
  public var string: String? {
    guard ["s", "o", "g"].contains(typeString) else { return nil }
    return String(cString: g_variant_get_string(value, nil))
  }

  /// The number of a `u` value; nil for other types.
  public var uint32: UInt32? { typeString == "u" ? g_variant_get_uint32(value) : nil }

  /// The number of an `x` value; nil for other types.
  public var int64: Int64? { typeString == "x" ? Int64(g_variant_get_int64(value)) : nil }

  /// The children of a container (a tuple's items, an array's elements).
  public var children: [Variant] {
    guard g_variant_is_container(value) != 0 else { return [] }
    return (0..<g_variant_n_children(value)).map { Variant(owning: g_variant_get_child_value(value, $0)) }
  }

  /// The strings of an `as` value; nil for other types.
  public var strings: [String]? {
    guard typeString == "as" else { return nil }
    return children.compactMap(\.string)
  }

  /// The value under `key` in an `a{sv}` (unwrapped from its variant); nil when absent or not a dictionary.
  public func lookup(_ key: String) -> Variant? {
    guard typeString == "a{sv}", let found = g_variant_lookup_value(value, key, nil) else { return nil }
    return Variant(owning: found)
  }
}

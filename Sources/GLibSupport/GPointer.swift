// GPointer: typed casts between the pointer shapes Swift gives GObject types. Any thread; no state.

import CGio

/// Something that is a pointer to a GObject instance.
///
/// Swift imports final GObject types (whose struct is private) as `OpaquePointer` and derivable ones as
/// `UnsafeMutablePointer<Struct>`; both conform, so helpers accept either.
public protocol GPointer {
  /// The instance as GLib's untyped `gpointer`.
  var gpointer: gpointer { get }
}

extension OpaquePointer: GPointer {
  /// The pointer itself, untyped.
  public var gpointer: gpointer { UnsafeMutableRawPointer(self) }
}

extension UnsafeMutablePointer: GPointer {
  /// The pointer itself, untyped.
  public var gpointer: gpointer { UnsafeMutableRawPointer(self) }
}

extension UnsafeMutableRawPointer: GPointer {
  /// The pointer itself.
  public var gpointer: gpointer { self }
}

extension GPointer {
  /// The instance as a `GObject *`.
  public var object: UnsafeMutablePointer<GObject> { cast(to: g_object_get_type()) }

  /// The instance as a `GApplication *`.
  public var application: UnsafeMutablePointer<GApplication> { cast(to: g_application_get_type()) }

  /// Whether the instance is of `type` or a subtype of it.
  public func isA(_ type: GType) -> Bool {
    g_type_check_instance_is_a(gpointer.assumingMemoryBound(to: GTypeInstance.self), type) != 0
  }

  /// The instance as a pointer to `T`, checked against its GType the way `GTK_WINDOW()` checks. A wrong type
  /// is a programmer error.
  public func cast<T>(to type: GType, as: T.Type = T.self) -> UnsafeMutablePointer<T> {
    precondition(isA(type), "\(String(cString: g_type_name(type))) expected")
    return gpointer.assumingMemoryBound(to: T.self)
  }

  /// The instance as an opaque pointer of a final type, checked against its GType.
  public func opaque(_ type: GType) -> OpaquePointer {
    precondition(isA(type), "\(String(cString: g_type_name(type))) expected")
    return OpaquePointer(gpointer)
  }
}

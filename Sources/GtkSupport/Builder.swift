// Builder: objects described in a .ui file from the app's GResource. Main actor.

import CGtk

/// The objects of one `.ui` file, looked up by id.
///
/// Keeps the builder (and so every object it made) alive as long as the `Builder` lives.
@MainActor
public final class Builder {
  private let builder: OpaquePointer

  /// Builds the objects of the `.ui` file at `resourcePath` (e.g. `/io/github/b2ctasks/B2CTasks/ui/x.ui`). A
  /// missing or broken file is a programmer error: it ships in the app's own GResource.
  public init(resource resourcePath: String) {
    builder = gtk_builder_new_from_resource(resourcePath)
  }

  /// The object with `id`, which must exist in the file.
  public func object(_ id: String) -> UnsafeMutableRawPointer {
    guard let object = gtk_builder_get_object(builder, id) else {
      preconditionFailure("no object \(id) in the .ui file")
    }
    return UnsafeMutableRawPointer(object)
  }

  /// The object with `id` as a derivable GTK type, checked against `type`.
  public func object<T>(_ id: String, _ type: GType, as: T.Type = T.self) -> UnsafeMutablePointer<T> {
    object(id).cast(to: type, as: T.self)
  }

  /// The object with `id` as a final GTK type (an opaque pointer), checked against `type`.
  public func opaqueObject(_ id: String, _ type: GType) -> OpaquePointer {
    object(id).opaque(type)
  }

  isolated deinit {
    g_object_unref(builder.gpointer)
  }
}

/// Files in the registered GResource bundles.
public enum Resources {
  /// Loads the GResource bundle at `path` and registers it; answers why it could not be loaded, or nil.
  public static func register(_ path: String) -> String? {
    var error: UnsafeMutablePointer<GError>?
    guard let resource = g_resource_load(path, &error) else {
      let reason = error.map { String(cString: $0.pointee.message) } ?? ""
      if let error { g_error_free(error) }
      return reason
    }
    g_resources_register(resource)
    return nil
  }

  /// The text of the resource at `path`; nil when there is none.
  public static func text(_ path: String) -> String? {
    guard let bytes = g_resources_lookup_data(path, G_RESOURCE_LOOKUP_FLAGS_NONE, nil) else { return nil }
    defer { g_bytes_unref(bytes) }
    var size: gsize = 0
    guard let data = g_bytes_get_data(bytes, &size) else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: data, count: Int(size)), as: UTF8.self)
  }
}

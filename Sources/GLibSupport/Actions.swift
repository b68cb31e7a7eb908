// Actions: GActions with Swift handlers (GtkSupport adds their accelerators). Main actor.

import CGio

/// Adds `GSimpleAction`s to an action map (an application or an `AdwApplicationWindow`).
@MainActor
public enum Actions {
  /// Adds a parameterless action named `name` that runs `handler` when activated; returns the action.
  @discardableResult
  public static func add(
    _ name: String, to map: some GPointer, _ handler: @escaping @MainActor () -> Void
  ) -> OpaquePointer {
    let action: OpaquePointer = g_simple_action_new(name, nil)
    Signal.connect(action, "activate") { (_: UnsafeMutableRawPointer?) in handler() }
    g_action_map_add_action(OpaquePointer(map.gpointer), action)
    g_object_unref(action.gpointer)  // the map holds it now
    return action
  }

  /// Adds an action named `name` whose parameter is of GVariant type `parameter` (a string, `s`), which runs
  /// `handler` with it (a notification's button, another app's call).
  @discardableResult
  public static func add(
    _ name: String, parameter: String, to map: some GPointer, _ handler: @escaping @MainActor (String) -> Void
  ) -> OpaquePointer {
    let type = g_variant_type_new(parameter)
    defer { g_variant_type_free(type) }
    let action: OpaquePointer = g_simple_action_new(name, type)
    // GLib checks the parameter against the action's type before this runs; the type (freed below) is not kept.
    Signal.connect(action, "activate") { (value: UnsafeMutableRawPointer?) in
      guard let value, String(cString: g_variant_get_type_string(OpaquePointer(value))) == "s" else { return }
      handler(String(cString: g_variant_get_string(OpaquePointer(value), nil)))
    }
    g_action_map_add_action(OpaquePointer(map.gpointer), action)
    g_object_unref(action.gpointer)
    return action
  }

  /// Enables or disables an action returned by `add`.
  public static func setEnabled(_ action: OpaquePointer, _ enabled: Bool) {
    g_simple_action_set_enabled(action, enabled ? 1 : 0)
  }
}

/// Calls `body` with a NULL-terminated C array of the strings, valid only during the call.
public func withCStringArray<Result>(
  _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result
) -> Result {
  let copies = strings.map { UnsafePointer(strdup($0)) } + [nil]
  defer { copies.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
  return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
}

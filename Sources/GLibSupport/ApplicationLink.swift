// ApplicationLink: asks another application on the session bus to run one of its actions, as GNOME Shell and
// `gapplication action` do (org.freedesktop.Application). Any thread; no state.

import CGio

/// Another application's `app.` actions, reached over the session bus.
public enum ApplicationLink {
  /// Whether the application `appID` runs (owns its name on the session bus); one round trip to the bus.
  public static func isRunning(appID: String) -> Bool {
    guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return false }
    defer { g_object_unref(bus.gpointer) }
    let name = Variant.tuple([Variant.string(appID)])
    let answer = withExtendedLifetime(name) {
      g_dbus_connection_call_sync(
        bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", name.value, nil,
        G_DBUS_CALL_FLAGS_NONE, 5_000, nil, nil)
    }
    guard let answer else { return false }
    let reply = Variant(owning: answer)
    return reply.children.first.map { g_variant_get_boolean($0.value) != 0 } ?? false
  }

  /// Activates `action` (with a string `parameter`, if any) of the application `appID`, without waiting for it.
  /// `start`: D-Bus starts the application when it is not running (it must be D-Bus-activatable); otherwise only a
  /// running one is asked. Answers whether the call could be sent (a session bus is there).
  @discardableResult
  public static func activate(appID: String, action: String, parameter: String? = nil, start: Bool) -> Bool {
    guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return false }
    defer { g_object_unref(bus.gpointer) }
    let path = "/" + appID.split(separator: ".").joined(separator: "/")
    let parameters = Variant.tuple([
      Variant.string(action), Variant.array(of: "v", parameter.map { [Variant.boxed(Variant.string($0))] } ?? []),
      Variant.dictionary([:]),
    ])
    withExtendedLifetime(parameters) {
      g_dbus_connection_call(
        bus, appID, path, "org.freedesktop.Application", "ActivateAction", parameters.value, nil,
        start ? G_DBUS_CALL_FLAGS_NONE : G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, nil, nil, nil)
    }
    // Sent before the connection could be let go by a program about to exit.
    g_dbus_connection_flush_sync(bus, nil, nil)
    return true
  }
}

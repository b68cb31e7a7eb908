// ApplicationLink: asks another application on the session bus to run one of its actions, as GNOME Shell and
// `gapplication action` do (org.freedesktop.Application). Any thread; no state.

import CGio

/// Another application's `app.` actions, reached over the session bus.
public enum ApplicationLink {
  /// Activates `action` (with a string `parameter`, if any) of the application `appID`, without waiting for it.
  /// `start`: D-Bus starts the application when it is not running (it must be D-Bus-activatable); otherwise only a
  /// running one is asked. Answers whether the call could be sent (a session bus is there).
  @discardableResult
  public static func activate(appID: String, action: String, parameter: String? = nil, start: Bool) -> Bool {
    guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return false }
    defer { g_object_unref(bus.gpointer) }
    call(bus, appID: appID, action: action, parameter: parameter, start: start, answered: nil, data: nil)
    // Sent before the connection could be let go by a program about to exit.
    g_dbus_connection_flush_sync(bus, nil, nil)
    return true
  }

  /// Activates `action` of the application `appID` when it runs; when it does not (nobody owns its name), runs
  /// `notRunning` on the calling thread's main loop once the bus said so. The calling thread never waits.
  @MainActor
  public static func activateIfRunning(
    appID: String, action: String, otherwise notRunning: @escaping @MainActor () -> Void
  ) {
    guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return notRunning() }
    defer { g_object_unref(bus.gpointer) }
    let answered: GAsyncReadyCallback = { source, result, data in
      let notRunning = Unmanaged<Box>.fromOpaque(data!).takeRetainedValue().body
      var error: UnsafeMutablePointer<GError>?
      if let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error) { g_variant_unref(reply) }
      guard let error else { return }
      let remote = g_dbus_error_get_remote_error(error).map { name in
        defer { g_free(name) }
        return String(cString: name)
      }
      g_error_free(error)
      if remote == "org.freedesktop.DBus.Error.ServiceUnknown" || remote == "org.freedesktop.DBus.Error.NameHasNoOwner"
      {
        MainActor.assumeIsolated { notRunning() }
      }
    }
    call(
      bus, appID: appID, action: action, parameter: nil, start: false, answered: answered,
      data: Unmanaged.passRetained(Box(notRunning)).toOpaque())
  }

  private static func call(
    _ bus: OpaquePointer, appID: String, action: String, parameter: String?, start: Bool,
    answered: GAsyncReadyCallback?, data: UnsafeMutableRawPointer?
  ) {
    let path = "/" + appID.split(separator: ".").joined(separator: "/")
    let parameters = Variant.tuple([
      Variant.string(action), Variant.array(of: "v", parameter.map { [Variant.boxed(Variant.string($0))] } ?? []),
      Variant.dictionary([:]),
    ])
    withExtendedLifetime(parameters) {
      g_dbus_connection_call(
        bus, appID, path, "org.freedesktop.Application", "ActivateAction", parameters.value, nil,
        start ? G_DBUS_CALL_FLAGS_NONE : G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, nil, answered, data)
    }
  }

  private final class Box {
    let body: @MainActor () -> Void
    init(_ body: @escaping @MainActor () -> Void) { self.body = body }
  }
}

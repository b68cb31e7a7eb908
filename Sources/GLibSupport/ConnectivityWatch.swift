// ConnectivityWatch: says when the network is back (or another one is joined) and when the machine resumes from
// sleep, for what holds a long-lived request: that request's connection may be dead, and what changed meanwhile
// should be read at once. Main actor.

import CGio
import FoundationEssentials

/// Calls `changed` on the main loop when GIO's network monitor says the network is available after a change
/// (`network-changed`: back after none, another network joined) and when logind says the machine woke up
/// (`PrepareForSleep(false)` on the system bus). Nothing runs in between: both are signals, not polls. Without a
/// system bus (a container, a test's session) only the network is watched.
@MainActor
public final class ConnectivityWatch {
  private let changed: @MainActor () -> Void
  private let monitor: OpaquePointer?
  private var networkHandler: UInt = 0
  private var system: OpaquePointer?
  private var sleepSubscription: UInt32 = 0

  public init(_ changed: @escaping @MainActor () -> Void) {
    self.changed = changed
    monitor = g_network_monitor_get_default()
    let context = Unmanaged.passUnretained(self).toOpaque()
    if let monitor {
      let networkChanged: @convention(c) (UnsafeMutableRawPointer?, gboolean, gpointer?) -> Void = {
        _, available, data in
        guard available != 0 else { return }
        MainActor.assumeIsolated { Unmanaged<ConnectivityWatch>.fromOpaque(data!).takeUnretainedValue().changed() }
      }
      networkHandler = g_signal_connect_data(
        UnsafeMutableRawPointer(monitor), "network-changed",
        b2c_gcallback(unsafeBitCast(networkChanged, to: UnsafeRawPointer.self)),
        context, nil, GConnectFlags(0))
    }
    // The system bus, asked for without waiting (a start does not wait on it).
    g_bus_get(
      G_BUS_TYPE_SYSTEM, nil,
      { _, result, data in
        let watch = Unmanaged<ConnectivityWatch>.fromOpaque(data!).takeRetainedValue()
        let system = g_bus_get_finish(result, nil)
        MainActor.assumeIsolated { watch.subscribe(system) }
      }, Unmanaged.passRetained(self).toOpaque())
  }

  private func subscribe(_ system: OpaquePointer?) {
    guard let system else { return }
    self.system = system
    let context = Unmanaged.passUnretained(self).toOpaque()
    let prepareForSleep: GDBusSignalCallback = { _, _, _, _, _, parameters, data in
      guard let parameters, String(cString: g_variant_get_type_string(parameters)) == "(b)",
        let value = g_variant_get_child_value(parameters, 0)
      else { return }
      defer { g_variant_unref(value) }
      guard g_variant_get_boolean(value) == 0 else { return }  // going to sleep
      MainActor.assumeIsolated { Unmanaged<ConnectivityWatch>.fromOpaque(data!).takeUnretainedValue().changed() }
    }
    sleepSubscription = g_dbus_connection_signal_subscribe(
      system, "org.freedesktop.login1", "org.freedesktop.login1.Manager", "PrepareForSleep",
      "/org/freedesktop/login1", nil, G_DBUS_SIGNAL_FLAGS_NONE, prepareForSleep, context, nil)
  }

  isolated deinit {
    if let monitor, networkHandler != 0 {
      g_signal_handler_disconnect(UnsafeMutableRawPointer(monitor), networkHandler)
    }
    if let system {
      if sleepSubscription != 0 { g_dbus_connection_signal_unsubscribe(system, sleepSubscription) }
      g_object_unref(UnsafeMutableRawPointer(system))
    }
  }
}

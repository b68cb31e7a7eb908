// NetworkMonitor: GIO's network monitor, as the account's list needs it (is there a network, did it change). Main
// actor.

import CGtk
import GtkSupport

/// The desktop's network state (GNetworkMonitor).
@MainActor
enum NetworkMonitor {
  /// Whether the computer has a network at all (else the banner says "You are offline").
  static var isAvailable: Bool {
    g_network_monitor_get_network_available(g_network_monitor_get_default()) != 0
  }

  /// Calls `body` whenever the network changes.
  static func onChange(_ body: @escaping @MainActor () -> Void) {
    Signal.connect(g_network_monitor_get_default(), "network-changed") { (_: UnsafeMutableRawPointer?) in body() }
  }
}

// KeyringUnlockWatch: tells the reminder service when the desktop keyring may have been unlocked, from the Secret
// Service's own signals, so that a service that found it locked reads on without ever raising its prompt. Main actor.

import CGio
import GLibSupport

/// Watches the Secret Service (`org.freedesktop.secrets`) on the session bus for a change to its collections (the
/// login keyring unlocked at the lock screen, in Seahorse, or by another app's prompt): gnome-keyring says so with
/// `CollectionChanged` and with `PropertiesChanged` of the collection's `Locked`. `changed` runs on the main loop
/// for each; the service then reads the session again, without unlocking, so a signal that was not an unlock costs
/// a look-up and nothing else.
@MainActor
final class KeyringUnlockWatch {
  private let connection: OpaquePointer
  private var subscriptions: [UInt32] = []
  private let changed: @MainActor () -> Void

  init?(connection: OpaquePointer?, changed: @escaping @MainActor () -> Void) {
    guard let connection else { return nil }
    self.connection = connection
    self.changed = changed
    let context = Unmanaged.passUnretained(self).toOpaque()
    let callback: GDBusSignalCallback = { _, _, _, _, _, _, data in
      MainActor.assumeIsolated { Unmanaged<KeyringUnlockWatch>.fromOpaque(data!).takeUnretainedValue().changed() }
    }
    for (interface, member) in [
      ("org.freedesktop.Secret.Service", "CollectionChanged"), ("org.freedesktop.DBus.Properties", "PropertiesChanged"),
    ] {
      subscriptions.append(
        g_dbus_connection_signal_subscribe(
          connection, "org.freedesktop.secrets", interface, member, nil, nil, G_DBUS_SIGNAL_FLAGS_NONE, callback,
          context, nil))
    }
  }

  deinit {
    MainActor.assumeIsolated {
      for subscription in subscriptions { g_dbus_connection_signal_unsubscribe(connection, subscription) }
    }
  }
}

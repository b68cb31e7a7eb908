// KeyringWatch: tells the reminder service when the desktop keyring may have changed (unlocked, the session stored or
// removed by another program), from the Secret Service's own signals: a service that found it locked reads on without
// ever raising its prompt, and a sign-out or sign-in elsewhere is seen at once, without reading the keyring on a
// timer. Main actor.

import CGio
import GLibSupport

/// Watches the Secret Service (`org.freedesktop.secrets`) on the session bus for a change to its collections (the
/// login keyring unlocked at the lock screen, in Seahorse, or by another app's prompt): gnome-keyring says so with
/// `CollectionChanged` and with `PropertiesChanged` of the collection's `Locked`; and for a change to its items
/// (`ItemCreated`, `ItemChanged`, `ItemDeleted`: a sign-in, a refresh or a sign-out by another program of the
/// group). `changed` runs on the main loop for each; the service then reads the session again, without unlocking,
/// so a signal about something else costs a look-up and nothing else.
@MainActor
final class KeyringWatch {
  private let connection: OpaquePointer
  private var subscriptions: [UInt32] = []
  private let changed: @MainActor () -> Void

  init?(connection: OpaquePointer?, changed: @escaping @MainActor () -> Void) {
    guard let connection else { return nil }
    self.connection = connection
    self.changed = changed
    let context = Unmanaged.passUnretained(self).toOpaque()
    let callback: GDBusSignalCallback = { _, _, _, _, _, _, data in
      MainActor.assumeIsolated { Unmanaged<KeyringWatch>.fromOpaque(data!).takeUnretainedValue().changed() }
    }
    for (interface, member) in [
      ("org.freedesktop.Secret.Service", "CollectionChanged"), ("org.freedesktop.DBus.Properties", "PropertiesChanged"),
      ("org.freedesktop.Secret.Collection", "ItemCreated"), ("org.freedesktop.Secret.Collection", "ItemChanged"),
      ("org.freedesktop.Secret.Collection", "ItemDeleted"),
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

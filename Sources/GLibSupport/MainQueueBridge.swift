// MainQueueBridge: lets libdispatch's main queue (and so the main actor) run while GLib owns the main thread.
// Lives on the main thread; installed once from main.swift before g_application_run.

import CGio
import Glibc
import Synchronization

/// Drains libdispatch's main queue from the GLib main loop.
///
/// While `g_application_run` owns the main thread nothing calls `dispatch_main`, so `@MainActor` work and
/// `Task { @MainActor in }` continuations would wait forever. libdispatch signals pending main-queue work on an
/// eventfd; the bridge watches that descriptor with a GLib source, resets it, and drains the queue. The source is
/// event driven: it fires only when work was enqueued, never on a timer.
public enum MainQueueBridge {
  private static let sourceID = Mutex<UInt32>(0)
  fileprivate static let wakeupCount = Atomic<Int>(0)

  /// How many times the bridge's GLib source has fired since the process started.
  public static var wakeups: Int { wakeupCount.load(ordering: .relaxed) }

  /// Whether `install()` has run.
  public static var isInstalled: Bool { sourceID.withLock { $0 != 0 } }

  /// Attaches the bridge to GLib's default main context. Call once, on the main thread, before the main loop runs;
  /// further calls do nothing.
  public static func install() {
    sourceID.withLock { id in
      guard id == 0 else { return }
      let fd = _dispatch_get_main_queue_handle_4CF()
      precondition(fd >= 0, "libdispatch has no main-queue handle")
      id = g_unix_fd_add_full(G_PRIORITY_DEFAULT, fd, G_IO_IN, drainMainQueue, nil, nil)
    }
  }
}

/// The GLib source callback: reset the eventfd, then run what is queued. Without the read GLib would see the
/// descriptor readable forever and spin.
private func drainMainQueue(
  _ fd: Int32, _ condition: GIOCondition, _ userData: gpointer?
) -> gboolean {
  var counter: UInt64 = 0
  _ = read(fd, &counter, MemoryLayout<UInt64>.size)
  MainQueueBridge.wakeupCount.add(1, ordering: .relaxed)
  _dispatch_main_queue_callback_4CF(nil)
  return gboolean(1)  // G_SOURCE_CONTINUE
}

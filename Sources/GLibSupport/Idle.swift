// Idle: runs a closure once the main loop has nothing more urgent to do. Main actor.

import CGio

/// Work that can wait until the window is drawn.
@MainActor
public enum Idle {
  /// Runs `body` once, when the main loop is idle at low priority: after pending input, layout and painting (GDK
  /// redraws at a higher priority), so what is on screen is never delayed by it.
  public static func run(_ body: @escaping @MainActor () -> Void) {
    let callback: @convention(c) (gpointer?) -> gboolean = { data in
      MainActor.assumeIsolated { Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue().body() }
      return 0  // G_SOURCE_REMOVE
    }
    let release: @convention(c) (gpointer?) -> Void = { data in
      Unmanaged<Box>.fromOpaque(data!).release()
    }
    g_idle_add_full(G_PRIORITY_LOW, callback, Unmanaged.passRetained(Box(body)).toOpaque(), release)
  }

  private final class Box {
    let body: @MainActor () -> Void
    init(_ body: @escaping @MainActor () -> Void) { self.body = body }
  }
}

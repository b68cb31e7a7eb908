// TerminationSignals: SIGTERM, SIGINT and SIGHUP as events of the GLib main loop, so that a program asked to end
// (the session ending, `kill`, Ctrl+C) ends between two of its steps, never in the middle of one. Main actor.

import CGio
import Glibc

/// Runs a handler on the main loop when the process is asked to end, instead of the signals' default (ending at
/// once, wherever the program was: between two files it keeps in step, say).
@MainActor
public enum TerminationSignals {
  /// Calls `handler` on the main loop at each SIGTERM, SIGINT or SIGHUP (GLib's `g_unix_signal_add`: the handler
  /// runs as a main loop event, not inside the signal). For the life of the process.
  public static func handle(_ handler: @escaping @MainActor () -> Void) {
    let box = Unmanaged.passRetained(Handler(handler)).toOpaque()
    for signal in [SIGTERM, SIGINT, SIGHUP] {
      g_unix_signal_add_full(
        G_PRIORITY_HIGH, signal,
        { data in
          MainActor.assumeIsolated { Unmanaged<Handler>.fromOpaque(data!).takeUnretainedValue().run() }
          return 1  // G_SOURCE_CONTINUE
        }, box, nil)
    }
  }

  private final class Handler {
    let run: @MainActor () -> Void
    init(_ run: @escaping @MainActor () -> Void) { self.run = run }
  }
}

// WallClockTimer: one timer on the wall clock (a Linux timerfd watched by the GLib main loop), armed for a moment,
// not after a delay: time asleep counts, and setting the clock is noticed. Main actor.

import CGio
import FoundationEssentials
import Glibc

/// Fires once at the moment it is armed for, by the wall clock (`CLOCK_REALTIME`, `TFD_TIMER_ABSTIME`): after a
/// suspend that slept past the moment it fires as soon as the machine is back (GLib's timeouts run on the
/// monotonic clock, which stops while asleep, and would fire late by the time slept). When the clock is set while
/// it is armed (`TFD_TIMER_CANCEL_ON_SET`), the handler is told, to arm it again for the same moment: a clock set
/// past that moment fires it at once. No periodic wake-up: nothing runs between the moments armed for.
@MainActor
public final class WallClockTimer {
  private let descriptor: Int32
  private var source: UInt32 = 0
  /// What is armed now (nil: nothing).
  public private(set) var moment: Date?
  private let handler: @MainActor (_ clockWasSet: Bool) -> Void

  /// A timer that calls `handler` when the moment armed for comes (`clockWasSet` false), or when the clock was set
  /// while it waited (true: arm it again).
  public init(_ handler: @escaping @MainActor (_ clockWasSet: Bool) -> Void) {
    self.handler = handler
    descriptor = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
    precondition(descriptor >= 0, "timerfd_create failed: errno \(errno)")
    let callback: GUnixFDSourceFunc = { _, _, data in
      MainActor.assumeIsolated { Unmanaged<WallClockTimer>.fromOpaque(data!).takeUnretainedValue().expired() }
      return 1  // G_SOURCE_CONTINUE
    }
    source = g_unix_fd_add_full(
      G_PRIORITY_DEFAULT, descriptor, G_IO_IN, callback, Unmanaged.passUnretained(self).toOpaque(), nil)
  }

  isolated deinit {
    g_source_remove(source)
    close(descriptor)
  }

  /// Arms the timer for `moment` (one already past fires at once), or disarms it (nil).
  public func arm(at moment: Date?) {
    self.moment = moment
    var value = itimerspec()
    if let moment {
      let seconds = max(moment.timeIntervalSince1970, 0)
      value.it_value.tv_sec = Int(seconds.rounded(.down))
      value.it_value.tv_nsec = Int((seconds - seconds.rounded(.down)) * 1_000_000_000)
      // Zero disarms: the first moment after 1970 stands for any moment already past.
      if value.it_value.tv_sec == 0 && value.it_value.tv_nsec == 0 { value.it_value.tv_nsec = 1 }
    }
    let flags = Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET)
    timerfd_settime(descriptor, flags, &value, nil)
  }

  private func expired() {
    var count: UInt64 = 0
    let read = Glibc.read(descriptor, &count, MemoryLayout<UInt64>.size)
    if read < 0 && errno == ECANCELED {
      handler(true)
    } else if read == MemoryLayout<UInt64>.size {
      moment = nil
      handler(false)
    }
  }
}

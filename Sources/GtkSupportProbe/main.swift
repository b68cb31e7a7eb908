// gtk-support-probe: a test-only program (never installed) that runs a GApplication main loop and reports, as one
// JSON line, what main-actor work ran and how often the main-queue bridge fired. `--no-bridge` runs without it.

import CGtk
import Dispatch
import Foundation
import GtkSupport

/// What the probe saw; printed when the main loop ends.
@MainActor
enum Probe {
  static let hops = 50
  static var mainActorRan = false
  static var continuationRan = false
  static var dispatchRan = false
  static var hopsDone = 0
  static var idleWakeups = 0
  static var idleCPUMilliseconds = 0.0
  static var app: UnsafeMutablePointer<GApplication>!

  /// Main-actor work of three kinds: a task, a continuation after a suspension on another thread, a main-queue
  /// block, and `hops` round trips from background tasks.
  static func start() {
    g_application_hold(app)
    DispatchQueue.main.async { dispatchRan = true }
    Task { @MainActor in
      mainActorRan = true
      await Task.detached { try? await Task.sleep(for: .milliseconds(10)) }.value
      continuationRan = true
      for _ in 0..<hops {
        await Task.detached { await MainActor.run { hopsDone += 1 } }.value
      }
      // All work is done: the loop now idles for 300 ms. A bridge that spins would fire thousands of times.
      let wakeupsBefore = MainQueueBridge.wakeups
      let cpuBefore = cpuMilliseconds()
      addTimeout(300) {
        idleWakeups = MainQueueBridge.wakeups - wakeupsBefore
        idleCPUMilliseconds = cpuMilliseconds() - cpuBefore
        g_application_release(app)
      }
    }
  }

  static func report() -> String {
    """
    {"bridge":\(MainQueueBridge.isInstalled),"mainActorRan":\(mainActorRan),\
    "continuationRan":\(continuationRan),"dispatchRan":\(dispatchRan),"hops":\(hops),\
    "hopsDone":\(hopsDone),"wakeups":\(MainQueueBridge.wakeups),"idleWakeups":\(idleWakeups),\
    "idleCPUMilliseconds":\(idleCPUMilliseconds)}
    """
  }
}

/// Process CPU time (user + system) in milliseconds.
func cpuMilliseconds() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  let user = Double(usage.ru_utime.tv_sec) * 1000 + Double(usage.ru_utime.tv_usec) / 1000
  let system = Double(usage.ru_stime.tv_sec) * 1000 + Double(usage.ru_stime.tv_usec) / 1000
  return user + system
}

/// Runs `body` once after `milliseconds` on the GLib main loop.
@MainActor
func addTimeout(_ milliseconds: UInt32, _ body: @escaping @MainActor () -> Void) {
  final class Box {
    let body: @MainActor () -> Void
    init(_ body: @escaping @MainActor () -> Void) { self.body = body }
  }
  let data = Unmanaged.passRetained(Box(body)).toOpaque()
  g_timeout_add_full(
    G_PRIORITY_DEFAULT, milliseconds,
    { data in
      MainActor.assumeIsolated { Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue().body() }
      return 0  // G_SOURCE_REMOVE
    }, data, { data in Unmanaged<Box>.fromOpaque(data!).release() })
}

if !CommandLine.arguments.contains("--no-bridge") {
  MainQueueBridge.install()
}
Probe.app = g_application_new("io.github.b2ctasks.GtkSupportProbe", G_APPLICATION_NON_UNIQUE)
Signal.connect(Probe.app, "activate") { Probe.start() }
// A deadline for the run without a bridge, where nothing above can finish.
addTimeout(3000) { g_application_quit(Probe.app) }
let status = g_application_run(Probe.app, 0, nil)
print(Probe.report())
exit(status)

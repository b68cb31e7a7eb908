// MainLoopExecutor: a Swift task executor that runs jobs on GLib's default main context (the main thread), so that
// a program made of GLib sources needs no libdispatch thread pool. Sendable.

import CGio

/// Runs the jobs of the tasks that prefer it (`Task(executorPreference:)`, `withTaskExecutorPreference`) on the
/// GLib main loop, one after another, on the thread that runs the default main context.
///
/// Swift runs a task's non-isolated async code and its default actors' code on its preferred task executor, and
/// otherwise on the global executor: libdispatch's thread pool, whose monitor then wakes the process every second for
/// as long as it lives. A program whose work is small and waits on GLib anyway (the reminder service) runs it here
/// instead, and stays asleep between its events.
public final class MainLoopExecutor: TaskExecutor, @unchecked Sendable {
  /// The executor of the default main context.
  public static let shared = MainLoopExecutor()

  private init() {}

  /// Queues `job` as an idle source of the default main context, at the default priority (thread-safe: the loop
  /// is woken when another thread queues one).
  public func enqueue(_ job: consuming ExecutorJob) {
    let box = Unmanaged.passRetained(JobBox(UnownedJob(job))).toOpaque()
    let source = g_idle_source_new()!
    g_source_set_priority(source, G_PRIORITY_DEFAULT)
    g_source_set_callback(
      source,
      { data in
        let job = Unmanaged<JobBox>.fromOpaque(data!).takeRetainedValue().job
        job.runSynchronously(on: MainLoopExecutor.shared.asUnownedTaskExecutor())
        return 0  // G_SOURCE_REMOVE
      }, box, nil)
    g_source_attach(source, nil)
    g_source_unref(source)
  }

  private final class JobBox {
    let job: UnownedJob
    init(_ job: UnownedJob) { self.job = job }
  }
}

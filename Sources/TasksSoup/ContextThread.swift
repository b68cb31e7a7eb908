// ContextThread: a thread of its own running a GLib main context, for libsoup objects that must be used on one
// thread (a SoupSession, a SoupServer) whatever thread the Swift code calling them runs on. Sendable.

import CSoup

/// A thread running its own GMainContext (its thread-default context) until the object is released. libsoup objects
/// made in closures given to `run` belong to it, and are used only from such closures.
final class ContextThread: @unchecked Sendable {
  /// The thread's context (thread-safe to invoke on from anywhere).
  let context: OpaquePointer
  private let loop: OpaquePointer

  init() {
    context = g_main_context_new()
    loop = g_main_loop_new(context, 0)
    g_main_loop_ref(loop)
    b2c_http_thread_start(loop)
  }

  deinit {
    let loop = LoopReference(loop)
    run { g_main_loop_quit(loop.loop) }
    g_main_loop_unref(self.loop)
    g_main_context_unref(context)
  }

  /// Runs `body` on the thread, soon. (A job that never runs, its context gone first, is released all the same.)
  func run(_ body: @escaping @Sendable () -> Void) {
    let job = UserData.retained(Job(body))
    g_main_context_invoke_full(
      context, G_PRIORITY_DEFAULT,
      { data in
        UserData.object(data, as: Job.self).body()
        return 0
      }, job.data, job.destroy)
  }

  /// The loop, handed to its own thread to be quit.
  private struct LoopReference: @unchecked Sendable {
    let loop: OpaquePointer
    init(_ loop: OpaquePointer) { self.loop = loop }
  }

  private final class Job {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
}

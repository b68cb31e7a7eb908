// BackgroundServer: a Hummingbird application run in the background (the playground embedded, tests' servers) and
// stopped gracefully. Sendable.

import Logging
import ServiceLifecycle

/// A server started in the background, stopped the way a deployment stops on SIGTERM.
///
/// Cancelling a Hummingbird server's task outright can trap in SwiftNIO ("Deinited NIOAsyncWriter without calling
/// finish()") when a connection has been accepted but not yet handed to the server's loop (apple/swift-nio#3481):
/// `stop` shuts down gracefully first (the listener closes, connections already accepted are served, idle ones
/// closed), and cancels only what is still running once `grace` has passed.
public final class BackgroundServer: Sendable {
  /// The port it listens on (the one the system chose for port 0).
  public let port: Int
  private let group: ServiceGroup
  private let task: Task<Void, any Error>

  private init(port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
    self.port = port
    self.group = group
    self.task = task
  }

  /// Runs the service `make` builds, handing it the callback to call with the bound port; returns once it listens.
  public static func start<S: Service>(
    logger: Logger, _ make: (_ onListening: @escaping @Sendable (Int) async -> Void) -> S
  ) async throws -> BackgroundServer {
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let group = ServiceGroup(
      configuration: .init(services: [make { continuation.yield($0) }], logger: logger))
    let task = Task {
      defer { continuation.finish() }
      try await group.run()
    }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next() else {
      try await task.value
      throw CancellationError()
    }
    return BackgroundServer(port: port, group: group, task: task)
  }

  /// Stops taking connections, lets the requests in flight finish for up to `grace`, then cancels what remains,
  /// and returns once the server has stopped.
  public func stop(grace: Duration = .seconds(30)) async {
    await group.triggerGracefulShutdown()
    let task = self.task
    let deadline = Task {
      try await Task.sleep(for: grace)
      task.cancel()
    }
    _ = await task.result
    deadline.cancel()
  }
}

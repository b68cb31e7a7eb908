// PostgresVersionReader: the list-version reads on a connection of their own, driven from its event loop. Sendable.

import Logging
import PostgresNIO
import Synchronization
import TaskService

/// Reads list versions on one connection outside the pool, through PostgresNIO's EventLoopFuture interface: the
/// answer arrives on the connection's event loop, which resumes the waiting requests and sends the next read from
/// there. Through the pool and `async`, each read was a lease, two tasks, a timer on libdispatch's manager thread
/// and hops through Swift's executor, and under load list requests spent most of their time waiting for those
/// reads, one after the other (Tests/Benchmarks/RESULTS.md).
///
/// The connection opens with the first read; a read that fails or takes longer than `limit` drops it (503 for the
/// requests it was for when the database went away or did not answer), and the next read opens another.
final class PostgresVersionReader: Sendable {
  private let configuration: PostgresConnection.Configuration
  private let eventLoop: any EventLoop
  private let logger: Logger
  private let limit: TimeAmount
  /// The versions of owners' lists (`owner_versions`, kept by a trigger). Not a prepared statement: PostgresNIO
  /// prepares only through `async` calls, and PostgreSQL planning this query each time measured no slower.
  static let listVersions = "SELECT owner, version FROM owner_versions WHERE owner = ANY($1)"
  /// The members' change-feed positions (`member_feed`, kept by triggers).
  static let feedPositions = "SELECT member, seq FROM member_feed WHERE member = ANY($1)"
  /// The query: `$1` a text array of keys, each row a key and its number.
  private let sql: String

  private struct State {
    /// The connection, being opened or open; nil before the first read and after a failure.
    var connection: EventLoopFuture<PostgresConnection>?
    /// That connection once made.
    var made: PostgresConnection?
  }
  private let state = Mutex(State())

  init(
    configuration: PostgresConnection.Configuration, eventLoop: any EventLoop, logger: Logger, limit: TimeAmount,
    sql: String = listVersions
  ) {
    self.sql = sql
    self.configuration = configuration
    self.eventLoop = eventLoop
    self.logger = logger
    self.limit = limit
  }

  /// Reads the versions of `owners`; calls `completion` once, on the connection's event loop.
  func read(owners: [String], completion: @escaping @Sendable (Result<[String: Int64], any Error>) -> Void) {
    let connection = currentConnection()
    let finish = Completion(completion)
    let timeout = eventLoop.scheduleTask(in: limit) {
      self.drop(connection)
      self.logger.warning("PostgreSQL did not answer a list-version read in time")
      finish(.failure(TaskStoreUnavailable()))
    }
    var bindings = PostgresBindings(capacity: 1)
    bindings.append(owners)
    let query = PostgresQuery(unsafeSQL: sql, binds: bindings)
    connection.flatMap { $0.query(query, logger: self.logger) }.whenComplete { result in
      timeout.cancel()
      do {
        var versions: [String: Int64] = [:]
        for row in try result.get().rows {
          let cells = row.makeRandomAccess()
          versions[try cells[0].decode(String.self)] = try cells[1].decode(Int64.self)
        }
        finish(.success(versions))
      } catch {
        // Whatever failed, the next read starts on a new connection: a connection that could not be made, or was
        // refused by the server (too many connections, say), is never used again.
        self.drop(connection)
        if let error = error as? PSQLError, !PostgresTaskStore.isOutage(error) { return finish(.failure(error)) }
        let kind = (error as? PSQLError).map { "\($0.code)" } ?? "\(type(of: error))"
        self.logger.warning("PostgreSQL cannot be reached", metadata: ["code": "\(kind)"])
        finish(.failure(TaskStoreUnavailable()))
      }
    }
  }

  /// Closes the connection (the store's `run()` ends).
  func close() {
    let connection = state.withLock { state in
      defer { state = State() }
      return state.connection
    }
    if let connection { Self.close(connection) }
  }

  /// The connection the next read uses: the current one, unless it has closed meanwhile.
  private func currentConnection() -> EventLoopFuture<PostgresConnection> {
    let (connection, opened, replaced) = state.withLock {
      state -> (EventLoopFuture<PostgresConnection>, Bool, EventLoopFuture<PostgresConnection>?) in
      if let current = state.connection, !(state.made?.isClosed ?? false) { return (current, false, nil) }
      let opening = PostgresConnection.connect(on: eventLoop, configuration: configuration, id: 0, logger: logger)
      let old = state.connection
      state = State(connection: opening)
      return (opening, true, old)
    }
    if let replaced { Self.close(replaced) }
    if opened {
      connection.whenSuccess { made in self.state.withLock { if $0.connection === connection { $0.made = made } } }
    }
    return connection
  }

  /// Forgets `failed` if it is still the current connection, and closes it.
  private func drop(_ failed: EventLoopFuture<PostgresConnection>) {
    let dropped = state.withLock { state in
      guard state.connection === failed else { return false }
      state = State()
      return true
    }
    if dropped { Self.close(failed) }
  }

  private static func close(_ connection: EventLoopFuture<PostgresConnection>) {
    connection.whenSuccess { $0.close().whenComplete { _ in } }
  }

  /// A completion that runs once: whichever of the answer and the timeout comes first.
  private final class Completion: Sendable {
    private let completion: Mutex<(@Sendable (Result<[String: Int64], any Error>) -> Void)?>

    init(_ completion: @escaping @Sendable (Result<[String: Int64], any Error>) -> Void) {
      self.completion = Mutex(completion)
    }

    func callAsFunction(_ result: Result<[String: Int64], any Error>) {
      completion.withLock { $0.take() }?(result)
    }
  }
}

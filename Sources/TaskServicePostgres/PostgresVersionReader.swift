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
/// The query is a prepared statement, prepared once on each connection: a read is then one Bind and Execute, and
/// PostgreSQL neither parses nor plans it again (pgbench here: 40 700 against 28 000 such queries a second).
///
/// The connection opens with the first read; a read that fails or takes longer than `limit` drops it (503 for the
/// requests it was for when the database went away or did not answer), and the next read opens another.
final class PostgresVersionReader: Sendable {
  private let configuration: PostgresConnection.Configuration
  private let eventLoop: any EventLoop
  private let logger: Logger
  private let limit: TimeAmount
  /// The versions of owners' lists (`owner_versions`, kept by a trigger). Both columns are read as text: a prepared
  /// statement's rows come in binary (PostgresNIO asks for it at each Bind) while the description it keeps from the
  /// preparation says text, so a number would be read as digits; text is the same bytes in either format.
  static let listVersions = "SELECT owner, version::text FROM owner_versions WHERE owner = ANY($1)"
  /// The members' change-feed positions (`member_feed`, kept by triggers), read as `listVersions` is.
  static let feedPositions = "SELECT member, seq::text FROM member_feed WHERE member = ANY($1)"
  /// The query: `$1` a text array of keys, each row a key and its number.
  private let sql: String

  /// An open connection and the query prepared on it.
  private struct Prepared {
    let connection: PostgresConnection
    let query: PreparedQuery
  }

  private struct State {
    /// The connection, being opened and prepared or ready; nil before the first read and after a failure.
    var connection: EventLoopFuture<Prepared>?
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
    var keys = ByteBuffer()
    owners.encode(into: &keys, context: .default)
    let bind = PostgresData(type: .textArray, typeModifier: nil, formatCode: .binary, value: keys)
    connection.flatMap { $0.query.execute([bind]) }.whenComplete { result in
      timeout.cancel()
      do {
        var versions: [String: Int64] = [:]
        for row in try result.get() {
          let cells = row.makeRandomAccess()
          guard let number = Int64(try cells[1].decode(String.self)) else { throw UnreadableNumber() }
          versions[try cells[0].decode(String.self)] = number
        }
        finish(.success(versions))
      } catch {
        // Whatever failed, the next read starts on a new connection: a connection that could not be made, or was
        // refused by the server (too many connections, say), is never used again.
        self.drop(connection)
        if let error = error as? PSQLError, !PostgresTaskStore.isOutage(error) { return finish(.failure(error)) }
        if error is UnreadableNumber || error is PostgresDecodingError {
          // An answer it cannot read (a schema that is not this version's): said as what it is, not as an outage.
          self.logger.error("PostgreSQL's version read answered rows it cannot read")
          return finish(.failure(error))
        }
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
  private func currentConnection() -> EventLoopFuture<Prepared> {
    let (connection, opened, replaced) = state.withLock {
      state -> (EventLoopFuture<Prepared>, Bool, EventLoopFuture<Prepared>?) in
      if let current = state.connection, !(state.made?.isClosed ?? false) { return (current, false, nil) }
      let opening = PostgresConnection.connect(on: eventLoop, configuration: configuration, id: 0, logger: logger)
        .flatMap { [sql] connection in
          connection.prepare(query: sql).map { Prepared(connection: connection, query: $0) }
            .flatMapError { error in connection.close().flatMapThrowing { throw error } }
        }
      let old = state.connection
      state = State(connection: opening)
      return (opening, true, old)
    }
    if let replaced { Self.close(replaced) }
    if opened {
      connection.whenSuccess { made in
        self.state.withLock { if $0.connection === connection { $0.made = made.connection } }
      }
    }
    return connection
  }

  /// Forgets `failed` if it is still the current connection, and closes it.
  private func drop(_ failed: EventLoopFuture<Prepared>) {
    let dropped = state.withLock { state in
      guard state.connection === failed else { return false }
      state = State()
      return true
    }
    if dropped { Self.close(failed) }
  }

  private static func close(_ connection: EventLoopFuture<Prepared>) {
    connection.whenSuccess { $0.connection.close().whenComplete { _ in } }
  }

  /// A row whose number is not one (the database answered something else than the query asks for).
  private struct UnreadableNumber: Error {}

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

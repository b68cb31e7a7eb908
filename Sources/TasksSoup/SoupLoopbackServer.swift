// SoupLoopbackServer: a small HTTP server on one loopback address over libsoup's SoupServer, for the RFC 8252
// loopback redirect of a sign-in in the system browser. Sendable: the server lives on a thread of its own.

import CSoup
import FoundationEssentials

/// Listens on one address and answers GET requests to a few paths through an async handler; other paths get 404 and
/// other methods 405.
package final class SoupLoopbackServer: Sendable {
  /// What the handler answers.
  package struct Reply: Sendable {
    package var status: UInt32
    package var headers: [(name: String, value: String)]
    package var contentType: String?
    package var body: Data?

    package init(
      status: UInt32, headers: [(name: String, value: String)] = [], contentType: String? = nil, body: Data? = nil
    ) {
      self.status = status
      self.headers = headers
      self.contentType = contentType
      self.body = body
    }
  }

  /// Why listening failed (the address is taken or cannot be had).
  package struct ListenError: Error {
    package let reason: String
  }

  /// The port listened on.
  package let port: Int
  private let thread: ContextThread
  private let box: ServerBox

  private init(port: Int, thread: ContextThread, box: ServerBox) {
    self.port = port
    self.thread = thread
    self.box = box
  }

  /// Listens on `address` (`127.0.0.1`, `::1`) and `port` (0: a free one). `handler` gets, for every GET of one of
  /// `paths`, the URL the browser asked for, named with `host` (the redirect URI's host) and the port it asked at.
  package static func start(
    address: String, port: Int, paths: Set<String>, host: String,
    handler: @escaping @Sendable (String) async -> Reply
  ) async throws(ListenError) -> SoupLoopbackServer {
    let thread = ContextThread()
    let box = ServerBox(paths: paths, host: host, thread: thread, handler: handler)
    let bound = await withCheckedContinuation { continuation in
      thread.run { continuation.resume(returning: box.listen(address: address, port: port)) }
    }
    return SoupLoopbackServer(port: try bound.get(), thread: thread, box: box)
  }

  /// Stops taking requests, lets the ones under way be answered and their answers written (for at most `drain`),
  /// then closes the connections: the browser sees the page its redirect earned even when the caller stops the
  /// server as soon as it has the flow's outcome (the CLI then exits). Returns once closed; a second call returns at
  /// once.
  package func stop(drain: Duration = .seconds(5)) async {
    let box = self.box
    let thread = self.thread
    // Cancelled once closed, so that neither the server nor its thread is kept for the rest of `drain`.
    let deadline = Task {
      try await Task.sleep(for: drain)
      thread.run { box.closeNow() }
    }
    await withCheckedContinuation { continuation in
      thread.run { box.close { continuation.resume() } }
    }
    deadline.cancel()
  }
}

/// The SoupServer and the handler; used only on the server's thread (but for the handler's task).
private final class ServerBox: @unchecked Sendable {
  let paths: Set<String>
  let host: String
  let thread: ContextThread
  let handler: @Sendable (String) async -> SoupLoopbackServer.Reply
  private var server: UnsafeMutablePointer<SoupServer>?
  /// Requests whose handler has not answered yet. Each holds a reference until the answer comes back, whatever
  /// happened to the request meanwhile, so that no later request can reuse its address while the handler runs.
  private var waiting: Set<OpaquePointer> = []
  /// Those of `waiting` that failed meanwhile (the browser went away, or the server closed): their answer is dropped.
  private var failed: Set<OpaquePointer> = []
  /// Answered requests being written (one reference each, until request-finished or request-aborted).
  private var writing: Set<OpaquePointer> = []
  /// Set by `close`: new requests get 503, and the server closes once nothing waits or is being written.
  private var draining = false
  private var whenClosed: [() -> Void] = []

  init(
    paths: Set<String>, host: String, thread: ContextThread,
    handler: @escaping @Sendable (String) async -> SoupLoopbackServer.Reply
  ) {
    self.paths = paths
    self.host = host
    self.thread = thread
    self.handler = handler
  }

  func listen(address: String, port: Int) -> Result<Int, SoupLoopbackServer.ListenError> {
    let server = b2c_http_server_new()
    self.server = server
    soup_server_add_handler(
      server, nil,
      { _, message, _, _, data in
        UserData.object(data, as: ServerBox.self).handle(message)
      }, UserData.borrowed(self), nil)
    // `void (SoupServer*, SoupServerMessage*, gpointer)`: an answer was written, or the request failed.
    let settled: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> Void = { _, message, data in
      UserData.object(data, as: ServerBox.self).settle(message)
    }
    for signal in ["request-finished", "request-aborted"] {
      g_signal_connect_data(
        server, signal, unsafeBitCast(settled, to: GCallback.self), UserData.borrowed(self), nil, GConnectFlags(0))
    }
    guard let socketAddress = g_inet_socket_address_new_from_string(address, guint(port)) else {
      return .failure(.init(reason: "not an address"))
    }
    defer { g_object_unref(socketAddress) }
    // Bound here rather than by soup_server_listen, with SO_REUSEADDR as SwiftNIO set it: a fixed port that an earlier
    // connection's end still holds in TIME_WAIT can be listened on again (a port another program listens on is
    // still refused).
    var error: UnsafeMutablePointer<GError>?
    var bound = 0
    if let socket = g_socket_new(
      g_socket_address_get_family(socketAddress), G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error)
    {
      if g_socket_bind(socket, socketAddress, 1, &error) != 0, g_socket_listen(socket, &error) != 0,
        soup_server_listen_socket(server, socket, SoupServerListenOptions(0), &error) != 0,
        let local = g_socket_get_local_address(socket, &error)
      {
        bound = Int(
          g_inet_socket_address_get_port(
            UnsafeMutableRawPointer(local).assumingMemoryBound(to: GInetSocketAddress.self)))
        g_object_unref(local)
      }
      g_object_unref(socket)
    }
    if let error {
      let reason = String(cString: error.pointee.message)
      g_error_free(error)
      closeNow()
      return .failure(.init(reason: reason))
    }
    guard bound > 0 else {
      closeNow()
      return .failure(.init(reason: "no port"))
    }
    return .success(bound)
  }

  /// Closes once the requests under way have been answered (`closeNow` when they take too long); then `done`.
  func close(then done: @escaping () -> Void) {
    whenClosed.append(done)
    draining = true
    if server == nil || (waiting.isEmpty && writing.isEmpty) { closeNow() }
  }

  /// Closes the connections, answered or not, and tells whoever waits for it.
  func closeNow() {
    // Taken first: disconnecting aborts the requests still open, and their request-aborted must find no answer being
    // written (nor a server to close again). Requests still waiting for their handler are failed; their references
    // go when the answers come back.
    let server = self.server
    self.server = nil
    let unfinished = writing
    writing.removeAll()
    failed.formUnion(waiting)
    if let server {
      soup_server_disconnect(server)
      g_object_unref(server)
    }
    for message in unfinished { g_object_unref(UnsafeMutableRawPointer(message)) }
    let waiting = whenClosed
    whenClosed.removeAll()
    for done in waiting { done() }
  }

  /// A request's answer was written, or the request failed.
  private func settle(_ message: OpaquePointer?) {
    guard let message else { return }
    if waiting.contains(message) {
      failed.insert(message)
    } else if writing.remove(message) != nil {
      g_object_unref(UnsafeMutableRawPointer(message))
    }
    closeIfDrained()
  }

  /// While closing: closes once nothing waits for its handler or is being written.
  private func closeIfDrained() {
    if draining && server != nil && waiting.isEmpty && writing.isEmpty { closeNow() }
  }

  private func handle(_ message: OpaquePointer?) {
    guard let message, let uri = soup_server_message_get_uri(message) else { return }
    guard !draining else {
      soup_server_message_set_status(message, 503, nil)
      return
    }
    let requested = String(cString: g_uri_get_path(uri))
    guard paths.contains(requested) else {
      soup_server_message_set_status(message, 404, nil)
      return
    }
    guard String(cString: soup_server_message_get_method(message)) == "GET" else {
      soup_server_message_set_status(message, 405, nil)
      soup_message_headers_append(soup_server_message_get_response_headers(message), "Allow", "GET")
      return
    }
    let query = g_uri_get_query(uri).map { "?" + String(cString: $0) } ?? ""
    let url = "http://\(host):\(g_uri_get_port(uri))\(requested)\(query)"
    soup_server_message_pause(message)
    g_object_ref(UnsafeMutableRawPointer(message))
    waiting.insert(message)
    let held = HeldMessage(message)
    let thread = self.thread
    let handler = self.handler
    Task {
      let reply = await handler(url)
      thread.run { self.answer(held.message, with: reply) }
    }
  }

  /// Answers a waiting request, unless it failed meanwhile or the server was closed without waiting for it.
  private func answer(_ message: OpaquePointer, with reply: SoupLoopbackServer.Reply) {
    waiting.remove(message)
    guard failed.remove(message) == nil, server != nil else {
      g_object_unref(UnsafeMutableRawPointer(message))
      closeIfDrained()
      return
    }
    writing.insert(message)
    soup_server_message_set_status(message, reply.status, nil)
    let headers = soup_server_message_get_response_headers(message)
    for (name, value) in reply.headers { soup_message_headers_append(headers, name, value) }
    if let body = reply.body {
      body.withUnsafeBytes { bytes in
        soup_server_message_set_response(
          message, reply.contentType, SOUP_MEMORY_COPY, bytes.baseAddress?.assumingMemoryBound(to: CChar.self),
          gsize(bytes.count))
      }
    }
    soup_server_message_unpause(message)
  }
}

/// A paused request, carried to the handler's task and back to the server's thread (used only there).
private struct HeldMessage: @unchecked Sendable {
  let message: OpaquePointer

  init(_ message: OpaquePointer) {
    self.message = message
  }
}

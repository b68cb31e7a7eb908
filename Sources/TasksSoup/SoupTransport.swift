// SoupTransport: the core's HTTP over libsoup 3 (GIO), for the GNOME app: GNOME's proxy settings through GIO's proxy
// resolver, the system's trust store through GIO's TLS backend, and no libcurl or OpenSSL in the process. Sendable:
// the session is used only on its own thread, which runs the session's GLib main context.

import CSoup
import FoundationEssentials
import TasksCore

/// Sends requests through one SoupSession: no cookies, no cache, redirects not followed.
public final class SoupTransport: HTTPTransport, Sendable {
  private let thread = ContextThread()
  private let session: SessionBox
  /// Seconds the server may stay silent before a request fails with `.timedOut`.
  public let timeout: TimeInterval

  /// A transport whose requests time out after `timeout` seconds of silence, on a thread of its own.
  public init(timeout: TimeInterval = 20) {
    self.timeout = timeout
    session = SessionBox(timeout: guint(max(1, timeout.rounded(.up))))
  }

  deinit {
    let session = self.session
    thread.run { session.close() }
  }

  /// Opens a connection to `url`'s server on the transport's thread now (libsoup's preconnection: the proxy looked
  /// up, the name resolved, TCP and TLS set up), while the caller waits for the keyring. libsoup gives it to the
  /// session's first request to that server that may be sent again (a GET, a PUT, a resendable write; any other POST
  /// takes it only while it is still connecting, and opens its own once it is idle), and drops it unused after 3 s.
  /// A failure is not reported here: the request connects again and reports its own.
  public func prepare(for url: URL) {
    let session = self.session
    let uri = url.absoluteString
    thread.run {
      guard let message = soup_message_new("GET", uri) else { return }
      session.preconnect(message)
      g_object_unref(UnsafeMutableRawPointer(message))
    }
  }

  public func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPAnswer {
    let exchange = Exchange(request: request)
    let session = self.session
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        exchange.continuation = continuation
        thread.run { exchange.start(on: session.open(timeout: request.timeout)) }
      }
    } onCancel: {
      g_cancellable_cancel(exchange.cancellable)
    }
    return try result.get()
  }
}

/// The transport's SoupSessions, by timeout (libsoup's is the session's): the transport's own, and one for each
/// longer timeout a request asks for (a long poll's, on a connection of its own that no other request waits
/// behind). Made on the transport's thread when a request first needs them, used and released only there.
private final class SessionBox: @unchecked Sendable {
  private let timeout: guint
  private var sessions: [guint: UnsafeMutablePointer<SoupSession>] = [:]

  init(timeout: guint) {
    self.timeout = timeout
  }

  func open(timeout asked: TimeInterval?) -> UnsafeMutablePointer<SoupSession> {
    let seconds = asked.map { guint(max(1, $0.rounded(.up))) } ?? timeout
    if let session = sessions[seconds] { return session }
    let made = b2c_http_session_new(seconds)
    sessions[seconds] = made
    return made
  }

  /// Preconnections under way: each holds its session until its callback has run.
  private var preconnecting = 0

  /// Starts a preconnection for `message` on the transport's own session.
  func preconnect(_ message: OpaquePointer) {
    preconnecting += 1
    soup_session_preconnect_async(
      open(timeout: nil), message, G_PRIORITY_DEFAULT, nil,
      { source, result, data in
        let box = UserData.take(data, as: SessionBox.self)
        var error: UnsafeMutablePointer<GError>?
        _ = soup_session_preconnect_finish(UnsafeMutablePointer(OpaquePointer(source)), result, &error)
        if let error { g_error_free(error) }
        box.preconnecting -= 1
      }, UserData.oneShot(self))
  }

  /// Ends every session: a preconnection still under way is cancelled and its callback run here, before the thread's
  /// loop stops (its task would otherwise hold the session, and its socket, for good).
  func close() {
    for session in sessions.values { soup_session_abort(session) }
    while preconnecting > 0 { g_main_context_iteration(g_main_context_get_thread_default(), 1) }
    for session in sessions.values { g_object_unref(session) }
    sessions = [:]
  }
}

/// One request and its answer. Made on the caller's thread; from `start()` on, used only on the transport's thread.
private final class Exchange: @unchecked Sendable {
  let request: HTTPRequest
  private var session: UnsafeMutablePointer<SoupSession>?
  /// Cancelled when the Swift task is (GCancellable is thread-safe).
  let cancellable = g_cancellable_new()!
  var continuation: CheckedContinuation<Result<HTTPAnswer, NetworkError>, Never>?
  /// The certificate problems GIO found, when the server's certificate was refused.
  var certificateFlags: UInt32 = 0
  var message: OpaquePointer?

  init(request: HTTPRequest) {
    self.request = request
  }

  deinit {
    g_object_unref(cancellable)
  }

  /// Whether the request went out again after its kept connection was found closed (once at most).
  private var resent = false

  func start(on session: UnsafeMutablePointer<SoupSession>) {
    self.session = session
    guard let message = soup_message_new(request.method, request.url.absoluteString) else {
      finish(.failure(.failed("not a URL libsoup accepts")))
      return
    }
    self.message = message
    // A request that may be sent again goes on a kept connection (libsoup gives any other POST or PATCH a new one),
    // and is sent again here, on a new one, when that connection ends before an answer: libsoup sends again only
    // the methods it knows to be idempotent, whatever the flag says.
    var flags = SOUP_MESSAGE_NO_REDIRECT.rawValue
    if request.resendable { flags |= resent ? SOUP_MESSAGE_NEW_CONNECTION.rawValue : SOUP_MESSAGE_IDEMPOTENT.rawValue }
    soup_message_add_flags(message, SoupMessageFlags(flags))
    let headers = soup_message_get_request_headers(message)
    for (name, value) in request.headers { soup_message_headers_append(headers, name, value) }
    if let body = request.body {
      let bytes = body.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
      soup_message_set_request_body_from_bytes(message, nil, bytes)
      g_bytes_unref(bytes)
    }
    // Only to learn why a certificate was refused: the handler refuses it, as GIO's verdict stands.
    let refuse: @convention(c) (OpaquePointer?, OpaquePointer?, GTlsCertificateFlags, gpointer?) -> gboolean = {
      _, _, flags, data in
      UserData.object(data, as: Exchange.self).certificateFlags = flags.rawValue
      return 0
    }
    g_signal_connect_data(
      UnsafeMutableRawPointer(message), "accept-certificate", unsafeBitCast(refuse, to: GCallback.self),
      UserData.borrowed(self),
      nil, GConnectFlags(0))
    // The body is read in pieces, decoded (libsoup's content decoder unpacks gzip as it reads), and given up once it
    // passes the request's limit: a hostile server's small gzip answer can unpack to gigabytes.
    soup_session_send_async(
      session, message, G_PRIORITY_DEFAULT, cancellable,
      { _, result, data in
        UserData.take(data, as: Exchange.self).sent(result)
      }, UserData.oneShot(self))
  }

  /// The answer's body, read so far.
  private var body = Data()
  private var stream: UnsafeMutablePointer<GInputStream>?

  private func sent(_ result: OpaquePointer?) {
    var error: UnsafeMutablePointer<GError>?
    guard let stream = session.flatMap({ soup_session_send_finish($0, result, &error) }) else {
      if let session, request.resendable, !resent, let error, Self.connectionEnded(error) {
        g_error_free(error)
        resent = true
        if let message { g_object_unref(UnsafeMutableRawPointer(message)) }
        message = nil
        certificateFlags = 0
        return start(on: session)
      }
      finish(.failure(mapped(error)))
      if let error { g_error_free(error) }
      return
    }
    self.stream = stream
    // Room for the whole body a 200 announces (within the limit), so that a page of the feed is not copied
    // again each time the body outgrows its room (a gzip body's announced length is less than it unpacks to).
    if let message, soup_message_get_status(message).rawValue == 200 {
      let headers = soup_message_get_response_headers(message)
      let announced = Int(soup_message_headers_get_content_length(headers))
      if announced > 0 { body.reserveCapacity(min(announced, request.maxResponseBytes)) }
    }
    readMore()
  }

  private func readMore() {
    g_input_stream_read_bytes_async(
      stream, 64 * 1024, G_PRIORITY_DEFAULT, cancellable,
      { _, result, data in
        UserData.take(data, as: Exchange.self).read(result)
      }, UserData.oneShot(self))
  }

  private func read(_ result: OpaquePointer?) {
    var error: UnsafeMutablePointer<GError>?
    guard let bytes = g_input_stream_read_bytes_finish(stream, result, &error) else {
      finish(.failure(mapped(error)))
      if let error { g_error_free(error) }
      return
    }
    defer { g_bytes_unref(bytes) }
    var size: gsize = 0
    let data = g_bytes_get_data(bytes, &size)
    guard size > 0, let data else { return answered() }
    guard body.count + Int(size) <= request.maxResponseBytes else {
      body = Data()
      g_cancellable_cancel(cancellable)
      finish(.failure(.tooLarge(limit: request.maxResponseBytes)))
      return
    }
    body.append(data.assumingMemoryBound(to: UInt8.self), count: Int(size))
    readMore()
  }

  private func answered() {
    guard let message else { return finish(.failure(.failed("no message"))) }
    var headers = HeaderCollector()
    withUnsafeMutablePointer(to: &headers) { collector in
      soup_message_headers_foreach(
        soup_message_get_response_headers(message),
        { name, value, data in
          let collector = data!.assumingMemoryBound(to: HeaderCollector.self)
          collector.pointee.add(String(cString: name!), String(cString: value!))
        }, collector)
    }
    finish(
      .success(HTTPAnswer(status: Int(soup_message_get_status(message).rawValue), body: body, headers: headers.fields)))
  }

  /// Releases the message here, on the transport's thread where libsoup used it, then hands `result` on.
  private func finish(_ result: Result<HTTPAnswer, NetworkError>) {
    if let stream {
      g_input_stream_close(stream, nil, nil)
      g_object_unref(stream)
    }
    stream = nil
    if let message { g_object_unref(UnsafeMutableRawPointer(message)) }
    message = nil
    continuation?.resume(returning: result)
    continuation = nil
  }

  /// Whether `error` says the connection ended under the request, before an answer (a kept connection the server
  /// had closed).
  private static func connectionEnded(_ error: UnsafeMutablePointer<GError>) -> Bool {
    guard error.pointee.domain == g_io_error_quark() else { return false }
    switch GIOErrorEnum(UInt32(error.pointee.code)) {
    case G_IO_ERROR_PARTIAL_INPUT, G_IO_ERROR_CONNECTION_CLOSED, G_IO_ERROR_BROKEN_PIPE, G_IO_ERROR_NOT_CONNECTED:
      return true
    default: return false
    }
  }

  /// GIO's and libsoup's errors as the core's.
  private func mapped(_ error: UnsafeMutablePointer<GError>?) -> NetworkError {
    guard let error else { return .failed("no answer and no error") }
    let domain = error.pointee.domain
    let number = error.pointee.code  // GIO's error number in its domain, never a secret
    if domain == g_io_error_quark() {
      switch GIOErrorEnum(UInt32(number)) {
      case G_IO_ERROR_TIMED_OUT: return .timedOut
      case G_IO_ERROR_CONNECTION_REFUSED, G_IO_ERROR_HOST_UNREACHABLE, G_IO_ERROR_NETWORK_UNREACHABLE,
        G_IO_ERROR_HOST_NOT_FOUND, G_IO_ERROR_CONNECTION_CLOSED, G_IO_ERROR_BROKEN_PIPE, G_IO_ERROR_NOT_CONNECTED,
        G_IO_ERROR_PARTIAL_INPUT:
        return .unreachable("GIO error \(number)")
      case G_IO_ERROR_CANCELLED: return .failed("cancelled")
      default: return .failed("GIO error \(number)")
      }
    }
    if domain == g_resolver_error_quark() { return .unreachable("resolver error \(number)") }
    if domain == g_tls_error_quark() {
      let host = HTTPClient.hostName(request.url)
      // A request that took over a preconnection whose certificate was refused before it came has its problems from
      // the connection (libsoup copies them to the message), not from its own handler.
      var flags = certificateFlags
      if flags == 0, let message { flags = soup_message_get_tls_peer_certificate_errors(message).rawValue }
      return .untrusted(host: host, flags == 0 ? .handshake : CertificateProblem(tlsFlags: flags))
    }
    return .failed("\(String(cString: g_quark_to_string(domain))) error \(number)")
  }
}

/// Response header fields, names in lower case, repeated fields joined with commas.
private struct HeaderCollector {
  var fields: [String: String] = [:]

  mutating func add(_ name: String, _ value: String) {
    let key = name.lowercased()
    if let earlier = fields[key] { fields[key] = earlier + ", " + value } else { fields[key] = value }
  }
}

extension HTTPClient {
  /// A client over libsoup whose requests time out after `timeout` seconds of silence.
  public static func soup(timeout: TimeInterval = 20) -> HTTPClient {
    HTTPClient(SoupTransport(timeout: timeout))
  }
}

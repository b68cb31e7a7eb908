// A transport readied before its first request (the CLI and the app's signed-in start ready libsoup's connection
// while the keyring answers), and the room a body's announced length reserves, over both transports against a server
// of the test's own that counts what it is sent.

import Foundation
import TasksCore
import TasksTestSupport
import Testing

@Suite("A transport readied before its first request")
struct TransportReadyTests {
  /// Answers `/ping` with `pong` (to any method); `/drop` too, the first request on a connection only (it closes
  /// the connection at the next, unanswered); `/huge` announces 2⁶³ − 1 bytes, sends 2 and closes; `/count` answers how many
  /// other requests it was answered and how many `/drop` left unanswered; `/connections` the connections it accepted
  /// (but the one asking), oldest first, with the paths each carried and, once closed, how long it was open. Prints
  /// its port.
  private static let script = """
    import http.server, json, sys, threading, time
    requests = dropped = 0
    connections, lock = [], threading.Lock()
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def log_message(self, *args): pass
        def setup(self):
            super().setup()
            self.connection_record = {"accepted": time.monotonic(), "paths": [], "closed": None}
            with lock: connections.append(self.connection_record)
        def finish(self):
            super().finish()
            with lock: self.connection_record["closed"] = time.monotonic()
        def do_GET(self):
            global requests, dropped
            self.connection_record["paths"].append(self.path)
            if self.path == "/connections":
                with lock:
                    body = json.dumps([{"paths": c["paths"], "open": None if c["closed"] is None
                        else c["closed"] - c["accepted"]} for c in connections if c is not self.connection_record])
                self.wfile.write(b"HTTP/1.1 200 OK\\r\\nContent-Length: %d\\r\\n\\r\\n%s" % (len(body), body.encode()))
                return
            self.served = getattr(self, "served", 0) + 1
            if self.path == "/drop" and self.served > 1:
                dropped += 1
                self.close_connection = True
                return
            if self.path == "/huge":
                requests += 1
                self.wfile.write(b"HTTP/1.1 200 OK\\r\\nContent-Length: %d\\r\\n\\r\\n{}" % (2 ** 63 - 1))
                self.close_connection = True
                return
            if self.path != "/count":
                requests += 1
            body = ("%d %d" % (requests, dropped) if self.path == "/count" else "pong").encode()
            self.wfile.write(b"HTTP/1.1 200 OK\\r\\nContent-Length: %d\\r\\n\\r\\n%s" % (len(body), body))
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            self.do_GET()
        do_PATCH = do_DELETE = do_POST
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print("listening on %d" % server.server_address[1], flush=True)
    server.serve_forever()
    """

  @Test("readying sends no request, and the request after it is answered", arguments: Transport.allCases)
  func readied(transport: Transport) async throws {
    let server = try await ScriptServer.start(["-c", Self.script])
    defer { server.stop() }
    let ping = try #require(URL(string: server.origin + "/ping"))
    let client = transport.client()
    client.prepare(for: ping)
    client.prepare(for: ping)
    let answer = try await client.get(ping)
    #expect(answer.status == 200 && answer.body == Data("pong".utf8))
    let count = try await Transport.urlSession.client().get(try #require(URL(string: server.origin + "/count")))
    #expect(String(decoding: count.body, as: UTF8.self) == "1 0", "only the request was sent")
  }

  @Test("libsoup connects while readied (the CLI's keyring answers meanwhile), and the first request takes it")
  func connectsWhileReadied() async throws {
    // libsoup drops a connection no request has taken within 3 s: when the server saw the readied connection close
    // unused after that long (the request came late on a loaded machine), the attempt proves nothing and is made
    // again with a new server and client.
    for attempt in 1...3 {
      let server = try await ScriptServer.start(["-c", Self.script])
      defer { server.stop() }
      let port = try #require(URL(string: server.origin)?.port)
      let ping = try #require(URL(string: server.origin + "/ping"))
      let before = openConnections(toPort: port)
      let client = Transport.soup.client()
      client.prepare(for: ping)
      let connected = await eventually(timeout: .seconds(30)) {
        !openConnections(toPort: port).subtracting(before).isEmpty
      }
      try #require(connected, "a connection opened before any request")
      let answer = try await client.get(ping)
      #expect(answer.status == 200 && answer.body == Data("pong".utf8))
      let list = try await Transport.urlSession.client().get(try #require(URL(string: server.origin + "/connections")))
      let connections = try #require(try JSONSerialization.jsonObject(with: list.body) as? [[String: Any]])
      let first = try #require(connections.first, "the server accepted no connection")
      let paths = first["paths"] as? [String] ?? []
      if paths == ["/ping"] { return }
      if paths.isEmpty, let open = first["open"] as? Double, open >= 2.5, attempt < 3 { continue }
      Issue.record("the request did not go over the readied connection: \(String(decoding: list.body, as: UTF8.self))")
      return
    }
  }

  @Test("libsoup: writes that may be sent again go on the kept connection; any other POST gets one of its own")
  func resendableWrites() async throws {
    let server = try await ScriptServer.start(["-c", Self.script])
    defer { server.stop() }
    let port = try #require(URL(string: server.origin)?.port)
    let ping = try #require(URL(string: server.origin + "/ping"))
    let client = Transport.soup.client()
    func send(_ method: String, resendable: Bool) async throws {
      var request = HTTPRequest(method: method, url: ping, body: Data("{}".utf8))
      request.resendable = resendable
      let answer = try await client.send(request)
      #expect(answer.status == 200 && answer.body == Data("pong".utf8))
    }
    let before = openConnections(toPort: port)
    _ = try await client.get(ping)
    let kept = openConnections(toPort: port).subtracting(before)
    #expect(kept.count == 1)
    for method in ["PATCH", "POST", "PATCH"] { try await send(method, resendable: true) }
    #expect(openConnections(toPort: port).subtracting(before) == kept, "the planner's writes on the kept connection")
    try await send("POST", resendable: false)
    #expect(openConnections(toPort: port).subtracting(before).count == 2, "a POST not to be sent twice: a new one")
    let count = try await Transport.urlSession.client().get(try #require(URL(string: server.origin + "/count")))
    #expect(String(decoding: count.body, as: UTF8.self) == "5 0")
  }

  @Test("libsoup: a resendable write whose kept connection the server closed unanswered goes again, on a new one")
  func resentOnANewConnection() async throws {
    let server = try await ScriptServer.start(["-c", Self.script])
    defer { server.stop() }
    let drop = try #require(URL(string: server.origin + "/drop"))
    let client = Transport.soup.client()
    #expect(try await client.get(drop).status == 200)
    for method in ["PATCH", "POST"] {
      var request = HTTPRequest(method: method, url: drop, body: Data("{}".utf8))
      request.resendable = true
      let answer = try await client.send(request)
      #expect(answer.status == 200 && answer.body == Data("pong".utf8), "\(method)")
    }
    let count = try await Transport.urlSession.client().get(try #require(URL(string: server.origin + "/count")))
    #expect(String(decoding: count.body, as: UTF8.self) == "3 2", "each write dropped once, then answered")
  }

  @Test("libsoup sends a DELETE again by itself when its kept connection closes unanswered (the first may be done)")
  func deleteSentAgain() async throws {
    // Why a DELETE of the planner's (an app password, a membership) answered 404 is done: the server may have carried
    // out the first before the connection closed, and then answers the second 404.
    let server = try await ScriptServer.start(["-c", Self.script])
    defer { server.stop() }
    let drop = try #require(URL(string: server.origin + "/drop"))
    let client = Transport.soup.client()
    #expect(try await client.get(drop).status == 200)
    let answer = try await client.send(HTTPRequest(method: "DELETE", url: drop))
    #expect(answer.status == 200 && answer.body == Data("pong".utf8))
    let count = try await Transport.urlSession.client().get(try #require(URL(string: server.origin + "/count")))
    #expect(String(decoding: count.body, as: UTF8.self) == "2 1", "the DELETE reached the server twice")
  }

  @Test("a length announced past the limit reserves no more than the limit: the short body is a failure")
  func announcedLength() async throws {
    let server = try await ScriptServer.start(["-c", Self.script])
    defer { server.stop() }
    // libsoup only: FoundationNetworking's URLSession (the tests' other transport, in no program of ours) stops the
    // whole process on this length (it converts it to a Double and back).
    await #expect(throws: NetworkError.self) {
      _ = try await Transport.soup.client().get(try #require(URL(string: server.origin + "/huge")))
    }
  }
}

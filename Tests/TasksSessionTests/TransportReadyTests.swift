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
  /// other requests it was answered and how many `/drop` left unanswered. Prints its port.
  private static let script = """
    import http.server, sys
    requests = dropped = 0
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def log_message(self, *args): pass
        def do_GET(self):
            global requests, dropped
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
        do_PATCH = do_POST
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
    let server = try await ScriptServer.start(["-c", Self.script])
    defer { server.stop() }
    let port = try #require(URL(string: server.origin)?.port)
    let ping = try #require(URL(string: server.origin + "/ping"))
    // libsoup drops a connection no request has taken within 3 s: when the request came later than 2 s after the
    // connection was seen (a loaded machine), the attempt proves nothing and is made again with a new client.
    var attempts = 0
    while true {
      attempts += 1
      let before = openConnections(toPort: port)
      let client = Transport.soup.client()
      client.prepare(for: ping)
      let connected = await eventually(timeout: .seconds(30)) {
        !openConnections(toPort: port).subtracting(before).isEmpty
      }
      try #require(connected, "a connection opened before any request")
      let seen = ContinuousClock.now
      let readied = openConnections(toPort: port).subtracting(before)
      #expect(readied.count == 1)
      let answer = try await client.get(ping)
      #expect(answer.status == 200 && answer.body == Data("pong".utf8))
      let took = openConnections(toPort: port).subtracting(before) == readied
      if !took, ContinuousClock.now - seen > .seconds(2), attempts < 3 { continue }
      #expect(took, "the request went over that connection")
      break
    }
    let count = try await Transport.urlSession.client().get(try #require(URL(string: server.origin + "/count")))
    #expect(String(decoding: count.body, as: UTF8.self) == "\(attempts) 0", "only the requests were sent")
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

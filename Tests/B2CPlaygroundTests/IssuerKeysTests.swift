// How the task API reads an issuer's metadata and keys (issue 34, L1 and L2): one shared read, back-off after a
// failure, no redirects. The issuer is a small server of the test's own that counts what it is asked.

import Foundation
import TaskService
import TasksTestSupport
import Testing

@Suite("Task API: reading an issuer's keys")
struct IssuerKeysTests {
  /// A server that answers `/slow-fail` after a moment with 500, `/redirect` with a redirect to `/metadata`,
  /// `/metadata` with a document, `/plain-keys` with one naming keys on plain http at 127.0.0.2 (where it listens too),
  /// `/huge` with a length of 2⁶³ − 1 bytes and two, `/large` with a document of 64 MiB, `/drip` with a body a byte
  /// every half second, and `/keys` with an empty key set; it prints each request's path.
  private static let script = """
    import http.server, json, sys, threading, time
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args): pass
        def do_GET(self):
            sys.stdout.write(self.path + "\\n"); sys.stdout.flush()  # one write: lines of two threads stay whole
            if self.path == "/slow-fail":
                time.sleep(0.5)
                self.send_response(500); self.send_header("Content-Length", "0"); self.end_headers()
            elif self.path == "/redirect":
                self.send_response(302); self.send_header("Location", "/metadata")
                self.send_header("Content-Length", "0"); self.end_headers()
            elif self.path == "/plain-keys":
                # Keys on plain http at 127.0.0.2: loopback to the kernel, but not an address the rule lets keys come
                # from over http (127.0.0.1, localhost, ::1), and so the stand-in for any plain-http host.
                origin = "http://127.0.0.1:%d" % self.server.server_address[1]
                keys = "http://127.0.0.2:%d/keys" % other.server_address[1]
                body = json.dumps({"issuer": origin, "jwks_uri": keys}).encode()
                self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers()
                self.wfile.write(body)
            elif self.path == "/huge":
                # A hostile issuer's length: past what a 64-bit signed count holds once made a Double.
                self.wfile.write(b"HTTP/1.0 200 OK\\r\\nContent-Length: %d\\r\\n\\r\\n{}" % (2 ** 63 - 1))
            elif self.path == "/large":
                # The document /metadata answers after 64 MiB of spaces, without a length: read whole, it is valid.
                origin = "http://127.0.0.1:%d" % self.server.server_address[1]
                self.send_response(200); self.end_headers()
                for _ in range(64):
                    self.wfile.write(b" " * (1 << 20))
                self.wfile.write(json.dumps({"issuer": origin, "jwks_uri": origin + "/keys"}).encode())
            elif self.path == "/drip":
                # The head at once, then the body a byte every half second for two minutes.
                self.send_response(200); self.send_header("Content-Length", "240"); self.end_headers()
                try:
                    for _ in range(240):
                        self.wfile.write(b" "); self.wfile.flush(); time.sleep(0.5)
                except (BrokenPipeError, ConnectionResetError):
                    pass
            elif self.path == "/keys":
                self.send_response(200); self.send_header("Content-Length", "11"); self.end_headers()
                self.wfile.write(b'{"keys":[]}')
            else:
                origin = "http://127.0.0.1:%d" % self.server.server_address[1]
                body = json.dumps({"issuer": origin, "jwks_uri": origin + "/keys"}).encode()
                self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers()
                self.wfile.write(body)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    other = http.server.ThreadingHTTPServer(("127.0.0.2", 0), Handler)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    print("listening on %d" % server.server_address[1], flush=True)
    server.serve_forever()
    """

  /// Starts the counting server; answers it and its origin.
  private func startIssuer() async throws -> (ChildProcess, String) {
    let server = try await ScriptServer.start(["-c", Self.script])
    return (server.process, server.origin)
  }

  /// A token-shaped junk bearer naming `issuer`.
  private func junk(naming issuer: String, _ index: Int) -> String {
    let payload = Data(#"{"iss":"\#(issuer)","n":\#(index)}"#.utf8).base64EncodedString()
      .replacingOccurrences(of: "=", with: "")
    return "Bearer eyJhbGciOiJSUzI1NiJ9.\(payload).c2ln"
  }

  @Test("L1: 200 junk tokens at once while the issuer fails cost one read of its metadata, not 200")
  func oneSharedReadAndBackOff() async throws {
    let (issuer, origin) = try await startIssuer()
    defer { issuer.kill() }
    // A back-off longer than any test, so that a loaded machine taking its time over the 200 calls cannot outlast
    // it: what is counted is the sharing and the back-off, not the machine's speed.
    let keys = IssuerKeys(metadataURL: try #require(URL(string: "\(origin)/slow-fail")), firstBackOff: 3600)
    let validator = BearerValidator(keys: .issuers([keys]), audiences: ["x"], clockSkew: 0)
    await withTaskGroup(of: String?.self) { group in
      for index in 0..<200 { group.addTask { await validator.owner(authorization: self.junk(naming: origin, index)) } }
      for await owner in group { #expect(owner == nil) }
    }
    // And straight after, while backing off: none.
    for index in 0..<20 { #expect(await validator.owner(authorization: junk(naming: origin, index)) == nil) }
    let reads = issuer.standardOutput.split(separator: "\n").filter { $0 == "/slow-fail" }.count
    #expect(reads == 1, "the issuer was read \(reads) times")
  }

  @Test("L2: an issuer's metadata is not read through a redirect")
  func noRedirects() async throws {
    let (issuer, origin) = try await startIssuer()
    defer { issuer.kill() }
    let keys = IssuerKeys(metadataURL: try #require(URL(string: "\(origin)/redirect")))
    await #expect(throws: (any Error).self) { _ = try await keys.name() }
    // (The server's output reaches the test through a pipe: waited for.)
    #expect(await eventually { issuer.standardOutput.contains("/redirect\n") })
    #expect(!issuer.standardOutput.contains("/metadata\n"), "the redirect was followed")
    // The same document, asked for directly, is read (the server works).
    #expect(try await IssuerKeys(metadataURL: try #require(URL(string: "\(origin)/metadata"))).name() == origin)
  }

  @Test("L2: keys named on plain http at an address the rule does not name are never fetched")
  func noKeysOverPlainHTTP() async throws {
    let (issuer, origin) = try await startIssuer()
    defer { issuer.kill() }
    let keys = IssuerKeys(metadataURL: try #require(URL(string: "\(origin)/plain-keys")))
    await #expect(throws: (any Error).self) { _ = try await keys.name() }
    // (The server's output reaches the test through a pipe: waited for.)
    #expect(await eventually { issuer.standardOutput.contains("/plain-keys\n") })
    #expect(!issuer.standardOutput.contains("/keys\n"), "the keys were fetched over plain http")
    // The keys' address answers (a fetch would have reached it): asked for directly, it gives the key set.
    let document = try await ChildProcess.run(
      URL(filePath: "/usr/bin/curl"), ["-s", "--noproxy", "*", "\(origin)/plain-keys"], timeout: .seconds(30))
    let named = try JSONSerialization.jsonObject(with: Data(document.output.utf8)) as? [String: Any]
    let jwksURI = try #require(named?["jwks_uri"] as? String)
    #expect(jwksURI.hasPrefix("http://127.0.0.2:"))
    let direct = try await ChildProcess.run(
      URL(filePath: "/usr/bin/curl"), ["-s", "--noproxy", "*", jwksURI], timeout: .seconds(30))
    #expect(direct.output == #"{"keys":[]}"#)
  }

  @Test("a hostile issuer's length or size is a failed read: not the end of the service, nor all of it in memory")
  func hostileSizes() async throws {
    let (issuer, origin) = try await startIssuer()
    defer { issuer.kill() }
    for path in ["/huge", "/large"] {
      let keys = IssuerKeys(metadataURL: try #require(URL(string: "\(origin)\(path)")))
      await #expect(throws: (any Error).self, "\(path)") { _ = try await keys.name() }
    }
    // A body trickled a byte at a time (never silent for a read's timeout) ends at the read's deadline, 2 s here:
    // failed well before the two minutes it would trickle for, however busy the machine.
    let started = ContinuousClock.now
    let drip = IssuerKeys(metadataURL: try #require(URL(string: "\(origin)/drip")), readTimeout: .seconds(2))
    await #expect(throws: (any Error).self) { _ = try await drip.name() }
    #expect(
      ContinuousClock.now - started < .seconds(60), "the trickled body was read for \(ContinuousClock.now - started)")
    // The service goes on: the same issuer's document, asked for directly, is read.
    #expect(try await IssuerKeys(metadataURL: try #require(URL(string: "\(origin)/metadata"))).name() == origin)
  }

  @Test("L2: keys are read only from https, or http on loopback")
  func keysOverTrustworthyURLs() {
    #expect(IssuerKeys.isTrustworthy("https://login.example.com/keys"))
    #expect(IssuerKeys.isTrustworthy("http://127.0.0.1:8080/keys"))
    #expect(!IssuerKeys.isTrustworthy("http://login.example.com/keys"))
    #expect(!IssuerKeys.isTrustworthy("ftp://127.0.0.1/keys"))
  }
}

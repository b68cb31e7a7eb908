// Answers too large to take (issue 34, L6): a small gzip answer that unpacks to 64 MiB, from a server of the test's
// own, over both transports. Each stops reading at its request's limit, counted after decoding.

import Foundation
import TasksCore
import TasksTestSupport
import Testing

@Suite("Answers too large to take")
struct ResponseSizeTests {
  /// Serves `/bomb`: 64 MiB of zeros, gzip-compressed (some 64 KB on the wire), to anyone; prints its port.
  private static let script = """
    import gzip, http.server
    bomb = gzip.compress(bytes(64 << 20), compresslevel=9)
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args): pass
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(bomb)))
            self.end_headers()
            try:
                self.wfile.write(bomb)
            except (BrokenPipeError, ConnectionResetError):
                pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print("listening on %d" % server.server_address[1], flush=True)
    server.serve_forever()
    """

  @Test(
    "L6: a gzip answer that unpacks past the limit is dropped as it arrives (.tooLarge)", arguments: Transport.allCases)
  func gzipBomb(transport: Transport) async throws {
    let server = try await ScriptServer.start(["-c", Self.script])
    defer { server.stop() }
    let base = server.origin
    let client = transport.client(timeout: 60)
    // A discovery document, key set or token response may take 1 MiB.
    await #expect(throws: NetworkError.tooLarge(limit: HTTPRequest.defaultMaxResponseBytes)) {
      _ = try await client.get(try #require(URL(string: base + "/bomb")))
    }
    // A larger limit takes the whole of it: the limit is counted on the unpacked bytes.
    let whole = try await client.send(
      HTTPRequest(url: try #require(URL(string: base + "/bomb")), maxResponseBytes: 65 << 20))
    #expect(whole.status == 200 && whole.body.count == 64 << 20)
  }
}

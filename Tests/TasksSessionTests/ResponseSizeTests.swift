// Answers too large to take (issue 34, L6): a small gzip answer that unpacks to 64 MiB, from a server of the test's
// own, over both transports. Each stops reading at its request's limit, counted after decoding.

import Foundation
import TasksCore
import TasksTestSupport
import Testing

@Suite("Answers too large to take")
struct ResponseSizeTests {
  /// Serves, at every address, MIB mebibytes of zeros (its argument), gzip-compressed a MiB at a time (some 1 KB on
  /// the wire per MiB), to anyone; prints its port.
  private static let script = """
    import http.server, sys, zlib
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    zeros = bytes(1 << 20)
    bomb = b"".join(packer.compress(zeros) for _ in range(int(sys.argv[1]))) + packer.flush()
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
    let server = try await ScriptServer.start(["-c", Self.script, "64"])
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

  @Test("L6: b2c-tasks-cli stops reading a 1 GiB gzip answer at the limit: its memory stays small")
  func cliStopsAtTheLimit() async throws {
    let server = try await ScriptServer.start(["-c", Self.script, "1024"])  // a discovery document of 1 GiB
    defer { server.stop() }
    let folder = try TestDesktop.temporaryFolder("cli-bomb")
    defer { try? FileManager.default.removeItem(at: folder) }
    let settings = folder.appending(path: "settings.plist")
    try Data(
      fourKeySettings(
        clientID: "bomb-client", authority: server.origin, keychain: "bomb.\(UUID().uuidString)",
        taskAPI: server.origin
      ).utf8
    ).write(to: settings)
    // The CLI's peak resident memory, as its parent sees it (getrusage of the child, in KiB).
    let measure = """
      import resource, subprocess, sys
      run = subprocess.run(sys.argv[1:], capture_output=True, text=True)
      print(run.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, run.stderr.strip())
      """
    let run = try await ChildProcess.run(
      URL(filePath: "/usr/bin/python3"),
      ["-c", measure, CLIRunner.program.path, "sign-in", "--settings", settings.path],
      environment: ["BROWSER": "true"], timeout: .seconds(120))
    let words = run.output.split(separator: " ", maxSplits: 2).map(String.init)
    try #require(words.count == 3, "\(run.output) \(run.error)")
    #expect(words[0] != "0", "the sign-in could not start: \(words[2])")
    #expect(words[2].contains("far more than expected"), "said why: \(words[2])")
    let peakMiB = (Int(words[1]) ?? .max) / 1024
    #expect(peakMiB < 150, "b2c-tasks-cli peaked at \(peakMiB) MiB reading a 1 GiB answer")
  }
}

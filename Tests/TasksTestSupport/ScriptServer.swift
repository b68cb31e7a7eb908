// ScriptServer: a small server a test writes in Python (a hostile provider, a gzip bomb), started as a process of
// its own. Any thread.

import Foundation
import Testing

/// A Python server that prints `listening on PORT` once it listens on 127.0.0.1, and what it was asked on stdout.
public struct ScriptServer: Sendable {
  /// The running program (its output is the server's log).
  public let process: ChildProcess
  /// `http://127.0.0.1:PORT`.
  public let origin: String

  /// Runs `python3 ARGUMENTS` (a script file, or `-c SOURCE`) and waits until it says where it listens.
  public static func start(_ arguments: [String]) async throws -> ScriptServer {
    let process = try ChildProcess(URL(filePath: "/usr/bin/python3"), arguments)
    var port: Int?
    _ = await eventually(timeout: .seconds(60)) {
      port = process.standardOutput.split(separator: "\n").first { $0.hasPrefix("listening on ") }
        .flatMap { Int($0.dropFirst("listening on ".count)) }
      return port != nil || !process.isRunning
    }
    let found = try #require(port, "the server did not start: \(process.standardError)")
    return ScriptServer(process: process, origin: "http://127.0.0.1:\(found)")
  }

  /// Starts a server answering every GET with the JSON object `answer(origin)` (or `answer(origin, path)`, when it
  /// takes two) returns, a function the Python `source` defines (it may read `sys.argv`, whose items 1… are
  /// `arguments`); 503 when it returns None.
  public static func json(_ source: String, _ arguments: [String] = []) async throws -> ScriptServer {
    let script = """
      import http.server, inspect, json, os, sys
      \(source)
      class Handler(http.server.BaseHTTPRequestHandler):
          def log_message(self, *args): pass
          def do_GET(self):
              origin = "http://127.0.0.1:%d" % self.server.server_address[1]
              if len(inspect.signature(answer).parameters) == 2:
                  document = answer(origin, self.path)
              else:
                  document = answer(origin)
              if document is None:
                  self.send_response(503); self.end_headers(); return
              body = json.dumps(document).encode()
              self.send_response(200)
              self.send_header("Content-Type", "application/json")
              self.send_header("Content-Length", str(len(body)))
              self.end_headers()
              self.wfile.write(body)
      server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
      print("listening on %d" % server.server_address[1], flush=True)
      server.serve_forever()
      """
    return try await start(["-c", script] + arguments)
  }

  /// Stops it.
  public func stop() {
    process.kill()
  }
}

// Balancer: nginx from Debian's packages in front of several b2c-tasks-api instances, as a deployment would run it.

import Foundation
import TasksTestSupport
import Testing

/// An nginx on a free loopback port that spreads requests over `upstreams` (round robin). Like a real deployment's,
/// it sends a request that failed to connect, or was cut off, to the next instance (POST included: adds carry an
/// Idempotency-Key), and takes an instance out for a second after it failed.
final class Balancer: Sendable {
  let process: ChildProcess
  let port: Int
  let folder: URL
  var base: URL { URL(string: "http://127.0.0.1:\(port)")! }

  init(upstreams: [Int]) async throws {
    let nginx = URL(filePath: "/usr/sbin/nginx")
    try #require(
      FileManager.default.isExecutableFile(atPath: nginx.path),
      "nginx is not installed (meson-wrap/tools/install-deps.sh --tests installs it)")
    folder = try TestDesktop.temporaryFolder("nginx")
    port = try freeLoopbackPort()
    let servers = upstreams.map { "    server 127.0.0.1:\($0) max_fails=1 fail_timeout=1s;" }.joined(separator: "\n")
    // No temporary files (bodies and answers stay in memory), so the workers need no folder they can write.
    let configuration = """
      worker_processes 1;
      error_log \(folder.path)/error.log warn;
      pid \(folder.path)/nginx.pid;
      events { worker_connections 256; }
      http {
        access_log off;
        client_body_buffer_size 128k;
        proxy_max_temp_file_size 0;
        proxy_buffers 16 16k;
        upstream tasks {
      \(servers)
          keepalive 16;
        }
        server {
          listen 127.0.0.1:\(port);
          location / {
            proxy_pass http://tasks;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_next_upstream error timeout http_502 http_503 non_idempotent;
            proxy_connect_timeout 5s;
          }
        }
      }
      """
    let file = folder.appending(path: "nginx.conf")
    try configuration.write(to: file, atomically: true, encoding: .utf8)
    process = try ChildProcess(
      nginx, ["-p", folder.path, "-c", file.path, "-e", "stderr", "-g", "daemon off; master_process on;"])
    let up = await eventually(timeout: .seconds(120)) { [port, process] in
      guard process.isRunning else { return true }
      return (try? RawConnection(port: port)) != nil
    }
    try #require(up && process.isRunning, "nginx did not start: \(process.standardError)")
  }

  /// Stops nginx and removes its folder.
  func stop() async {
    process.terminate()
    if await process.waitForExit(timeout: .seconds(30)) == nil { process.kill() }
    try? FileManager.default.removeItem(at: folder)
  }
}

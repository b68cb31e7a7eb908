// InteropProvider: the independent OpenID Connect provider of the interoperability tests (django-oidc-provider from
// PyPI, which nobody here wrote), started by Tests/Interop/django-oidc/serve.sh on a free loopback port.

import Foundation
import Synchronization
import Testing

/// A running django-oidc-provider with the demo user `ann` / `Interop-Pass-1` and the app's client registered as a
/// public client with the given redirect URIs. Call `stop()` at the end.
public final class InteropProvider: Sendable {
  /// The user the provider knows.
  public static let user = (
    name: "ann", password: "Interop-Pass-1", email: "ann@interop.example", display: "Ann Interop"
  )
  /// The provider's process.
  public let process: ChildProcess
  /// Its issuer, `http://127.0.0.1:PORT/openid`.
  public let issuer: URL

  /// Starts the provider for `clientID` with `redirectURIs`: exact matches, as this provider compares them, or with
  /// `loopbackAnyPort` a registered loopback URI without a port on any port (RFC 8252 §7.3; `interop_oidc/apps.py`).
  public init(clientID: String, redirectURIs: [String], loopbackAnyPort: Bool = false) async throws {
    let port = try freeLoopbackPort()
    let script = Self.folder.appending(path: "django-oidc/serve.sh")
    let data = try TestDesktop.temporaryFolder("interop-oidc")
    process = try ChildProcess(
      script, ["\(port)", clientID] + redirectURIs,
      environment: ["INTEROP_DATA": data.path, "INTEROP_LOOPBACK_ANY_PORT": loopbackAnyPort ? "1" : "0"])
    issuer = URL(string: "http://127.0.0.1:\(port)/openid")!
    let discovery = issuer.appending(path: ".well-known/openid-configuration")
    // The first start installs Django and the provider into a virtual environment: minutes on a slow machine.
    let up = await eventually(timeout: .seconds(600), every: .milliseconds(500)) { [process] in
      guard process.isRunning else { return true }
      return (try? await Browser().get(discovery).status) == 200
    }
    try #require(up && process.isRunning, "the interop provider did not start: \(process.standardError.suffix(3000))")
  }

  /// App settings for this provider as a user would write them (README, "Interoperability"): its issuer as the
  /// authority, the profile and email claims, and the default bearer (the id_token: its access tokens are opaque).
  public func settings(clientID: String, redirect: String, keychain: String, taskAPI: String) -> String {
    SettingsFile([
      "clientID": clientID, "authority": issuer.absoluteString, "scopes": "profile email", "redirectURI": redirect,
      "keychain": keychain, "taskAPI": taskAPI,
    ]).xml
  }

  /// The folder of the interoperability tests' scripts.
  public static var folder: URL {
    URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appending(path: "Interop")
  }

  /// `interop-browser.py`: a "system browser" that signs in on this provider's page and grants consent.
  public static var browser: URL { folder.appending(path: "interop-browser.py") }

  /// The environment that makes `interop-browser.py` sign in as the demo user, keeping cookies in `cookies`.
  public static func browserEnvironment(cookies: URL, log: URL) -> [String: String?] {
    [
      "BROWSER": browser.path, "INTEROP_USER": user.name, "INTEROP_PASSWORD": user.password,
      "INTEROP_COOKIES": cookies.path, "INTEROP_BROWSER_LOG": log.path,
    ]
  }

  /// Stops the provider and waits until it is gone.
  public func stop() async {
    process.terminate()
    if await process.waitForExit(timeout: .seconds(10)) == nil { process.kill() }
  }
}

/// A TCP port on 127.0.0.1 that nothing listens on now, for a server that must be told its port before it starts.
///
/// The port comes from below the kernel's ephemeral range (32768–60999 here), never from a bind to port 0: the
/// kernel hands ports of that range to every other server bound to port 0 and to every outgoing connection, so on a
/// busy machine a port picked there was taken by someone else before the server got to it (seen in CI). Within
/// this process no port is handed out twice.
public func freeLoopbackPort() throws -> Int {
  for _ in 0..<200 {
    let port = Int.random(in: 20_000..<32_768)
    guard handedOutPorts.withLock({ $0.insert(port).inserted }) else { continue }
    if try loopbackPortIsFree(port) { return port }
  }
  throw POSIXError(.EADDRINUSE)
}

private let handedOutPorts = Mutex(Set<Int>())

private func loopbackPortIsFree(_ port: Int) throws -> Bool {
  let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
  defer { close(descriptor) }
  var reuse: Int32 = 1
  setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  address.sin_port = in_port_t(UInt16(port)).bigEndian
  return withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
    }
  }
}

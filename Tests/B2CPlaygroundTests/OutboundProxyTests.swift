// How b2c-tasks-api reaches its https issuers through the proxy the environment names (https_proxy, all_proxy and
// no_proxy, as curl reads them): the variables read and refused, and tinyproxy (Debian's) between the service and
// the issuer, with and without a password.

import Foundation
import TasksTestSupport
import Testing

@testable import TaskService

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Task API: the issuers through a proxy", .serialized)
struct OutboundProxyTests {
  private func proxy(_ environment: [String: String], for url: String) throws -> OutboundProxies.Proxy? {
    try OutboundProxies(environment: environment).proxy(for: try #require(URL(string: url)))
  }

  @Test("the variables are read as curl reads them for https: which, the port, the kind, the password; http is direct")
  func variables() throws {
    #expect(try proxy([:], for: "https://login.example.com/") == nil)
    // A bare host is an http proxy on port 1080 (libcurl's).
    let bare = try #require(try proxy(["https_proxy": "proxy.corp.example"], for: "https://login.example.com/"))
    #expect(bare.kind == .http && bare.host == "proxy.corp.example" && bare.port == 1080 && bare.credentials == nil)
    // Plain http (keys are taken over it only from this machine's loopback) is never proxied; http_proxy is not
    // read, whatever it holds.
    let everything = ["https_proxy": "p.example:1", "all_proxy": "p.example:2", "http_proxy": "ftp://junk"]
    #expect(try proxy(everything, for: "http://127.0.0.1:8080/") == nil)
    #expect(try proxy(["HTTP_PROXY": "http://evil.example:80"], for: "https://a.example/") == nil)
    // Lower case first, upper case too; a path is no part of the address.
    let both = ["https_proxy": "http://lower:3128", "HTTPS_PROXY": "http://upper:3128"]
    #expect(try proxy(both, for: "https://a.example/")?.host == "lower")
    #expect(try proxy(["HTTPS_PROXY": "http://upper:3128/x"], for: "https://a.example/")?.port == 3128)
    // all_proxy when https_proxy is not set (SOCKS 5, an IPv6 address in brackets), and not read when it is.
    let socks = try #require(try proxy(["ALL_PROXY": "socks5h://[::1]:9050"], for: "https://a.example/"))
    #expect(socks.kind == .socks5 && socks.host == "::1" && socks.port == 9050 && "\(socks)" == "[::1]:9050")
    let unused = ["https_proxy": "http://p.example:1", "all_proxy": "socks4://junk"]
    #expect(try proxy(unused, for: "https://a.example/")?.host == "p.example")
    // Empty or blank is unset.
    #expect(try proxy(["https_proxy": "  ", "no_proxy": ""], for: "https://a.example/") == nil)
    // A password is percent-decoded, and in no description of the proxy.
    let named = try #require(try proxy(["https_proxy": "http://ann:p%40ss%3Aw0rd@p.example:3128"], for: "https://a/"))
    #expect(named.credentials == OutboundProxies.Credentials(user: "ann", password: "p@ss:w0rd"))
    #expect("\(named)" == "p.example:3128" && !String(reflecting: named).contains("w0rd"))
    var dumped = ""
    dump(named, to: &dumped)
    #expect(!dumped.contains("w0rd") && !dumped.contains("ann"), "\(dumped)")
    // What is no escape stays as it is (URLComponents' reading).
    let literal = try proxy(["https_proxy": "http://ann:50%zz@p.example"], for: "https://a/")
    #expect(literal?.credentials == OutboundProxies.Credentials(user: "ann", password: "50%zz"))
  }

  @Test(
    "no_proxy: its hosts, domains, addresses and ranges go direct, look-alikes do not; what it cannot read is left out")
  func exceptions() throws {
    let environment = [
      "https_proxy": "http://p.example:3128",
      "no_proxy": " example.com, .corp.example,10.0.0.0/8 , ::1,192.168.1.7 [fd00::]/8\t172.16.0.0/12,fc00::/7,"
        + "*.shop.example,host.example:8080,<local>,127.0.0.0/0",
    ]
    let proxies = try OutboundProxies(environment: environment)
    for direct in [
      "https://example.com/", "https://login.EXAMPLE.com./x", "https://a.b.corp.example/", "https://corp.example/",
      "https://10.200.3.4/", "https://[::1]:8443/", "https://192.168.1.7/", "https://[fd12::5]/",
      "https://172.16.0.1/", "https://172.31.255.255/", "https://[fdff::1]/", "https://[fc00::]/",
      "https://a.shop.example/", "https://shop.example/",
    ] {
      #expect(proxies.proxy(for: try #require(URL(string: direct))) == nil, "\(direct)")
    }
    for proxied in [
      "https://badexample.com/", "https://example.com.evil.test/", "https://11.0.0.1/", "https://192.168.1.8/",
      "https://[::2]/", "https://[fe80::1]/", "https://corp.example.net/", "https://172.32.0.1/",
      "https://172.15.255.255/", "https://[fe00::1]/", "https://[fbff::1]/", "https://host.example/",
      "https://127.0.0.2/",
    ] {
      #expect(proxies.proxy(for: try #require(URL(string: proxied)))?.host == "p.example", "\(proxied)")
    }
    #expect(proxies.ignoredExceptions == ["host.example:8080", "<local>", "127.0.0.0/0"])
    // `*` alone: nothing proxied; `*` in a list is no entry (libcurl's rule).
    #expect(try proxy(["https_proxy": "http://p.example:3128", "NO_PROXY": " * "], for: "https://a.example/") == nil)
    let starred = try OutboundProxies(environment: ["https_proxy": "p.example:1", "no_proxy": "*,a.example"])
    #expect(starred.proxy(for: try #require(URL(string: "https://b.example/"))) != nil)
    #expect(starred.proxy(for: try #require(URL(string: "https://a.example/"))) == nil)
    #expect(starred.ignoredExceptions == ["*"])
    // A host is never resolved to be matched against a range: a name stays proxied.
    #expect(try proxy(["https_proxy": "p.example:1", "no_proxy": "127.0.0.0/8"], for: "https://localhost/") != nil)
  }

  @Test("the proxy variable in use that names no usable proxy is an error naming it, never its value (a password)")
  func refused() throws {
    let cases: [(String, String, OutboundProxyError.Problem)] = [
      ("https_proxy", "https://ann:hunter2@p.example:3128", .unsupportedKind("https")),
      ("HTTPS_PROXY", "socks4://p.example", .unsupportedKind("socks4")),
      ("all_proxy", "socks5://ann:hunter2@p.example", .socksPassword),
      ("https_proxy", "http://ann:hunter2@p.example:99999", .badPort),
      ("https_proxy", "http://ann:hunter2@p.example:0", .badPort),
      ("https_proxy", "http://ann:hunter2@", .notAnAddress),
      ("https_proxy", "http://p.example:3128/?hunter2", .notAnAddress),
      ("https_proxy", "http://p .example", .notAnAddress),
      ("ALL_PROXY", "http://ann:hunter2@[::1", .notAnAddress),
      ("https_proxy", "http://:hunter2@p.example", .badCredentials),
    ]
    for (variable, value, problem) in cases {
      #expect(throws: OutboundProxyError(variable: variable, problem: problem), "\(variable)=\(value)") {
        _ = try OutboundProxies(environment: [variable: value])
      }
      do { _ = try OutboundProxies(environment: [variable: value]) } catch {
        #expect(error.description.contains(variable) && !error.description.contains("hunter2"), "\(error)")
        #expect(!error.description.contains("password;") || problem == .socksPassword, "\(error)")
      }
    }
  }

  /// An https issuer on loopback (the run's certificate authority vouches for it): `/metadata` names itself and its
  /// key set on a second server (so that the two reads need two connections); both print each request's path.
  private static let issuer = """
    import http.server, json, ssl, sys, threading
    certificate, key = sys.argv[1], sys.argv[2]
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args): pass
        def do_GET(self):
            sys.stdout.write(self.path + "\\n"); sys.stdout.flush()
            origin = "https://127.0.0.1:%d" % server.server_address[1]
            body = json.dumps({"issuer": origin, "jwks_uri": "https://127.0.0.1:%d/keys" % keys.server_address[1]})
            if self.path == "/keys":
                body = '{"keys":[]}'
            self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers()
            self.wfile.write(body.encode())
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate, key)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    keys = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    for each in (server, keys):
        each.socket = context.wrap_socket(each.socket, server_side=True)
    threading.Thread(target=keys.serve_forever, daemon=True).start()
    print("keys on %d" % keys.server_address[1], flush=True)
    print("listening on %d" % server.server_address[1], flush=True)
    server.serve_forever()
    """

  /// The https issuer started; its origin and the port of its key set.
  private func startIssuer() async throws -> (server: ScriptServer, origin: String, keysPort: Int) {
    let identity = try await TestAuthority.trusted().issue()
    let server = try await ScriptServer.start(
      ["-c", Self.issuer, identity.certificate.path, identity.key.path])
    let keys = try #require(
      server.process.standardOutput.split(separator: "\n").first { $0.hasPrefix("keys on ") }
        .flatMap { Int($0.dropFirst("keys on ".count)) })
    return (server, server.origin.replacingOccurrences(of: "http://", with: "https://"), keys)
  }

  @Test(
    "an https issuer's metadata and keys come through tinyproxy; a proxy that is not there fails; no_proxy and http go direct"
  )
  func throughTinyproxy() async throws {
    let (issuer, origin, keysPort) = try await startIssuer()
    let tinyproxy = try await Tinyproxy()
    defer {
      issuer.process.kill()
      tinyproxy.stop()
    }
    let metadata = try #require(URL(string: "\(origin)/metadata"))
    let port = try #require(metadata.port)
    let through = try OutboundProxies(environment: ["https_proxy": "http://127.0.0.1:\(tinyproxy.port)"])
    #expect(try await IssuerKeys(metadataURL: metadata, fetcher: KeyFetcher(proxies: through)).name() == origin)
    // Both reads, each on a connection of its own, were tunnelled.
    let both = await eventually(timeout: .seconds(30)) {
      Set(tinyproxy.connects).isSuperset(of: ["127.0.0.1:\(port)", "127.0.0.1:\(keysPort)"])
    }
    #expect(both, "\(tinyproxy.connects)")
    #expect(issuer.process.standardOutput.contains("/metadata\n") && issuer.process.standardOutput.contains("/keys\n"))
    // Nothing listens where this proxy is said to be: the read fails (it was not made directly).
    let nowhere = "http://127.0.0.1:\(try freeLoopbackPort())"
    let dead = try OutboundProxies(environment: ["https_proxy": nowhere])
    do {
      _ = try await IssuerKeys(metadataURL: metadata, fetcher: KeyFetcher(proxies: dead)).name()
      Issue.record("read without its proxy")
    } catch {
      #expect("\(error)".contains("refused"), "\(error)")
    }
    // The same, with the issuer's address in no_proxy: read directly.
    let excepted = try OutboundProxies(environment: ["https_proxy": nowhere, "no_proxy": "localhost,127.0.0.1"])
    #expect(try await IssuerKeys(metadataURL: metadata, fetcher: KeyFetcher(proxies: excepted)).name() == origin)
    // A plain-http issuer on loopback is read directly, whatever the variables say.
    let plain = try await ScriptServer.json(
      "def answer(origin, path): return {'issuer': origin, 'jwks_uri': origin + '/keys'} if path != '/keys' else {'keys': []}"
    )
    defer { plain.process.kill() }
    let everywhere = try OutboundProxies(environment: ["https_proxy": nowhere, "all_proxy": nowhere])
    let plainKeys = IssuerKeys(
      metadataURL: try #require(URL(string: "\(plain.origin)/metadata")), fetcher: KeyFetcher(proxies: everywhere))
    #expect(try await plainKeys.name() == plain.origin)
  }

  @Test("a proxy that asks for a password: the right one (percent-decoded) reads, a wrong one fails without naming it")
  func proxyPassword() async throws {
    let (issuer, origin, _) = try await startIssuer()
    let tinyproxy = try await Tinyproxy(user: "ann", password: "s3cr3t-pw")
    defer {
      issuer.process.kill()
      tinyproxy.stop()
    }
    let metadata = try #require(URL(string: "\(origin)/metadata"))
    // %2D is "-": the proxy takes it only decoded.
    let right = try OutboundProxies(environment: ["https_proxy": "ann:s3cr3t%2Dpw@127.0.0.1:\(tinyproxy.port)"])
    #expect(try await IssuerKeys(metadataURL: metadata, fetcher: KeyFetcher(proxies: right)).name() == origin)
    let wrong = try OutboundProxies(environment: ["https_proxy": "http://ann:wr0ng-pw@127.0.0.1:\(tinyproxy.port)"])
    do {
      _ = try await IssuerKeys(metadataURL: metadata, fetcher: KeyFetcher(proxies: wrong)).name()
      Issue.record("a wrong password read the issuer")
    } catch {
      // Why, from AsyncHTTPClient, not a timeout: tinyproxy 1.11 answers a wrong password with 401 (an invalid
      // answer to a CONNECT), a proxy that asks again with 407.
      let why = "\(error)"
      #expect(why.contains("invalidProxyResponse") || why.contains("proxyAuthenticationRequired"), "\(why)")
      #expect(!why.contains("wr0ng") && !String(reflecting: error).contains("wr0ng"), "\(why)")
    }
  }

  @Test("b2c-tasks-api: a proxy variable it cannot use stops it at start, in words; tokens verify through tinyproxy")
  func program() async throws {
    let issuer = ["--issuer-metadata", "https://login.example.com/.well-known/openid-configuration", "--audience", "x"]
    for (variable, value, words) in [
      ("https_proxy", "http://ann:hunter2@proxy.example:99999", "names a port"),
      ("https_proxy", "ftp://ann:hunter2@proxy.example", "of the kind ftp://"),
      ("all_proxy", "socks5://ann:hunter2@proxy.example", "SOCKS proxy with a password"),
    ] {
      let refused = try await ChildProcess.run(TaskAPIProcess.program, issuer, environment: [variable: value])
      #expect(refused.status != 0 && refused.error.contains(variable) && refused.error.contains(words), "\(refused)")
      #expect(!refused.error.contains("hunter2") && !refused.output.contains("hunter2"))
    }
    let authority = try await TestAuthority.trusted()
    let identity = try authority.issue()
    let harness = try await PlaygroundHarness.start {
      $0.tls = .init(certificate: identity.certificate, key: identity.key)
    }
    let tinyproxy = try await Tinyproxy(user: "ann", password: "s3cr3t-pw")
    let unset: [String: String?] = ["HTTPS_PROXY": nil, "all_proxy": nil, "ALL_PROXY": nil, "NO_PROXY": nil]
    func start(password: String) async throws -> TaskAPIEndpoint {
      let data = try TestDesktop.temporaryFolder("tasks-api")
      let proxy = "http://ann:\(password)@127.0.0.1:\(tinyproxy.port)"
      let process = try await TaskAPIProcess.start(
        database: data.appending(path: "tasks.sqlite").path, issuerMetadata: harness.policyMetadata,
        environment: unset.merging(["https_proxy": proxy, "no_proxy": "<local>,db.example:5432"]) { $1 })
      return TaskAPIEndpoint(base: process.base, process: process, data: data)
    }
    let api = try await start(password: "s3cr3t-pw")
    try await withTeardown({
      await api.stop(); tinyproxy.stop(); await harness.stop()
    }) {
      let token = try #require(
        try await SignInDriver(harness).tokens("ann@example.com", "Tasks-Demo-1")["access_token"] as? String)
      var request = URLRequest(url: api.base.appending(path: "api/tasks"))
      request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
      #expect(try await Browser().send(request).status == 200)
      let playground = try #require(harness.base.port)
      #expect(await eventually(timeout: .seconds(30)) { tinyproxy.connects.contains("127.0.0.1:\(playground)") })
      let process = try #require(api.process?.process)
      let log = process.standardOutput + process.standardError
      #expect(log.contains("no_proxy entries") && log.contains("<local>,db.example:5432"), "\(log)")
      // A password the proxy refuses: it starts, says which issuer it cannot read through which proxy and why
      // (never the password), and refuses tokens.
      let refused = try await start(password: "wr0ng-pw")
      try await withTeardown({ await refused.stop() }) {
        let process = try #require(refused.process?.process)
        let said = await eventually(timeout: .seconds(60)) {
          (process.standardOutput + process.standardError).contains("metadata cannot be read")
        }
        let log = process.standardOutput + process.standardError
        let warning = log.split(separator: "\n").first { $0.contains("metadata cannot be read") } ?? ""
        #expect(said && warning.contains(harness.policyMetadata.absoluteString), "\(log)")
        #expect(warning.contains("proxy=127.0.0.1:\(tinyproxy.port)") && warning.contains("ProxyResponse"), "\(log)")
        #expect(!log.contains("wr0ng"))
        var request = URLRequest(url: refused.base.appending(path: "api/tasks"))
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        #expect(try await Browser().send(request).status == 401)
      }
    }
  }
}

/// tinyproxy (Debian's) on a free loopback port of the test's own, logging each request it takes; with `user` and
/// `password`, it asks for them (Basic).
private final class Tinyproxy: Sendable {
  let process: ChildProcess
  let port: Int
  let folder: URL

  init(user: String? = nil, password: String? = nil) async throws {
    let program = URL(filePath: "/usr/bin/tinyproxy")
    try #require(
      FileManager.default.isExecutableFile(atPath: program.path),
      "tinyproxy is not installed (meson-wrap/tools/install-deps.sh --tests installs it)")
    folder = try TestDesktop.temporaryFolder("tinyproxy")
    port = try freeLoopbackPort()
    var configuration = "Port \(port)\nListen 127.0.0.1\nTimeout 30\nLogLevel Connect\nMaxClients 50\n"
    if let user, let password { configuration += "BasicAuth \(user) \(password)\n" }
    let file = folder.appending(path: "tinyproxy.conf")
    try configuration.write(to: file, atomically: true, encoding: .utf8)
    process = try ChildProcess(program, ["-d", "-c", file.path])
    let up = await eventually(timeout: .seconds(120)) { [port, process] in
      guard process.isRunning else { return true }
      return (try? RawConnection(port: port)) != nil
    }
    try #require(up && process.isRunning, "tinyproxy did not start: \(process.standardError)")
  }

  /// The `host:port` of each CONNECT it was asked for.
  var connects: [String] {
    (process.standardOutput + process.standardError).split(separator: "\n").compactMap { line in
      guard let request = line.range(of: "): CONNECT ") else { return nil }
      return line[request.upperBound...].split(separator: " ").first.map(String.init)
    }
  }

  func stop() {
    process.kill()
    try? FileManager.default.removeItem(at: folder)
  }
}

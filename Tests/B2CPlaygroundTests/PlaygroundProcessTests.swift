// Tests of the b2c-playground program itself: it starts, keeps acknowledged tasks and its signing key across a
// kill -9, and its request log never holds a secret.

import Foundation
import TasksTestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A `b2c-playground` process on a free port with its own data folder.
final class PlaygroundProcess {
  let process: ChildProcess
  let data: URL
  let port: Int
  var base: URL { URL(string: "http://127.0.0.1:\(port)")! }

  /// Starts the program; `port` 0 picks a free port.
  init(data: URL, port requested: Int = 0, arguments: [String] = []) async throws {
    self.data = data
    let program = TestDesktop.binaryFolder.appending(path: "b2c-playground")
    try #require(FileManager.default.isExecutableFile(atPath: program.path), "build it first: swift build")
    let process = try ChildProcess(program, ["--port", "\(requested)", "--data", data.path] + arguments)
    self.process = process
    var port: Int?
    let started = await eventually(timeout: .seconds(30)) {
      port = listeningPort(in: process.standardOutput)
      return port != nil || !process.isRunning
    }
    try #require(started && port != nil, "b2c-playground did not start: \(process.standardError)")
    self.port = port!
  }

}

@Suite("Playground: the program", .serialized)
struct PlaygroundProcessTests {
  @Test("--help describes the program")
  func help() async throws {
    let run = try await ChildProcess.run(TestDesktop.binaryFolder.appending(path: "b2c-playground"), ["--help"])
    #expect(run.status == 0)
    #expect(run.output.contains("USAGE: b2c-playground") && run.output.contains("--require-pkce"))
    let bad = try await ChildProcess.run(
      TestDesktop.binaryFolder.appending(path: "b2c-playground"), ["--issuer-metadata", "x"])
    #expect(bad.status != 0)
  }

  @Test("the data folder (0700) and the signing key (0600) are created with their modes, never chmod-ed after")
  func createdPrivate() async throws {
    let parent = try TestDesktop.temporaryFolder("playground-modes")
    defer { try? FileManager.default.removeItem(at: parent) }
    let data = parent.appending(path: "data")
    let trace = parent.appending(path: "syscalls.log")
    // strace shows the modes the files are made with: a chmod after creation leaves them open to others meanwhile.
    let process = try ChildProcess(
      URL(filePath: "/usr/bin/strace"),
      [
        "-f", "-e", "trace=openat,mkdir,mkdirat,chmod,fchmod,fchmodat", "-o", trace.path,
        TestDesktop.binaryFolder.appending(path: "b2c-playground").path, "--port", "0", "--data", data.path,
      ])
    defer {
      // strace leaves its child running when it is stopped: the playground's pid opens the trace.
      let first = (try? String(contentsOf: trace, encoding: .utf8))?.split(separator: " ").first
      if let pid = first.flatMap({ pid_t($0) }) { kill(pid, SIGKILL) }
      process.terminate()
    }
    let started = await eventually(timeout: .seconds(60)) {
      listeningPort(in: process.standardOutput) != nil || !process.isRunning
    }
    try #require(started && process.isRunning, "b2c-playground under strace did not start: \(process.standardError)")
    let calls = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n").filter { $0.contains(data.path) }
    #expect(calls.contains { $0.contains("mkdir(\"\(data.path)") && $0.contains(", 0700)") }, "\(calls)")
    #expect(
      calls.contains { $0.contains("signing-key.pem") && $0.contains("O_CREAT") && $0.contains(", 0600)") }, "\(calls)")
    #expect(!calls.contains { $0.contains("chmod") }, "\(calls)")
  }

  @Test("an acknowledged task and the signing key survive kill -9; the old token still works after the restart")
  func durability() async throws {
    let parent = try TestDesktop.temporaryFolder("playground-process")
    defer { try? FileManager.default.removeItem(at: parent) }
    let data = parent.appending(path: "data")  // the playground makes it
    // Started again on its port below: a port of the tests' own range, which no client's connection takes as its
    // local port meanwhile (the kernel's ephemeral ports are above it).
    let first = try await PlaygroundProcess(data: data, port: try freeLoopbackPort())
    let token = try await RemoteSession(base: first.base).accessToken()
    var add = URLRequest(url: first.base.appending(path: "api/tasks"))
    add.httpMethod = "POST"
    add.httpBody = Data("Text=survive+the+crash".utf8)
    let added = try await Browser().send(
      add, headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/x-www-form-urlencoded"])
    #expect(added.status == 204)
    first.process.kill()
    #expect(await first.process.waitForExit(timeout: .seconds(10)) != nil)

    // Same port: the issuer names host and port, as B2C's names its host.
    let second = try await PlaygroundProcess(data: data, port: first.port)
    defer { second.process.terminate() }
    let list = try await Browser().get(
      second.base.appending(path: "api/tasks"), headers: ["Authorization": "Bearer \(token)"])
    #expect(list.status == 200, "the token signed before the crash still validates: the key was kept")
    #expect(list.text.contains("survive the crash"))
    let keyFile = data.appending(path: "signing-key.pem").path
    let permissions = try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? Int
    #expect(permissions == 0o600)
    let folder = try FileManager.default.attributesOfItem(atPath: data.path)[.posixPermissions] as? Int
    #expect(folder == 0o700, "the data folder is the user's alone")
  }

  @Test("the request log names each request but never a code, token, verifier or password")
  func logRedaction() async throws {
    let data = try TestDesktop.temporaryFolder("playground-log")
    defer { try? FileManager.default.removeItem(at: data) }
    let playground = try await PlaygroundProcess(data: data)
    defer { playground.process.terminate() }
    let session = RemoteSession(base: playground.base)
    let secrets = try await session.allSecrets()
    // A logout with an id_token_hint puts a token in a URL, as B2C's logout does.
    var logout = URLComponents(
      url: playground.base.appending(path: "b2ctasks.onmicrosoft.com/B2C_1_SignUpOrSignIn/oauth2/v2.0/logout"),
      resolvingAgainstBaseURL: false)!
    logout.queryItems = [URLQueryItem(name: "id_token_hint", value: secrets.idToken)]
    _ = try await Browser().get(logout.url!)
    let log =
      await eventually { playground.process.standardError.contains("/oauth2/v2.0/logout") }
      ? playground.process.standardError : ""
    #expect(log.contains("path=/b2ctasks.onmicrosoft.com/B2C_1_SignUpOrSignIn/oauth2/v2.0/token"))
    #expect(log.contains("id_token_hint=…"))
    for secret in [
      secrets.code, secrets.accessToken, secrets.idToken, secrets.refreshToken, secrets.verifier, "Tasks-Demo-1",
    ] {
      #expect(!log.contains(secret), "a secret reached the log")
    }
  }
}

/// Signs Ann in against a playground program and keeps what a client would hold.
struct RemoteSession {
  let base: URL

  struct Secrets {
    var code: String
    var verifier: String
    var accessToken: String
    var idToken: String
    var refreshToken: String
  }

  func accessToken() async throws -> String { try await allSecrets().accessToken }

  func allSecrets() async throws -> Secrets {
    let browser = Browser()
    let parameters = AuthorizeParameters()
    let authorize = base.appending(path: "b2ctasks.onmicrosoft.com/B2C_1_SignUpOrSignIn/oauth2/v2.0/authorize")
    let page = try await browser.get(parameters.url(authorize))
    let tx = try #require(HTMLForm.hidden("tx", in: page.text))
    let action = try #require(HTMLForm.action(in: page.text))
    let signedIn = try await browser.post(
      base.appending(path: action),
      form: [("tx", tx), ("step", "signin"), ("email", "ann@example.com"), ("password", "Tasks-Demo-1")])
    let location = try #require(signedIn.location)
    let code = try #require(RedirectResult(location).code)
    let tokens = try await browser.post(
      base.appending(path: "b2ctasks.onmicrosoft.com/B2C_1_SignUpOrSignIn/oauth2/v2.0/token"),
      form: [
        ("grant_type", "authorization_code"), ("client_id", parameters.clientID), ("code", code),
        ("redirect_uri", parameters.redirectURI), ("code_verifier", parameters.verifier), ("scope", parameters.scope),
      ]
    ).json()
    return Secrets(
      code: code, verifier: parameters.verifier, accessToken: try #require(tokens["access_token"] as? String),
      idToken: try #require(tokens["id_token"] as? String),
      refreshToken: try #require(tokens["refresh_token"] as? String))
  }
}

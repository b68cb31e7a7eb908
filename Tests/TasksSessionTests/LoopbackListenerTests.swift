// The loopback listener for sign-ins in the system browser (RFC 8252): both loopback addresses for `localhost`,
// and a clear failure instead of a hang when an address cannot be had.

import Foundation
import TasksCore
import TasksLoopback
import TasksTestSupport
import Testing

@Suite("Loopback listener")
struct LoopbackListenerTests {
  /// How long curl may take for an answer: a bound, not a wait. The listener answers from a task on Swift's shared
  /// pool, and at the start of a full run that task can wait behind hundreds of tests on two CPUs (a CI run saw a
  /// request to the start address go unanswered for the 30 s that were allowed here before).
  private static let answerBound = Duration.seconds(180)

  /// Asks `url` with curl (no proxy) and returns the HTTP status, or nil when nothing answered.
  private func status(of url: String) async throws -> Int? {
    let run = try await ChildProcess.run(
      URL(filePath: "/usr/bin/curl"), ["-s", "--noproxy", "*", "-o", "/dev/null", "-w", "%{http_code}", url],
      timeout: Self.answerBound)
    return run.status == 0 ? Int(run.output) : nil
  }

  private func answering() -> @Sendable (String) async -> LoopbackAnswer {
    { _ in .page(title: "t", message: "m") }
  }

  @Test("a localhost redirect URI is served on 127.0.0.1 and ::1 on one port (RFC 8252 §8.3)")
  func localhostOnBothAddresses() async throws {
    let listener = try await LoopbackListener.start(
      registered: try #require(RedirectURI("http://localhost/callback")), onOpenedTwice: {}, handler: answering())
    try await withTeardown({ await listener.stop() }) {
      #expect(listener.redirectURI.value == "http://localhost:\(listener.port)/callback")
      #expect(listener.addresses == ["127.0.0.1", "::1"])
      let (v4, v6) = (
        try await status(of: "http://127.0.0.1:\(listener.port)/callback?state=x"),
        try await status(of: "http://[::1]:\(listener.port)/callback?state=x")
      )
      #expect(v4 == 200 && v6 == 200)
    }
  }

  @Test("a fixed localhost port whose ::1 side another program holds is refused, naming it")
  func localhostTakenOnIPv6() async throws {
    let squatter = try await LoopbackListener.start(
      registered: try #require(RedirectURI("http://[::1]/")), onOpenedTwice: {}, handler: answering())
    try await withTeardown({ await squatter.stop() }) {
      do {
        let listener = try await LoopbackListener.start(
          registered: try #require(RedirectURI("http://localhost:\(squatter.port)/")), onOpenedTwice: {},
          handler: answering())
        await listener.stop()
        Issue.record("the listener started although [::1]:\(squatter.port) was taken")
      } catch let error as LoopbackListener.StartError {
        #expect(error.address == "[::1]:\(squatter.port)")
        #expect(SessionError.listener(address: error.address).message.contains("[::1]:\(squatter.port)"))
      }
    }
  }

  @Test("a fixed port whose last connection still waits in TIME_WAIT can be listened on again")
  func fixedPortAfterTimeWait() async throws {
    let first = try await LoopbackListener.start(
      registered: try #require(RedirectURI("http://127.0.0.1/")), onOpenedTwice: {}, handler: answering())
    // A browser that keeps its connection open: stopping the listener closes it from the listener's side first, so
    // that side, on the fixed port, waits in TIME_WAIT.
    let connection = try RawConnection(port: first.port)
    try connection.send("GET /?state=x HTTP/1.1\r\nHost: 127.0.0.1:\(first.port)\r\n\r\n")
    let head = await connection.receiveHead()
    #expect(head.hasPrefix("HTTP/1.1 200"), "answered: \(head)")
    await first.stop()
    try #require(await connection.readUntilClosed(), "the listener did not close the open connection as it stopped")
    connection.close()
    try #require(
      await eventually(timeout: .seconds(30), every: .milliseconds(100)) { Self.inTimeWait(first.port) },
      "the listener's side of the connection is not in TIME_WAIT: the test would prove nothing")
    let second = try await LoopbackListener.start(
      registered: try #require(RedirectURI("http://127.0.0.1:\(first.port)/")), onOpenedTwice: {}, handler: answering())
    #expect(second.port == first.port)
    #expect(try await status(of: "http://127.0.0.1:\(first.port)/?state=x") == 200)
    await second.stop()
  }

  /// The listener, for a handler that stops it.
  private actor Holder {
    var listener: LoopbackListener?
    var urls: [String] = []
    func hold(_ listener: LoopbackListener) { self.listener = listener }
    func note(_ url: String) { urls.append(url) }
  }

  @Test("a form_post answer (code and state in a POST body) is refused with 405 and never reaches the sign-in")
  func formPostRefused() async throws {
    let seen = Holder()
    let listener = try await LoopbackListener.start(
      registered: try #require(RedirectURI("http://127.0.0.1/")), onOpenedTwice: {}
    ) { url in
      await seen.note(url)
      return .page(title: "t", message: "m")
    }
    let run = try await ChildProcess.run(
      URL(filePath: "/usr/bin/curl"),
      [
        "-s", "--noproxy", "*", "-o", "/dev/null", "-w", "%{http_code}", "--data", "code=abc&state=s-1",
        "http://127.0.0.1:\(listener.port)/",
      ], timeout: Self.answerBound)
    #expect(run.output == "405")
    #expect(try await status(of: "http://127.0.0.1:\(listener.port)/?code=abc&state=s-1") == 200)
    #expect(await seen.urls == ["http://127.0.0.1:\(listener.port)/?code=abc&state=s-1"], "only the GET reached it")
    await listener.stop()
  }

  @Test("stopped as soon as the handler knows the outcome, the listener still sends the browser its page")
  func stopWhileAnswering() async throws {
    let holder = Holder()
    let listener = try await LoopbackListener.start(
      registered: try #require(RedirectURI("http://127.0.0.1/callback")), onOpenedTwice: {}
    ) { _ in
      // As the CLI does: the outcome is known, the listener is stopped (not awaited here, the answer comes first).
      guard let listener = await holder.listener else { return .notFound }
      Task { await listener.stop() }
      // Once the stop has reached the server, other requests are no longer served as before (404 for this path).
      _ = try? await eventually(timeout: .seconds(30)) {
        try await status(of: "http://127.0.0.1:\(listener.port)/elsewhere") != 404
      }
      return .page(title: "Signed in", message: "You can close this tab.")
    }
    await holder.hold(listener)
    let run = try await ChildProcess.run(
      URL(filePath: "/usr/bin/curl"),
      ["-s", "--noproxy", "*", "-w", "\n%{http_code}", "http://127.0.0.1:\(listener.port)/callback?state=x"],
      timeout: Self.answerBound)
    #expect(run.output.hasSuffix("\n200"), "curl: \(run.status) \(run.output)")
    #expect(run.output.contains("You can close this tab."))
    // And then it closes: nothing answers any more.
    let closed = try await eventually(timeout: .seconds(30)) {
      try await status(of: "http://127.0.0.1:\(listener.port)/callback?state=x") == nil
    }
    #expect(closed)
  }

  /// Whether a TCP connection whose local port is `port` is in TIME_WAIT (state 06 in /proc/net/tcp).
  private static func inTimeWait(_ port: Int) -> Bool {
    guard let table = readProcFile("/proc/net/tcp") else { return false }
    let local = ":" + String(format: "%04X", port)
    return table.split(separator: "\n").dropFirst().contains { line in
      let fields = line.split(separator: " ")
      return fields.count > 3 && fields[1].hasSuffix(local) && fields[3] == "06"
    }
  }

  @Test("an IPv4 port that is taken is a failure naming it, not a wait for ever")
  func takenIPv4Port() async throws {
    let first = try await LoopbackListener.start(
      registered: try #require(RedirectURI("http://127.0.0.1/")), onOpenedTwice: {}, handler: answering())
    try await withTeardown({ await first.stop() }) {
      await #expect(throws: LoopbackListener.StartError.self) {
        _ = try await LoopbackListener.start(
          registered: try #require(RedirectURI("http://127.0.0.1:\(first.port)/")), onOpenedTwice: {},
          handler: self.answering())
      }
    }
  }

  /// What opening the start address twice told the listener's owner.
  private actor Counter {
    var count = 0
    func increment() { count += 1 }
  }

  @Test(
    "M4: the browser gets a one-time start address, answered once with the authorize request; a second ends the flow")
  func oneTimeStartAddress() async throws {
    let openedTwice = Counter()
    let listener = try await LoopbackListener.start(
      registered: try #require(RedirectURI("http://127.0.0.1/callback")),
      onOpenedTwice: { await openedTwice.increment() }, handler: answering())
    try await withTeardown({ await listener.stop() }) {
      let authorize = try #require(
        URL(string: "https://login.example.com/authorize?state=S3CRET&nonce=N0NCE&code_challenge=CH4LLENGE"))
      let start = listener.startURL(redirectingTo: authorize)
      // Nothing of the request is in the address a command line would show.
      #expect(start.host == "127.0.0.1" && start.port == listener.port && start.query == nil)
      for part in ["S3CRET", "N0NCE", "CH4LLENGE", "login.example.com", "callback"] {
        #expect(!start.absoluteString.contains(part), "\(start) names \(part)")
      }
      #expect(start.path.count > 40, "the start path is unguessable: \(start.path)")
      let first = try await ChildProcess.run(
        URL(filePath: "/usr/bin/curl"),
        ["-s", "--noproxy", "*", "-o", "/dev/null", "-w", "%{http_code} %{redirect_url}", start.absoluteString],
        timeout: Self.answerBound)
      #expect(first.output == "302 \(authorize.absoluteString)")
      #expect(await openedTwice.count == 0)
      #expect(try await status(of: start.absoluteString) == 410)
      #expect(await openedTwice.count == 1)
      // A guess at another start path, and the old one afterwards, find nothing.
      #expect(try await status(of: "http://127.0.0.1:\(listener.port)/b2c-tasks-sign-in/guess") == 404)
      #expect(try await status(of: start.absoluteString) == 404)
      #expect(await openedTwice.count == 1)
    }
  }

  @Test(
    "M2: the browser is handed a page only this user can read (0600 in a 0700 folder), which leads to the start address; gone when the listener stops; a planted folder is refused"
  )
  func handOverPage() async throws {
    let runtime = try TestDesktop.temporaryFolder("hand-over")
    defer { try? FileManager.default.removeItem(at: runtime) }
    chmod(runtime.path, 0o700)
    let folder = PrivateFolder(environment: ["XDG_RUNTIME_DIR": runtime.path])
    let listener = try await LoopbackListener.start(
      registered: try #require(RedirectURI("http://127.0.0.1/callback")), onOpenedTwice: {}, handler: answering())
    try await withTeardown({ await listener.stop() }) {
      let authorize = try #require(URL(string: "https://login.example.com/authorize?state=S3CRET"))
      let page = try HandOverPage(leadingTo: listener.startURL(redirectingTo: authorize), folder: folder)
      let attributes = try FileManager.default.attributesOfItem(atPath: page.url.path)
      #expect((attributes[.posixPermissions] as? Int) == 0o600)
      let folderAttributes = try FileManager.default.attributesOfItem(atPath: folder.path)
      #expect((folderAttributes[.posixPermissions] as? Int) == 0o700)
      let text = try String(contentsOf: page.url, encoding: .utf8)
      #expect(!text.contains("S3CRET") && text.contains("http://127.0.0.1:\(listener.port)/b2c-tasks-sign-in/"))
      #expect(TestDesktop.handOverTarget(page.url.absoluteString)?.path.hasPrefix("/b2c-tasks-sign-in/") == true)
      page.remove()
      #expect(!FileManager.default.fileExists(atPath: page.url.path))

      // The listener's own page goes with it.
      let handed = try listener.handOverPage(redirectingTo: authorize)
      #expect(FileManager.default.fileExists(atPath: handed.path))
      await listener.stop()
      #expect(!FileManager.default.fileExists(atPath: handed.path), "removed when the listener stops")
    }
    // A folder open to others, or a link planted where the folder goes, is refused.
    try FileManager.default.removeItem(atPath: folder.path)
    try FileManager.default.createSymbolicLink(atPath: folder.path, withDestinationPath: "/tmp")
    #expect(throws: HandOverPage.Failure.folder(.unsafe(folder.path))) {
      try HandOverPage(leadingTo: URL(string: "http://127.0.0.1:1/")!, folder: folder)
    }
    try FileManager.default.removeItem(atPath: folder.path)
    try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: false)
    chmod(folder.path, 0o755)
    #expect(throws: HandOverPage.Failure.folder(.unsafe(folder.path))) {
      try HandOverPage(leadingTo: URL(string: "http://127.0.0.1:1/")!, folder: folder)
    }
    // What the app and the CLI then say: the folder, in words.
    #expect(HandOverPage.Failure.folder(.unsafe(folder.path)).message.contains("\(folder.path) is open to other users"))
  }
}

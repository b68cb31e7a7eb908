// Tests of the b2c-tasks-api program itself: its command line, /health and /ready, a log without secrets, and a
// SIGTERM that finishes the request in flight.

import Foundation
import TasksTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif
#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("b2c-tasks-api: the program", .serialized)
struct TasksAPIProgramTests {
  @Test("--help describes it; no issuer, no audience, an http issuer off loopback or a bad database URL is refused")
  func commandLine() async throws {
    let help = try await ChildProcess.run(TaskAPIProcess.program, ["--help"])
    #expect(help.status == 0)
    #expect(help.output.contains("USAGE: b2c-tasks-api") && help.output.contains("--issuer-metadata"))
    for arguments in [
      ["--audience", "x"], ["--issuer-metadata", "https://login.example.com/.well-known/openid-configuration"],
      ["--issuer-metadata", "http://login.example.com/.well-known/openid-configuration", "--audience", "x"],
    ] {
      let refused = try await ChildProcess.run(TaskAPIProcess.program, arguments)
      #expect(refused.status != 0, "\(arguments)")
    }
    // A bad database URL is refused before anything starts, in words, and without echoing its password.
    let issuer = ["--issuer-metadata", "https://login.example.com/.well-known/openid-configuration", "--audience", "x"]
    let badURL = try await ChildProcess.run(
      TaskAPIProcess.program, issuer, environment: ["DATABASE_URL": "postgres://:s3cret@db.example.com/tasks"])
    #expect(badURL.status != 0 && badURL.error.contains("names no user") && !badURL.error.contains("s3cret"))
    let prefer = try await ChildProcess.run(
      TaskAPIProcess.program, issuer + ["--database", "postgres://u@db.example.com/tasks?sslmode=prefer"])
    #expect(prefer.status != 0 && prefer.error.contains("sslmode prefer is not supported"))
    // A database that is not there: it says so and exits (it does not wait for ever, nor listen without one).
    let nowhere = try await ChildProcess.run(
      TaskAPIProcess.program, issuer + ["--database", "postgres://u@127.0.0.1:\(try freeLoopbackPort())/tasks"],
      timeout: .seconds(180))
    #expect(nowhere.status != nil && nowhere.status != 0 && nowhere.error.contains("cannot be reached"), "\(nowhere)")
    #expect(!nowhere.output.contains("listening"))
  }

  @Test("/health and /ready answer; the request log names each request and never the token")
  func healthAndLog() async throws {
    let harness = try await PlaygroundHarness.start()
    let api = try await TaskAPIHost.service.start(for: harness)
    try await withTeardown({
      await api.stop(); await harness.stop()
    }) {
      let browser = Browser()
      let health = try await browser.get(api.base.appending(path: "health"))
      #expect(health.status == 200 && String(decoding: health.body, as: UTF8.self) == "ok")
      let ready = try await browser.get(api.base.appending(path: "ready"))
      #expect(ready.status == 200)
      let token = try #require(
        try await SignInDriver(harness).tokens("ann@example.com", "Tasks-Demo-1")["access_token"] as? String)
      var request = URLRequest(url: api.base.appending(path: "api/tasks"))
      request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
      #expect(try await browser.send(request).status == 200)
      let process = try #require(api.process?.process)
      let logged = await eventually(timeout: .seconds(30)) {
        (process.standardOutput + process.standardError).contains("path=/api/tasks")
      }
      #expect(logged, "no request line: \(process.standardOutput) \(process.standardError)")
      #expect(!process.standardOutput.contains(token) && !process.standardError.contains(token))
    }
  }

  @Test("a token it verified is remembered only until it expires: then the same token is refused")
  func rememberedTokenExpires() async throws {
    // Tokens of 20 s, no clock skew: the first call verifies (and remembers) it, a later one must check its expiry.
    try await PlaygroundHarness.with({ $0.lifetimes.accessToken = 20 }) { harness in
      let data = try TestDesktop.temporaryFolder("tasks-api-expiry")
      defer { try? FileManager.default.removeItem(at: data) }
      let api = try await TaskAPIProcess.start(
        database: data.appending(path: "tasks.sqlite").path,
        issuerMetadata: harness.policyMetadata,
        arguments: ["--clock-skew", "0"])
      try await withTeardown({ await api.stop() }) {
        var request = URLRequest(url: api.base.appending(path: "api/tasks"))
        let browser = Browser()
        // Accepted while it lasts. On a busy machine the sign-in and the service's first read of the keys can take
        // most of the 20 s: a token already past them when first sent is taken again, not counted as accepted.
        var accepted = false
        for _ in 1...3 where !accepted {
          let asked = ContinuousClock.now
          let token = try #require(
            try await SignInDriver(harness).tokens("ann@example.com", "Tasks-Demo-1")["access_token"] as? String)
          request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
          let status = try await browser.send(request).status
          accepted = status == 200
          // Only a 401 past the token's lifetime is tried again (the playground's `exp` is 20 whole seconds after
          // issue, and the service compares whole seconds with no skew); anything else fails the test.
          if !accepted && (status != 401 || ContinuousClock.now - asked < .seconds(18)) {
            Issue.record("a token within its lifetime, or its first use, answered \(status)")
            return
          }
        }
        guard accepted else {
          Issue.record("no token was sent within its lifetime in three tries")
          return
        }
        var last = 200
        let refused = await eventually(timeout: .seconds(120), every: .seconds(1)) {
          last = (try? await browser.send(request).status) ?? 0
          return last == 401
        }
        #expect(refused, "the expired token was still accepted (last answer \(last))")
      }
    }
  }

  @Test("L3: a key the issuer withdrew stops being trusted once the key set is read again, remembered tokens too")
  func withdrawnKey() async throws {
    let first = try await PlaygroundHarness.start()
    let port = first.running.port
    let token = try #require(
      try await SignInDriver(first).tokens("ann@example.com", "Tasks-Demo-1")["access_token"] as? String)
    let data = try TestDesktop.temporaryFolder("tasks-api-keys")
    defer { try? FileManager.default.removeItem(at: data) }
    let api = try await TaskAPIProcess.start(
      database: data.appending(path: "tasks.sqlite").path, issuerMetadata: first.policyMetadata,
      arguments: ["--keys-max-age", "2"])
    try await withTeardown({ await api.stop() }) {
      var request = URLRequest(url: api.base.appending(path: "api/tasks"))
      request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
      let browser = Browser()
      #expect(try await browser.send(request).status == 200, "verified, and remembered")
      // The issuer rolls its key over: same issuer on the same port, a new signing key, the old one gone from its set.
      await first.running.stop()
      try FileManager.default.removeItem(at: first.data.appending(path: "signing-key.pem"))
      let second = try await PlaygroundHarness.start {
        $0.dataDirectory = first.data
        $0.port = port
      }
      try await withTeardown({
        await second.stop()
        try? FileManager.default.removeItem(at: first.data)
      }) {
        var last = 200
        let refused = await eventually(timeout: .seconds(60), every: .seconds(1)) {
          last = (try? await browser.send(request).status) ?? 0
          return last == 401
        }
        #expect(refused, "the token of the withdrawn key was still accepted (last answer \(last))")
        let fresh = try #require(
          try await SignInDriver(second).tokens("ann@example.com", "Tasks-Demo-1")["access_token"] as? String)
        request.setValue("Bearer \(fresh)", forHTTPHeaderField: "Authorization")
        #expect(try await browser.send(request).status == 200, "the new key's tokens are taken")
      }
    }
  }

  @Test("a database file another process holds for a moment as it starts: it waits for it, then starts")
  func lockedAtStart() async throws {
    let harness = try await PlaygroundHarness.start()
    let data = try TestDesktop.temporaryFolder("tasks-api")
    let file = data.appending(path: "tasks.sqlite").path
    try await withTeardown({
      await harness.stop(); try? FileManager.default.removeItem(at: data)
    }) {
      // The file of an instance that has stopped.
      let first = try await TaskAPIProcess.start(database: file, issuerMetadata: harness.policyMetadata)
      await first.stop()
      // Another process (Debian's sqlite3) holds the file locked for three seconds, as an instance stopping on the
      // same file (its last connection checkpointing) or an administrator's sqlite3 would: the new instance waits for
      // it (it refused to start before: "database is locked"). sqlite3 says it holds the lock with a file (its
      // output to a pipe comes only when it ends).
      let held = data.appending(path: "held")
      let holder = try ChildProcess(
        URL(filePath: "/usr/bin/sqlite3"),
        [
          file, "PRAGMA locking_mode = EXCLUSIVE;", "BEGIN EXCLUSIVE;", ".shell touch '\(held.path)'", ".shell sleep 3",
          "COMMIT;",
        ])
      defer { holder.kill() }
      _ = await eventually(timeout: .seconds(60)) {
        FileManager.default.fileExists(atPath: held.path) || !holder.isRunning
      }
      try #require(FileManager.default.fileExists(atPath: held.path), "sqlite3 did not lock: \(holder.standardError)")
      let second = try await TaskAPIProcess.start(database: file, issuerMetadata: harness.policyMetadata)
      #expect(second.process.isRunning)
      await second.stop()
    }
  }

  @Test("SIGTERM: it stops taking connections, finishes the add in flight (stored), and exits 0")
  func gracefulShutdown() async throws {
    try await PlaygroundHarness.with { harness in
      let data = try TestDesktop.temporaryFolder("tasks-api-term")
      defer { try? FileManager.default.removeItem(at: data) }
      let database = data.appending(path: "tasks.sqlite").path
      let metadata = harness.policyMetadata
      let token = try #require(
        try await SignInDriver(harness).tokens("ann@example.com", "Tasks-Demo-1")["access_token"] as? String)
      let first = try await TaskAPIProcess.start(
        database: database, issuerMetadata: metadata, arguments: ["--log-level", "debug"])

      // An add whose body is only half sent when SIGTERM comes.
      let body = "Text=sent+across+the+shutdown"
      let connection = try RawConnection(port: first.port)
      try connection.send(
        "POST /api/tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
          + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
          + body.prefix(10))
      let inFlight = await eventually(timeout: .seconds(30)) {
        (first.process.standardOutput + first.process.standardError).split(separator: "\n").contains {
          $0.contains("method=POST") && $0.hasSuffix("request started")
        }
      }
      try #require(inFlight, "the add never started: \(first.process.standardError)")
      first.terminate()
      let closed = await eventually(timeout: .seconds(30)) { (try? RawConnection(port: first.port)) == nil }
      #expect(closed, "it still takes new connections after SIGTERM")
      try connection.send(String(body.dropFirst(10)))
      let answer = await connection.receiveHead()
      #expect(answer.hasPrefix("HTTP/1.1 204"), "answered: \(answer)")
      #expect(await first.process.waitForExit(timeout: .seconds(30)) == 0)

      let second = try await TaskAPIProcess.start(database: database, issuerMetadata: metadata)
      try await withTeardown({ await second.stop() }) {
        var request = URLRequest(url: second.base.appending(path: "api/tasks"))
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let list = try await Browser().send(request)
        let texts = (try JSONSerialization.jsonObject(with: list.body) as? [[String: Any]])?.map {
          $0["Text"] as? String
        }
        #expect(texts == ["sent across the shutdown"])
      }
    }
  }
}

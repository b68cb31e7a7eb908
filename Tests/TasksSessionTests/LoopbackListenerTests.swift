// The loopback listener for sign-ins in the system browser (RFC 8252): both loopback addresses for `localhost`,
// and a clear failure instead of a hang when an address cannot be had.

import Foundation
import TasksCore
import TasksLoopback
import TasksTestSupport
import Testing

@Suite("Loopback listener")
struct LoopbackListenerTests {
  /// Asks `url` with curl (no proxy) and returns the HTTP status, or nil when nothing answered.
  private func status(of url: String) async throws -> Int? {
    let run = try await ChildProcess.run(
      URL(filePath: "/usr/bin/curl"), ["-s", "--noproxy", "*", "-o", "/dev/null", "-w", "%{http_code}", url],
      timeout: .seconds(30))
    return run.status == 0 ? Int(run.output) : nil
  }

  private func answering() -> @Sendable (String) async -> LoopbackAnswer {
    { _ in .page(title: "t", message: "m") }
  }

  @Test("a localhost redirect URI is served on 127.0.0.1 and ::1 on one port (RFC 8252 §8.3)")
  func localhostOnBothAddresses() async throws {
    let listener = try await LoopbackListener.start(
      registered: try #require(RedirectURI("http://localhost/callback")), handler: answering())
    defer { Task { await listener.stop() } }
    #expect(listener.redirectURI.value == "http://localhost:\(listener.port)/callback")
    #expect(listener.addresses == ["127.0.0.1", "::1"])
    #expect(try await status(of: "http://127.0.0.1:\(listener.port)/callback?state=x") == 200)
    #expect(try await status(of: "http://[::1]:\(listener.port)/callback?state=x") == 200)
  }

  @Test("a fixed localhost port whose ::1 side another program holds is refused, naming it")
  func localhostTakenOnIPv6() async throws {
    let squatter = try await LoopbackListener.start(
      registered: try #require(RedirectURI("http://[::1]/")), handler: answering())
    defer { Task { await squatter.stop() } }
    do {
      let listener = try await LoopbackListener.start(
        registered: try #require(RedirectURI("http://localhost:\(squatter.port)/")), handler: answering())
      await listener.stop()
      Issue.record("the listener started although [::1]:\(squatter.port) was taken")
    } catch let error as LoopbackListener.StartError {
      #expect(error.address == "[::1]:\(squatter.port)")
      #expect(SessionError.listener(address: error.address).message.contains("[::1]:\(squatter.port)"))
    }
  }

  @Test("an IPv4 port that is taken is a failure naming it, not a wait for ever")
  func takenIPv4Port() async throws {
    let first = try await LoopbackListener.start(
      registered: try #require(RedirectURI("http://127.0.0.1/")), handler: answering())
    defer { Task { await first.stop() } }
    await #expect(throws: LoopbackListener.StartError.self) {
      _ = try await LoopbackListener.start(
        registered: try #require(RedirectURI("http://127.0.0.1:\(first.port)/")), handler: self.answering())
    }
  }
}

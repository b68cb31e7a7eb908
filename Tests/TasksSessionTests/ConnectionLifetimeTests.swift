// ConnectionLifetimeTests: an HTTP client's connections end with it. A URLSession holds its delegate until it is
// invalidated: the tests' Browser was its own session's delegate, so neither ever went, nor their pooled connections
// and libcurl's handle (a socket pair), and a whole test run held 2 500 descriptors, 800 of them connections the
// servers had closed. A CI run's test process then ran out of descriptors: "Couldn't connect to server" (NSURLError
// -1; a server that is gone answers -1004).

import Foundation
import TasksCore
import TasksTestSupport
import TasksURLSession
import Testing

@Suite("HTTP clients close their connections when they go")
struct ConnectionLifetimeTests {
  /// Whether every connection this process opened to `port` since `before` has closed (within a minute).
  private static func allClosed(_ port: Int, since before: Set<Substring>) async -> Bool {
    await eventually(timeout: .seconds(60)) { openConnections(toPort: port).subtracting(before).isEmpty }
  }

  @Test("the tests' browser: its connections to the playground close once it is gone")
  func browser() async throws {
    try await SessionHarness.with { harness in
      let port = try #require(harness.base.port)
      let before = openConnections(toPort: port)
      for _ in 0..<4 {
        let browser = Browser()
        #expect(try await browser.get(harness.base).status > 0)
        #expect(!openConnections(toPort: port).subtracting(before).isEmpty, "kept for the next request, and counted")
      }
      #expect(await Self.allClosed(port, since: before), "\(openConnections(toPort: port).subtracting(before))")
    }
  }

  @Test("the core's URLSession transport: its connections close once the client is gone")
  func transport() async throws {
    try await SessionHarness.with { harness in
      let port = try #require(harness.base.port)
      let before = openConnections(toPort: port)
      for _ in 0..<4 {
        let client = HTTPClient.urlSession(timeout: 30)
        let answer = try await client.send(HTTPRequest(url: harness.base))
        #expect(
          answer.status > 0 && !openConnections(toPort: port).subtracting(before).isEmpty,
          "kept for the next request, and counted")
      }
      #expect(await Self.allClosed(port, since: before), "\(openConnections(toPort: port).subtracting(before))")
    }
  }
}

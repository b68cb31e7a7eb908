// Tests of the redirect interpreter: the three redirect forms, exact matching, state, B2C errors, and thousands of
// malformed inputs.

import Foundation
import TasksTestSupport
import Testing

@testable import TasksCore

@Suite("Redirect interpreter")
struct RedirectInterpreterTests {
  private func interpreter(_ redirect: String, state: String = "s-1") throws -> RedirectInterpreter {
    RedirectInterpreter(redirectURI: try #require(RedirectURI(redirect)), expectedState: state)
  }

  @Test(
    "our redirect with code and state, in every form",
    arguments: [
      ("urn:ietf:wg:oauth:2.0:oob", "urn:ietf:wg:oauth:2.0:oob?code=abc&state=s-1"),
      ("urn:ietf:wg:oauth:2.0:oob", "URN:IETF:WG:OAUTH:2.0:OOB?state=s-1&code=abc"),
      ("http://127.0.0.1/", "http://127.0.0.1:51234/?code=abc&state=s-1"),
      ("http://127.0.0.1:8400/callback", "http://127.0.0.1:8400/callback?code=abc&state=s-1"),
      ("http://localhost/", "http://localhost:9/?code=abc&state=s-1#ignored"),
      ("com.example.tasks://oauth/redirect", "com.example.tasks://oauth/redirect?code=abc&state=s-1"),
      ("com.Example.Tasks://oauth/redirect", "com.example.tasks://oauth/redirect?code=abc&state=s-1"),
    ])
  func code(redirect: String, url: String) throws {
    #expect(try interpreter(redirect).interpret(url) == .code("abc"))
  }

  @Test(
    "other URLs are not ours: matched by scheme and path, never by substring",
    arguments: [
      ("urn:ietf:wg:oauth:2.0:oob", "urn:ietf:wg:oauth:2.0:oobx?code=abc&state=s-1"),
      ("urn:ietf:wg:oauth:2.0:oob", "https://evil.example/?next=urn:ietf:wg:oauth:2.0:oob?code=abc&state=s-1"),
      ("urn:ietf:wg:oauth:2.0:oob", "http://127.0.0.1:5995/b2ctasks.onmicrosoft.com/B2C_1_x/oauth2/v2.0/authorize"),
      ("http://127.0.0.1:8400/callback", "http://127.0.0.1:8401/callback?code=abc&state=s-1"),
      ("http://127.0.0.1:8400/callback", "http://127.0.0.1:8400/callbackx?code=abc&state=s-1"),
      ("http://127.0.0.1/", "http://127.0.0.1.evil.example/?code=abc&state=s-1"),
      ("http://127.0.0.1/", "https://127.0.0.1/?code=abc&state=s-1"),
      ("http://127.0.0.1/", "http://user@127.0.0.1/?code=abc&state=s-1"),
      ("com.example.tasks://oauth/redirect", "com.example.tasks://oauth/other?code=abc&state=s-1"),
      ("com.example.tasks://oauth/redirect", "com.example.tasks.evil://oauth/redirect?code=abc&state=s-1"),
      ("com.example.tasks://oauth/redirect", "about:blank"),
    ])
  func notOurs(redirect: String, url: String) throws {
    #expect(try interpreter(redirect).interpret(url) == .notOurs)
  }

  @Test(
    "an answer in a response mode the app did not ask for (it asks for query) gives no code, even with the right state",
    arguments: [
      "http://127.0.0.1:51234/#code=abc&state=s-1", "http://127.0.0.1:51234/?state=s-1#code=abc",
      "urn:ietf:wg:oauth:2.0:oob#code=abc&state=s-1",
    ])
  func otherResponseModes(url: String) throws {
    let interpreter = try interpreter(url.hasPrefix("urn") ? "urn:ietf:wg:oauth:2.0:oob" : "http://127.0.0.1/")
    let outcome = interpreter.interpret(url)
    #expect(outcome == .failure(.stateMismatch) || outcome == .failure(.malformed), "\(outcome)")
  }

  @Test(
    "a wrong, missing or empty state is refused, even with a code",
    arguments: [
      "urn:ietf:wg:oauth:2.0:oob?code=abc&state=s-2", "urn:ietf:wg:oauth:2.0:oob?code=abc",
      "urn:ietf:wg:oauth:2.0:oob?code=abc&state=", "urn:ietf:wg:oauth:2.0:oob?state=s-1x&code=abc",
      "urn:ietf:wg:oauth:2.0:oob?error=access_denied&error_description=AADB2C90091%3a+x",
    ])
  func stateMismatch(url: String) throws {
    #expect(try interpreter("urn:ietf:wg:oauth:2.0:oob").interpret(url) == .failure(.stateMismatch))
  }

  @Test("B2C errors: forgot password, cancel, and others with code, message, correlation id and timestamp")
  func errors() throws {
    let oob = try interpreter("urn:ietf:wg:oauth:2.0:oob")
    let forgot =
      "urn:ietf:wg:oauth:2.0:oob?error=access_denied&error_description=AADB2C90118%3a+The+user+has+forgotten+their+password.%0d%0aCorrelation+ID%3a+0c1e6f4c-1b1f-4c8e-9f0e-2d5b3c2a1e00%0d%0aTimestamp%3a+2016-07-26+20%3a14%3a05Z%0d%0a&state=s-1"
    #expect(oob.interpret(forgot) == .failure(.forgotPassword))
    #expect(
      oob.interpret(
        "urn:ietf:wg:oauth:2.0:oob?error=access_denied&error_description=AADB2C90091%3A+User+cancellation.&state=s-1")
        == .failure(.cancelled))
    let other = oob.interpret(
      "urn:ietf:wg:oauth:2.0:oob?error=server_error&error_description=AADB2C90037%3A+An+error+occurred.%0D%0ACorrelation+ID%3A+abc%0D%0ATimestamp%3A+2026-01-01+00%3A00%3A00Z&state=s-1"
    )
    guard case .failure(.service(let error)) = other else {
      Issue.record("expected a service error, got \(other)")
      return
    }
    #expect(error.error == "server_error" && error.code == "AADB2C90037" && error.message == "An error occurred.")
    #expect(error.correlationID == "abc" && error.timestamp == "2026-01-01 00:00:00Z")
    #expect(error.details.contains("Correlation ID: abc"))
    #expect(
      oob.interpret("urn:ietf:wg:oauth:2.0:oob?error=weird&state=s-1")
        == .failure(.service(ServiceError(error: "weird", description: nil))))
    #expect(oob.interpret("urn:ietf:wg:oauth:2.0:oob?state=s-1") == .failure(.malformed))
    #expect(oob.interpret("urn:ietf:wg:oauth:2.0:oob?state=s-1&code=") == .failure(.malformed))
  }

  @Test("thousands of malformed URLs: a typed answer every time, never a crash, never a code without our state")
  func fuzz() throws {
    var generator = SeededGenerator(seed: 20261122)
    let interpreters = try [
      interpreter("urn:ietf:wg:oauth:2.0:oob"), interpreter("http://127.0.0.1/"),
      interpreter("com.example.tasks://oauth/redirect"),
    ]
    let pieces = [
      "urn:ietf:wg:oauth:2.0:oob", "http://127.0.0.1", ":8080", "/", "?", "&", "=", "#", "%", "%zz", "%00", "+",
      "code", "state", "s-1", "error", "error_description", "AADB2C90118", "%0d%0a", "com.example.tasks://",
      "oauth/redirect", "\u{0}", "é", "😀", "[", "]", "@", "..", "//", " ", "\\", "javascript:",
      String(repeating: "A", count: 300),
    ]
    for _ in 0..<5000 {
      let count = Int.random(in: 0...12, using: &generator)
      let url = (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
      for interpreter in interpreters {
        if case .code = interpreter.interpret(url) {
          #expect(
            RedirectInterpreter.parameters(String(url.split(separator: "?", maxSplits: 1).last ?? ""))["state"] == "s-1"
          )
        }
      }
    }
    for _ in 0..<2000 {
      let bytes = (0..<Int.random(in: 0...64, using: &generator)).map { _ in
        UInt8.random(in: 0...255, using: &generator)
      }
      let url = String(decoding: bytes, as: UTF8.self)
      for interpreter in interpreters { _ = interpreter.interpret(url) }
    }
  }
}

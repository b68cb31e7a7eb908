// Tests of recognising the three redirect URI forms.

import Testing

@testable import TasksCore

@Suite("Redirect URIs")
struct RedirectURITests {
  @Test(
    "accepted forms",
    arguments: [
      ("urn:ietf:wg:oauth:2.0:oob", RedirectURI.Kind.outOfBand),
      ("http://127.0.0.1:8400/callback", .loopback),
      ("http://localhost/", .loopback),
      ("http://[::1]:9000/x", .loopback),
      ("com.onmicrosoft.contoso.tasks://oauth/redirect", .customScheme),
      ("msal90c0fe63.tasks://auth", .customScheme),
    ])
  func accepted(value: String, kind: RedirectURI.Kind) throws {
    let uri = try #require(RedirectURI(value))
    #expect(uri.kind == kind)
    #expect(uri.value == value)
  }

  @Test(
    "refused forms",
    arguments: [
      "", " urn:ietf:wg:oauth:2.0:oob", "https://example.com/callback", "http://example.com/callback",
      "http://127.0.0.1.example.com/", "myapp://callback", "javascript:alert(1)", "file:///tmp/x", "not a url",
      "http://10.0.0.1/cb",
    ])
  func refused(value: String) {
    #expect(RedirectURI(value) == nil)
  }

  @Test("loopback hosts")
  func loopback() {
    #expect(LoopbackHost.contains("127.0.0.1"))
    #expect(LoopbackHost.contains("127.1.2.3"))
    #expect(LoopbackHost.contains("LOCALHOST"))
    #expect(LoopbackHost.contains("[::1]"))
    #expect(!LoopbackHost.contains("127.0.0.1.nip.io"))
    #expect(!LoopbackHost.contains("128.0.0.1"))
    #expect(!LoopbackHost.contains("127.0.0.256"))
  }
}

// Tests of where the sign-in web view may go: https, loopback http, the browser's own documents; nothing else.

import TasksCore
import Testing

@Suite("Sign-in navigation policy")
struct SignInNavigationTests {
  @Test(
    "B2C over https, the playground on loopback and about:blank may load",
    arguments: [
      "https://b2ctasks.b2clogin.com/b2ctasks.onmicrosoft.com/B2C_1_SignUpOrSignIn/oauth2/v2.0/authorize?x=1",
      "https://login.microsoftonline.com/te/t/p/oauth2/v2.0/authorize", "http://127.0.0.1:5995/x", "http://[::1]:80/",
      "http://localhost:8080/", "about:blank", "HTTPS://EXAMPLE.COM/",
    ])
  func allowed(uri: String) {
    #expect(SignInNavigation.mayLoad(uri))
  }

  @Test(
    "plain http elsewhere, local files, scripts and other schemes are refused",
    arguments: [
      "http://b2ctasks.b2clogin.com/evil", "http://127.0.0.1.evil.example/", "http://localhost.evil.example/",
      "http://10.0.0.1/", "file:///etc/passwd", "javascript:alert(1)", "ftp://example.com/", "https:///nohost", "",
      "not a url at all", "ws://127.0.0.1/",
    ])
  func refused(uri: String) {
    #expect(!SignInNavigation.mayLoad(uri))
  }
}

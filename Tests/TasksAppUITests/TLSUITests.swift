// TLS in the window: sign in, list and add over https with a certificate the system trusts (the run's throwaway
// authority); with an untrusted, expired or wrong-name certificate the window names the host it cannot verify and
// shows no page from it.

import Foundation
import TasksTestSupport
import Testing

extension AppUI {
  @Suite("TLS in the window")
  struct TLSUITests {
    @Test("over https: the header shows the host as secure; sign in, add and list")
    func signInOverHTTPS() async throws {
      let authority = try await TestAuthority.trusted()
      let playground = try await PlaygroundForUI(logLevel: "info", tls: try authority.issue())
      let app = try AppDriver(settings: playground.settings)
      let window = try await app.openSignInPage()
      let host = "127.0.0.1:\(playground.port)"
      try await app.waitFor(role: "label", name: host)
      try await app.waitFor(
        role: "image", name: "Secure connection: the identity of \(host) is verified and the page is encrypted")
      try await app.checkScreen("tls-sign-in-page")
      try await app.typeSignIn(window: window)
      try await app.waitFor(role: "label", name: "No Tasks")
      try await app.waitFor(role: "label", name: "Ann Example")
      try await app.waitFor(role: "label", name: "B2C Tasks")  // the header is the app's again
      try await app.addTask("renew the certificate", window: window)
      try await app.waitFor(role: "check box", name: "renew the certificate")
      _ = try await app.screenshot("tls-signed-in")
      // (The refusal tests look for this log line to be absent.)
      #expect(playground.processOutput.contains("method=GET"), "the playground logs requests")
      await app.stop()
    }

    @Test(
      "a certificate the system cannot trust: the window names the host, shows no page and offers Try Again",
      arguments: BadCertificate.allCases)
    func refused(_ kind: BadCertificate) async throws {
      let identity = try kind.identity(try await TestAuthority.trusted())
      let reason: String  // as the window words it
      switch kind {
      case .untrusted: reason = "its certificate is not from an authority this computer trusts"
      case .expired: reason = "its certificate has expired or is not valid yet"
      case .otherName: reason = "its certificate was made out for another name"
      }
      let playground = try await PlaygroundForUI(logLevel: "info", tls: identity)
      // The sample's explicit B2C URLs: no discovery document is read first, so WebKit itself meets the certificate
      // (with discovery, the core refuses it before the page, as the session tests show).
      let base = "https://127.0.0.1:\(playground.port)/b2ctasks.onmicrosoft.com/oauth2/v2.0"
      let settings = SettingsFile([
        "clientID": PlaygroundForUI.clientID, "authURL": "\(base)/authorize?p=B2C_1_SignUpOrSignIn",
        "tokenURL": "\(base)/token?p=B2C_1_SignUpOrSignIn", "redirectURI": "urn:ietf:wg:oauth:2.0:oob",
        "keychain": playground.keychainGroup, "taskAPI": "https://127.0.0.1:\(playground.port)",
      ])
      let app = try AppDriver(settings: settings.data)
      _ = try await app.waitForWindow()
      try await app.waitFor(role: "push button", name: "Sign In")
      try await app.press(button: "Sign In")
      let message =
        "The identity of 127.0.0.1:\(playground.port) cannot be verified: \(reason). Nothing was sent to it."
      try await app.waitFor(role: "label", name: "Sign-In Failed")
      try await app.waitFor(role: "label", name: message)
      try await app.waitFor(role: "push button", name: "Try Again")
      // No page from that host: no web view is left on screen, and the header is the app's own.
      let tree = try await app.accessibleTree { _ in true }
      #expect(!tree.contains { $0.isShowing && $0.role == "image" && $0.name.contains("127.0.0.1") })
      #expect(tree.contains { $0.isShowing && $0.role == "label" && $0.name == "B2C Tasks" })
      #expect(!playground.processOutput.contains("method=GET"), "no request got through: \(playground.processOutput)")
      try await app.checkScreen("tls-refused-\(kind.rawValue)")
      await app.stop()
    }

    @Test("signed in, a task service with an expired certificate: the banner names its host; an added task waits")
    func taskServiceRefused() async throws {
      let authority = try await TestAuthority.trusted()
      let provider = try await PlaygroundForUI(tls: try authority.issue())
      let service = try await PlaygroundForUI(tls: try BadCertificate.expired.identity(authority))
      let settings = String(decoding: provider.settings, as: UTF8.self).replacingOccurrences(
        of: "<key>taskAPI</key><string>https://127.0.0.1:\(provider.port)</string>",
        with: "<key>taskAPI</key><string>https://127.0.0.1:\(service.port)</string>")
      let app = try AppDriver(settings: Data(settings.utf8))
      let window = try await app.signInByTyping()
      let message =
        "The identity of 127.0.0.1:\(service.port) cannot be verified: its certificate has expired or is not valid yet. Nothing was sent to it."
      try await app.waitFor(role: "label", name: message)
      try await app.addTask("kept while the service is refused", window: window)
      try await app.waitFor(role: "check box", name: "kept while the service is refused — change waiting to be sent")
      try await app.checkScreen("tls-task-service-refused")
      await app.stop()
    }
  }
}

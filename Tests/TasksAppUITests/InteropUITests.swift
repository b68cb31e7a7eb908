// Signing in inside the window with an OpenID Connect provider nobody here wrote (django-oidc-provider): typing into
// its sign-in page and its consent page in the embedded web view, as a person would.

import Foundation
import TasksTestSupport
import Testing

extension AppUI {
  @Suite("Signing in with an independent OpenID Connect provider")
  struct InteropUITests {
    @Test(
      "type into django-oidc-provider's pages in the window, the list follows; a redirect with a port, or four keys",
      arguments: [false, true])
    func signInInsideTheWindow(fourKeys: Bool) async throws {
      let clientID = PlaygroundForUI.clientID
      // Caught by the web view before it loads; nothing listens there. This provider matches redirects exactly.
      let redirect = fourKeys ? "http://127.0.0.1/" : "http://127.0.0.1:\(try freeLoopbackPort())/"
      let provider = try await InteropProvider(clientID: clientID, redirectURIs: [redirect])
      let discovery = provider.issuer.appending(path: ".well-known/openid-configuration").absoluteString
      let api = try await PlaygroundForUI(options: ["--issuer-metadata", discovery, "--audience", clientID])
      let taskAPI = "http://127.0.0.1:\(api.port)"
      let plist =
        fourKeys
        ? fourKeySettings(
          clientID: clientID, authority: provider.issuer.absoluteString, keychain: api.keychainGroup, taskAPI: taskAPI)
        : provider.settings(clientID: clientID, redirect: redirect, keychain: api.keychainGroup, taskAPI: taskAPI)
      let settings = Data(plist.utf8)
      let app = try AppDriver(settings: settings)
      let window = try await app.waitForWindow()
      try await app.waitFor(role: "push button", name: "Sign In")
      try await app.press(button: "Sign In")
      let signInTitle = "Interop OpenID Provider: sign in"
      try await app.waitFor(role: "label", name: signInTitle)
      try await app.waitForPaintedPage()
      try await app.checkScreen("interop-sign-in-page")
      try await app.type(InteropProvider.user.name, window: window)
      try await app.key("Tab", window: window)
      try await app.type(InteropProvider.user.password, window: window)
      try await app.key("Return", window: window)
      // The provider's consent page (its own template, untitled): Decline, then Authorize.
      try await app.waitUntilGone(role: "label", name: signInTitle)
      try await app.waitForPaintedPage()
      _ = try await app.screenshot("interop-consent-page")
      try await app.key("Tab", window: window)
      try await app.key("Tab", window: window)
      try await app.key("Return", window: window)
      try await app.waitFor(role: "label", name: "No Tasks")
      try await app.waitFor(role: "label", name: InteropProvider.user.display)
      try await app.addTask("typed after an independent sign-in", window: window)
      try await app.waitFor(role: "check box", name: "typed after an independent sign-in")
      try await app.checkScreen(fourKeys ? "interop-signed-in-four-keys" : "interop-signed-in")
      await app.stop()
      await api.stop()
      await provider.stop()
    }
  }
}

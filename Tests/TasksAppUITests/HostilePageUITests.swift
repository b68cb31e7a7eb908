// Hostile pages in the sign-in view (issue 34): what a page the view reaches can make the desktop do. The pages come
// from a provider of the test's own (download_provider.py), as a compromised page or a link on a real provider's
// pages would.

import Foundation
import TasksTestSupport
import Testing

extension AppUI {
  @Suite("Hostile pages in the sign-in view")
  struct HostilePageUITests {
    /// Every file under `folder` with its bytes, by path relative to `folder`; folders as empty entries.
    private static func snapshot(_ folder: URL) -> [String: Data] {
      var files: [String: Data] = [:]
      let walker = FileManager.default.enumerator(atPath: folder.path)
      while let path = walker?.nextObject() as? String {
        files[path] = FileManager.default.contents(atPath: folder.appending(path: path).path) ?? Data()
      }
      return files
    }

    @Test(
      "M1: a page that offers attachments (frames, script, links, a navigation) leaves $HOME and ~/Downloads unchanged"
    )
    func noDownloads() async throws {
      let server = try await ScriptServer.start([
        URL(filePath: #filePath).deletingLastPathComponent().appending(path: "download_provider.py").path
      ])
      defer { server.stop() }
      let (provider, origin) = (server.process, server.origin)
      // A home without XDG user folders: WebKit's downloads would go straight into it. Files named as the provider's
      // attachments are there, in the home and in Downloads.
      let home = try TestDesktop.temporaryFolder("ui-home")
      defer { try? FileManager.default.removeItem(at: home) }
      try FileManager.default.createDirectory(at: home.appending(path: "Downloads"), withIntermediateDirectories: true)
      try Data("the user's own file\n".utf8).write(to: home.appending(path: "victim.txt"))
      try Data("the user's own download\n".utf8).write(to: home.appending(path: "Downloads/victim.txt"))
      let before = Self.snapshot(home)
      let settings = SettingsFile([
        "clientID": "hostile-page-test", "authority": origin, "redirectURI": "urn:ietf:wg:oauth:2.0:oob",
        "keychain": "ui.test.\(UUID().uuidString)", "taskAPI": origin,
      ]).data
      let app = try AppDriver(settings: settings, environment: ["HOME": home.path])
      try await app.openSignInPage()
      // Every attack was made: the frames' attachments, the script's (then offered as a blob), and last the page's
      // own navigation (the page makes them one after another; the download link's request may or may not go out
      // before its download is cancelled, so it is not waited for).
      let served = ["/file/attachment-frame", "/file/octet-frame", "/file/fetched", "/done/blob", "/file/navigation"]
      let requested = await eventually(timeout: .seconds(60)) {
        served.allSatisfy { provider.standardOutput.contains("GET \($0)\n") }
      }
      #expect(requested, "the page's requests: \(provider.standardOutput)")
      // A download is written within moments of its answer; none may appear.
      let changed = await eventually(timeout: .seconds(10), every: .milliseconds(200)) { Self.snapshot(home) != before }
      #expect(
        !changed, "files in the home folder changed: \(Set(Self.snapshot(home).keys).symmetricDifference(before.keys))")
      // The sign-in page is still the one shown: nothing replaced it, and the app did not end the flow.
      try await app.waitFor(role: "label", name: "Sign in")
      _ = try await app.screenshot("hostile-downloads")
      await app.stop()
      #expect(Self.snapshot(home) == before)
    }
  }
}

// Security check of a whole session as a person has it: sign in inside the window, add a task, refresh, sign in again
// through the keyring, quit. Afterwards the tokens are in the keyring and nowhere else: not in any output or log, not
// in a file under the app's XDG folders, not in any process's arguments.

import Foundation
import TasksTestSupport
import Testing

extension AppUI {
  @Suite("Secrets stay in the keyring")
  struct SecurityUITests {
    /// Every process's command line, as `ps` would show it.
    private func allCommandLines() -> String {
      let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
      return processes.filter { Int($0) != nil }.compactMap { pid -> String? in
        guard let file = FileHandle(forReadingAtPath: "/proc/\(pid)/cmdline") else { return nil }
        defer { try? file.close() }
        return String(decoding: file.readDataToEndOfFile(), as: UTF8.self).replacingOccurrences(of: "\0", with: " ")
      }.joined(separator: "\n")
    }

    /// The contents of every file under `folder`, by path.
    private func files(under folder: URL) -> [(String, String)] {
      let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
      return (walker?.allObjects as? [URL] ?? []).compactMap { file in
        guard (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
          let data = FileManager.default.contents(atPath: file.path)
        else { return nil }
        return (file.path, String(decoding: data, as: UTF8.self))
      }
    }

    @Test("after a whole session, only the keyring holds a token; no code or verifier was written anywhere")
    func onlyTheKeyringHoldsTokens() async throws {
      let playground = try await PlaygroundForUI(logLevel: "info")
      let app = try AppDriver(settings: playground.settings)
      let window = try await app.signInByTyping()
      try await app.waitFor(role: "label", name: "No Tasks")
      var commandLines = allCommandLines()  // WebKit's processes are running now
      try await app.addTask("a secret-free task", window: window)
      try await app.waitFor(role: "check box", name: "a secret-free task")
      try await app.key("F5", window: window)
      #expect(try await app.quitByKeyboard(window: window) == 0)
      await app.stop(keepHome: true)
      let again = try AppDriver(settings: playground.settings, home: app.home)
      try await again.waitFor(role: "check box", name: "a secret-free task")
      commandLines += "\n" + allCommandLines()

      // What the keyring holds for this keychain group.
      let lookup = try await ChildProcess.run(
        URL(filePath: "/usr/bin/secret-tool"), ["lookup", "keychain-group", playground.keychainGroup])
      try #require(lookup.status == 0, "secret-tool found no session: \(lookup.error)")
      let stored = try #require(
        try JSONSerialization.jsonObject(with: Data(lookup.output.utf8)) as? [String: Any], "not JSON")
      let tokens = Self.tokens(in: stored)
      try #require(tokens.count >= 2, "the keyring holds the access and refresh tokens: \(stored.keys.sorted())")

      var places: [(String, String)] = [
        ("app output", app.process.standardOutput + app.process.standardError),
        ("second app output", again.process.standardOutput + again.process.standardError),
        ("playground log", playground.processOutput),
        ("command lines", commandLines),
      ]
      places += files(under: app.home)
      await again.stop()
      #expect(places.count > 4, "the app left files to look at")
      #expect(playground.processOutput.contains("/token"), "the playground logged the token requests")
      for (place, text) in places {
        for token in tokens {
          #expect(!text.contains(token), "a token is in \(place)")
        }
        #expect(!text.contains("eyJ"), "something JWT-shaped is in \(place)")
        #expect(text.range(of: #"code=[A-Za-z0-9_\-]{16,}"#, options: .regularExpression) == nil, "a code in \(place)")
        #expect(!text.contains("code_verifier"), "a verifier in \(place)")
      }
    }

    /// The values of every key named like a token (`accessToken`, `refresh_token`…) in a JSON value.
    private static func tokens(in value: Any) -> [String] {
      switch value {
      case let object as [String: Any]:
        return object.flatMap { key, value -> [String] in
          if key.lowercased().contains("token"), let text = value as? String, text.count >= 16 { return [text] }
          return tokens(in: value)
        }
      case let array as [Any]: return array.flatMap { tokens(in: $0) }
      default: return []
      }
    }
  }
}

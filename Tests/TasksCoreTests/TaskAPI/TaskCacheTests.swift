// Tests of the offline copy of the task list: per account, private, round-trips, and garbage is a typed error.

import Foundation
import TasksCore
import TasksTestSupport
import Testing

@Suite("Offline copy of the task list")
struct TaskCacheTests {
  /// The session key of settings naming `authority` (an OpenID Connect issuer).
  static func key(_ authority: String = "https://sso.example.com/realms/tasks") throws -> SessionKey {
    let file = SettingsFile([
      "clientID": "tasks", "authority": authority, "redirectURI": "urn:ietf:wg:oauth:2.0:oob",
      "keychain": "com.example.sso", "taskAPI": "https://tasks.example.com",
    ])
    return SessionKey(try AppSettings.parse(file.data, file: "test.plist"))
  }

  private func cache(
    _ objectID: String = "4d9a7c1e-0b2f-4e55-9a61-3f0c2d8e1b7a", key: SessionKey? = nil, home: URL? = nil
  ) throws -> (TaskCache, URL) {
    let home = try home ?? TestDesktop.temporaryFolder("cache")
    let account = Account(objectID: objectID, displayName: "Ann", email: "ann@example.com")
    let environment = ["XDG_CACHE_HOME": home.path, "HOME": "/nonexistent"]
    return (AccountFiles(account: account, in: try key ?? Self.key(), environment: environment).cache, home)
  }

  @Test("a saved list comes back with its date; the file is the user's alone, under XDG_CACHE_HOME")
  func roundTrip() async throws {
    let (cache, home) = try cache()
    let tasks = [
      TaskItem(id: 1, owner: "o", text: "buy milk", completed: false, dateModified: nil),
      TaskItem(
        id: 2, owner: "o", text: "walk the dog ✓", completed: true, dateModified: Date(timeIntervalSince1970: 5)),
    ]
    let when = Date(timeIntervalSince1970: 1_800_000_000)
    try await cache.save(tasks, at: when)
    #expect(try await cache.load() == CachedTaskList(savedAt: when, tasks: tasks))
    #expect(cache.file.path.hasPrefix(home.path + "/io.github.b2ctasks.B2CTasks/tasks/"))
    let attributes = try FileManager.default.attributesOfItem(atPath: cache.file.path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    await cache.remove()
    await #expect(throws: TaskCacheError.missing) { try await cache.load() }
    // A save on its way when the account signed out does not bring the copy back.
    try await cache.save(tasks, at: when)
    await #expect(throws: TaskCacheError.missing) { try await cache.load() }
  }

  @Test("each account has its own copy; an object id cannot reach outside the folder")
  func perAccount() throws {
    let (ann, _) = try cache("ann-id")
    let (hostile, _) = try cache("../../etc/passwd")
    #expect(ann.file != hostile.file)
    #expect(hostile.file.lastPathComponent.range(of: #"^[0-9a-f]{40}\.json$"#, options: .regularExpression) != nil)
    #expect(hostile.file.deletingLastPathComponent().lastPathComponent == "tasks")
  }

  @Test("L8: accounts of two providers with subjects that once made one file name have files of their own")
  func perSessionKey() throws {
    let home = try TestDesktop.temporaryFolder("cache")
    let one = try Self.key("https://one.example.com")
    let other = try Self.key("https://other.example.com")
    // "1" at two providers; two all-non-ASCII subjects (both were ".json"); "a-b" and "a/b" (both "a-b"… "ab").
    for (first, second) in [("1", "1"), ("ünïcödé", "日本"), ("a/b", "ab")] {
      let (a, _) = try cache(first, key: one, home: home)
      let (b, _) = try cache(second, key: first == second ? other : one, home: home)
      #expect(a.file != b.file, "\(first) and \(second) share \(a.file.lastPathComponent)")
    }
  }

  @Test("L8: a copy kept under the earlier name (the bare object id) is moved to the new one, not lost")
  func earlierNameMoves() async throws {
    let home = try TestDesktop.temporaryFolder("cache")
    let folder = home.appending(path: "io.github.b2ctasks.B2CTasks/tasks")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let (writer, _) = try cache("ann-id", home: home)
    let tasks = [TaskItem(id: 1, owner: "o", text: "kept", completed: false, dateModified: nil)]
    try await writer.save(tasks, at: Date(timeIntervalSince1970: 5))
    try FileManager.default.moveItem(at: writer.file, to: folder.appending(path: "ann-id.json"))
    let (reader, _) = try cache("ann-id", home: home)
    #expect(try await reader.load().tasks == tasks)
    #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "ann-id.json").path))
  }

  @Test(
    "garbage is a typed error, not a crash or an empty list",
    arguments: [
      "", "[]", "{}", "{\"savedAt\":\"yesterday\",\"tasks\":[]}", "{\"savedAt\":1,\"tasks\":[{\"id\":1}]}", "\u{0}",
    ])
  func garbage(_ text: String) {
    #expect(throws: TaskCacheError.self) { try TaskCache.decode(Data(text.utf8)) }
  }
}

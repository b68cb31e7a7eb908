// Tests of the offline copy of the task list: per account, private, round-trips, and garbage is a typed error.

import Foundation
import TasksCore
import TasksTestSupport
import Testing

@Suite("Offline copy of the task list")
struct TaskCacheTests {
  private func cache(_ objectID: String = "4d9a7c1e-0b2f-4e55-9a61-3f0c2d8e1b7a") throws -> (TaskCache, URL) {
    let home = try TestDesktop.temporaryFolder("cache")
    let account = Account(objectID: objectID, displayName: "Ann", email: "ann@example.com")
    return (TaskCache(account: account, environment: ["XDG_CACHE_HOME": home.path, "HOME": "/nonexistent"]), home)
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
  }

  @Test("each account has its own copy; an object id cannot reach outside the folder")
  func perAccount() throws {
    let (ann, _) = try cache("ann-id")
    let (hostile, _) = try cache("../../etc/passwd")
    #expect(ann.file.lastPathComponent == "ann-id.json")
    #expect(hostile.file.lastPathComponent == "etcpasswd.json")
    #expect(hostile.file.deletingLastPathComponent().lastPathComponent == "tasks")
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

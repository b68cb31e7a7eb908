// Teardown: scoped test resources, stopped when the scope ends, and waited for.

/// Runs `body`, then `teardown` — also when `body` throws (a failed `#require`) — and waits for it to finish, so a
/// test's servers and processes are gone when the test ends. (A `defer { Task { … } }` would start the stop and
/// leave it running after the test.)
/// It runs on the caller's actor (`isolation`), so a main-actor test can use it with its main-actor state.
public func withTeardown(
  isolation: isolated (any Actor)? = #isolation, _ teardown: () async -> Void, _ body: () async throws -> Void
) async throws {
  do {
    try await body()
  } catch {
    await teardown()
    throw error
  }
  await teardown()
}

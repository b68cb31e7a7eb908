// LegacyOwners: gives the rows kept before owners named their issuer to the one issuer a service trusts. Sendable.

import Logging

/// The migration of `TaskStore.qualifyLegacyOwners` for a service that trusts one issuer: its name comes from its
/// metadata document, so the rows move once that document has been read, tried again with back-off (5 s, doubling
/// to 5 minutes) while it cannot be. A service that trusts several issuers cannot tell whose the old rows are and
/// leaves them (nobody can read them; start it once with the one issuer they belong to).
public enum LegacyOwners {
  /// Runs until the rows have moved (or there were none), or the task is cancelled.
  public static func migrate(_ store: any TaskStore, to issuer: IssuerKeys, logger: Logger) async {
    var delay = Duration.seconds(5)
    while !Task.isCancelled {
      do {
        let name = try await issuer.name()
        let moved = try await store.qualifyLegacyOwners(issuer: name)
        if moved > 0 {
          logger.notice("tasks kept before owners named their issuer given to it", metadata: ["tasks": "\(moved)"])
        }
        return
      } catch {
        logger.warning(
          "the issuer's name for tasks kept before owners named it is not known yet; trying again",
          metadata: ["error": "\(type(of: error))"])
      }
      try? await Task.sleep(for: delay)
      delay = min(delay * 2, .seconds(300))
    }
  }
}

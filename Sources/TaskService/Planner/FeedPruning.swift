// FeedPruning: the change feed's deletions are kept 90 days, then forgotten (a token older than that gets 410 and
// the client reads everything again). Sendable.

import Foundation
import Logging

public enum FeedPruning {
  /// How long deletions stay in the feed.
  public static let retention: TimeInterval = 90 * 86_400

  /// Forgets older deletions (and expired invitations) now and then once a day, until the task is cancelled.
  public static func run(_ store: any PlannerStore, logger: Logger) async {
    while !Task.isCancelled {
      do { try await store.pruneFeed(before: Date().addingTimeInterval(-retention)) } catch {
        logger.warning("the change feed's old deletions could not be pruned", metadata: ["error": "\(type(of: error))"])
      }
      try? await Task.sleep(for: .seconds(86_400))
    }
  }
}

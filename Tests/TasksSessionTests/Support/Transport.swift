// Transport: the two HTTP transports the core runs on, for tests that must hold for both.

import Foundation
import TasksCore
import TasksSoup
import TasksURLSession
import Testing

/// The core's HTTP transports: URLSession (Foundation's) and libsoup (the GNOME app's and b2c-tasks-cli's).
enum Transport: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case urlSession = "URLSession"
  case soup = "libsoup"

  /// A client over this transport whose requests time out after `timeout` seconds of silence. The default is longer
  /// than the app's 20 s: the in-process servers share the test process's two-thread concurrency pool with every suite,
  /// and when all suites start at once on a busy 2-core machine an answer was seen to take longer than 20 s (fresh
  /// runs of 1a8b89e and 5c5106f). Tests of the timeout itself give theirs.
  func client(timeout: TimeInterval = 120) -> HTTPClient {
    switch self {
    case .urlSession: return .urlSession(timeout: timeout)
    case .soup: return .soup(timeout: timeout)
    }
  }

  var testDescription: String { rawValue }
}

extension HTTPClient {
  /// The tests' stand-in for the app's `HTTPClient.shared`: URLSession with the tests' long timeout (see
  /// `Transport.client`). The id_token tests timed out on `.shared`'s 20 s against their own in-process playground in
  /// a CI run of 0db7ed2, when every suite started at once.
  static let tests = Transport.urlSession.client()
}

extension TaskAPIClient {
  /// A client of `session`'s account whose task service cannot be reached (nothing listens on port 9): offline.
  static func offline(_ session: Session) -> TaskAPIClient {
    through(URL(string: "http://127.0.0.1:9")!, session)
  }

  /// A client of `session`'s account that sends to `base` (a proxy in front of the service).
  static func through(_ base: URL, _ session: Session) -> TaskAPIClient {
    TaskAPIClient(baseURL: base, http: .tests) { force throws(SessionError) in
      try await session.bearer(forceRefresh: force)
    }
  }
}

/// Whether a flush stopped because the network failed, as offline it must (recorded as an issue when not).
func stoppedByNetwork(_ error: TaskAPIError?, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
  if case .network = error { return true }
  Issue.record("expected a network failure, got \(String(describing: error))", sourceLocation: sourceLocation)
  return false
}

// Transport: the two HTTP transports the core runs on, for tests that must hold for both.

import Foundation
import TasksCore
import TasksSoup
import TasksURLSession
import Testing

/// The core's HTTP transports: URLSession (b2c-tasks-cli) and libsoup (the GNOME app).
enum Transport: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case urlSession = "URLSession"
  case soup = "libsoup"

  /// A client over this transport whose requests time out after `timeout` seconds of silence.
  func client(timeout: TimeInterval = 20) -> HTTPClient {
    switch self {
    case .urlSession: return .urlSession(timeout: timeout)
    case .soup: return .soup(timeout: timeout)
    }
  }

  var testDescription: String { rawValue }
}

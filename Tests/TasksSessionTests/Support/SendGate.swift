// SendGate: the task API's changing requests held on the wire until a test lets them go (a send under way while
// something else happens). Any thread.

import Foundation
import Synchronization
import TasksCore

/// Holds the task API's requests that change something (POST, PATCH, DELETE) until the test opens it.
final class SendGate: Sendable {
  private let state = Mutex((open: false, holding: false))

  var isHolding: Bool { state.withLock { $0.holding } }
  func open() { state.withLock { $0.open = true } }

  func transport(_ http: HTTPClient) -> any HTTPTransport { Gated(gate: self, http: http) }

  private struct Gated: HTTPTransport {
    let gate: SendGate
    let http: HTTPClient

    func send(_ request: HTTPRequest) async throws(NetworkError) -> TasksCore.HTTPAnswer {
      if request.method != "GET" {
        while !gate.state.withLock({ state in
          state.holding = !state.open
          return state.open
        }) {
          if Task.isCancelled { throw .failed("cancelled") }
          try? await Task.sleep(for: .milliseconds(10))
        }
      }
      return try await http.send(request)
    }
  }
}

extension SendGate {
  /// The planner's clients, through this gate to the task API at `base`.
  func clients(base: URL) -> @MainActor (Session, String) -> TaskAPIClient {
    { session, id in
      TaskAPIClient(baseURL: base, http: HTTPClient(self.transport(HTTPClient.tests))) {
        force throws(SessionError) in try await session.bearer(forceRefresh: force, for: id)
      }
    }
  }
}

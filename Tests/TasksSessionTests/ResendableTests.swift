// Which of the task API's requests a transport may send again (`HTTPRequest.resendable`): the planner's writes that
// have the same effect twice, and no other. Read off the requests the client hands its transport.

import Foundation
import Synchronization
import TasksCore
import Testing

@Suite("Which of the task API's writes may be sent again")
struct ResendableTests {
  /// Records what it is asked to send and answers each with 200 and `{}` (the client's decoding may then fail: only
  /// the requests matter here).
  private final class Recording: HTTPTransport, Sendable {
    let sent = Mutex<[String]>([])

    func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPAnswer {
      sent.withLock { $0.append("\(request.method) \(request.url.path) \(request.resendable)") }
      return HTTPAnswer(status: 200, body: Data("{}".utf8), headers: [:])
    }
  }

  @Test("field edits, completions and keyed adds may go again; a move, an invitation, an app password may not")
  func marked() async throws {
    let recording = Recording()
    let client = TaskAPIClient(baseURL: try #require(URL(string: "http://127.0.0.1:9")), http: HTTPClient(recording)) {
      _ throws(SessionError) in "a-bearer"
    }
    let list = UUID()
    let item = PlannerItem(id: UUID(), listID: list, title: "paint the fence", createdAt: Date())
    let day = try #require(CalendarDate(year: 2026, month: 12, day: 7))
    _ = try? await client.changeTask(item, fields: [.title], ifMatch: 3)
    _ = try? await client.changeTask(item, fields: [.listID], ifMatch: nil, in: UUID())
    _ = try? await client.changeList(id: list, name: "Garden")
    _ = try? await client.complete(list: list, id: item.id, occurrence: day, today: day)
    _ = try? await client.invite(list: list)
    _ = try? await client.makeAppPassword(name: "phone")
    _ = try? await client.add("keyed", idempotencyKey: "7c1e")
    _ = try? await client.add("not keyed")
    let marks = recording.sent.withLock { $0 }.map {
      $0.split(separator: " ").first! + " " + $0.split(separator: " ").last!
    }
    #expect(
      marks == [
        "PATCH true", "PATCH false", "PATCH true", "POST true", "POST false", "POST false", "POST true", "POST false",
      ], "\(recording.sent.withLock { $0 })")
  }
}

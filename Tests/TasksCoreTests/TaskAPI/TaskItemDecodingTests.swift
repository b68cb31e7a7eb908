// Tests of decoding the task API's JSON.

import Foundation
import Testing

@testable import TasksCore

@Suite("Task JSON")
struct TaskItemDecodingTests {
  @Test("the sample's shape, with and without fractional seconds, extra fields ignored")
  func decode() throws {
    let json =
      #"[{"Id":1,"Owner":"o","Text":"buy milk","Completed":false,"DateModified":"2016-07-26T20:14:05.123Z","Extra":[1]},{"Id":"2","Owner":"o","Text":"walk","Completed":true,"DateModified":"2016-07-26T20:14:05Z"},{"Id":0,"Text":"original API","DateModified":null}]"#
    let items = try TaskItem.decodeList(Data(json.utf8))
    #expect(items.map(\.id) == [1, 2, 0])
    #expect(items.map(\.completed) == [false, true, false])
    #expect(abs((items[0].dateModified?.timeIntervalSince1970 ?? 0) - 1_469_564_045.123) < 0.001)
    #expect(items[1].dateModified == Date(timeIntervalSince1970: 1_469_564_045))
    #expect(items[2].owner == "" && items[2].dateModified == nil)
  }

  @Test(
    "garbage is a bad response, never a crash",
    arguments: [
      "", "{}", "null", "[1]", #"[{"Text":"x"}]"#, #"[{"Id":true,"Text":"x"}]"#, #"[{"Id":1.5,"Text":"x"}]"#,
      #"[{"Id":1,"Text":5}]"#, #"[{"Id":1,"Text":"x","Completed":"yes"}]"#, #"[{"Id":1,"Text":"x","Completed":1}]"#,
      "<html>502 Bad Gateway</html>",
    ])
  func garbage(json: String) {
    #expect(throws: TaskAPIError.self) { try TaskItem.decodeList(Data(json.utf8)) }
  }
}

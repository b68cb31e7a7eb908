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

  @Test("DateModified read directly gives exactly the date Foundation's ISO 8601 parser gives")
  func datesAsFoundationReadsThem() {
    let foundation = { (text: String) -> Date? in
      (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
        ?? (try? Date.ISO8601FormatStyle().parse(text))
    }
    // A fixed pseudo-random sequence (the same dates every run): every field over its whole range, 0–9 fractional
    // digits, years from 1583 (the Gregorian calendar's first whole year) to 9999.
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ range: ClosedRange<Int>) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return range.lowerBound + Int((state >> 33) % UInt64(range.count))
    }
    func padded(_ value: Int, _ width: Int) -> String {
      String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
    }
    var read = 0
    for _ in 0..<60_000 {
      let year = [1583, 1900, 1970, 2000, 2016, 2024, 2026, 2100, next(1583...9999)][next(0...8)]
      var text = "\(padded(year, 4))-\(padded(next(1...12), 2))-\(padded(next(1...31), 2))T"
      text += "\(padded(next(0...23), 2)):\(padded(next(0...59), 2)):\(padded(next(0...59), 2))"
      let digits = next(0...9)
      if digits > 0 { text += "." + (0..<digits).map { _ in String(next(0...9)) }.joined() }
      text += "Z"
      // 31 April and the like Foundation reads leniently: those go to Foundation's parser.
      if let direct = WireDate.utc(text) {
        read += 1
        #expect(direct == foundation(text), "\(text)")
      }
      #expect(WireDate.parse(text) == foundation(text), "\(text)")
    }
    #expect(read > 45_000)
    let leap = ["2000-02-29T00:00:00Z", "2024-02-29T23:59:59.999Z", "1600-02-29T12:00:00.5Z"]
    for text in leap {
      #expect(WireDate.utc(text) != nil && WireDate.utc(text) == foundation(text), "\(text)")
    }
    // Not the protocol's form: read by Foundation's parser, or by nothing.
    let others = [
      "2016-07-26T20:14:05+02:00", "1900-02-29T00:00:00Z", "2016-07-26T20:14:05.Z", "2016-07-26T20:14:05.1234567890Z",
      "2016-07-26 20:14:05Z", "2016-13-01T00:00:00Z", "2016-07-26T24:00:00Z", "0001-01-01T00:00:00Z",
      "2016-07-26T20:14:05", "yesterday", "", "２０１６-07-26T20:14:05Z",
    ]
    for text in others {
      #expect(WireDate.utc(text) == nil, "\(text)")
      // Year 1, which Foundation reads in the Julian calendar, is before the protocol's years: refused.
      #expect(WireDate.parse(text) == (text.hasPrefix("0001-") ? nil : foundation(text)), "\(text)")
    }
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

// UUID(text:) against Foundation's UUID(uuidString:): the same UUID for every id it reads itself, and the same
// answer (a UUID or none) for damaged and foreign text, which it leaves to Foundation; UUID(textBytes:), the feed
// reader's, the same as UUID(text:) for each.

import Foundation
import TasksCalendar
import TasksTestSupport
import Testing

@Suite("UUID(text:): an id read without sscanf")
struct UUIDTextTests {
  /// `UUID(textBytes:)` of `text`'s UTF-8.
  static func fromBytes(_ text: String) -> UUID? {
    var text = text
    return text.withUTF8 { UUID(textBytes: $0) }
  }

  @Test("ids in lower, upper and mixed case read as Foundation reads them")
  func ids() {
    var random = SeededGenerator(seed: 36)
    for _ in 0..<20_000 {
      var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
      withUnsafeMutableBytes(of: &bytes) { out in
        for index in out.indices { out[index] = UInt8.random(in: 0...255, using: &random) }
      }
      let id = UUID(uuid: bytes)
      let upper = id.uuidString
      let mixed = String(upper.map { Bool.random(using: &random) ? Character($0.lowercased()) : $0 })
      for text in [upper, upper.lowercased(), mixed] {
        #expect(UUID(text: text) == id, "\(text)")
        #expect(UUID(text: text) == UUID(uuidString: text), "\(text)")
        #expect(Self.fromBytes(text) == id, "\(text)")
      }
    }
  }

  @Test("damaged ids get Foundation's answer: the same UUID, or none")
  func damaged() {
    var random = SeededGenerator(seed: 3_636)
    let alphabet = Array("0123456789abcdefABCDEFgG-+ x{}".utf8) + [0xC3, 0xA9]
    var refused = 0
    for _ in 0..<20_000 {
      var bytes = Array(UUID().uuidString.lowercased().utf8)
      for _ in 0..<Int.random(in: 1...2, using: &random) {
        let at = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0...2, using: &random) {
        case 0: bytes.remove(at: at)
        case 1: bytes.insert(alphabet.randomElement(using: &random)!, at: at)
        default: bytes[at] = alphabet.randomElement(using: &random)!
        }
      }
      let text = String(decoding: bytes, as: UTF8.self)
      #expect(UUID(text: text) == UUID(uuidString: text), "\(text)")
      #expect(Self.fromBytes(text) == UUID(text: text), "\(text)")
      if UUID(text: text) == nil { refused += 1 }
    }
    #expect(refused > 5_000, "most damaged ids are no ids: \(refused)")
  }

  @Test("ids with one character replaced get Foundation's answer (the length of the usual form kept)")
  func replaced() {
    var random = SeededGenerator(seed: 3_637)
    let alphabet = Array("0123456789abcdefABCDEFgG-+ x{}\0".utf8)
    var read = 0
    for _ in 0..<20_000 {
      var bytes = Array(UUID().uuidString.utf8)
      bytes[Int.random(in: 0..<bytes.count, using: &random)] = alphabet.randomElement(using: &random)!
      let text = String(decoding: bytes, as: UTF8.self)
      #expect(UUID(text: text) == UUID(uuidString: text), "\(text)")
      #expect(Self.fromBytes(text) == UUID(text: text), "\(text)")
      if UUID(text: text) != nil { read += 1 }
    }
    #expect(read > 5_000 && read < 19_000, "some replacements are still ids, some are not: \(read)")
  }

  @Test(
    "foreign text gets Foundation's answer",
    arguments: [
      "", "-", "{6F1C3A52-93B4-4C1E-9A57-2D8E0B7C4F10}", "6f1c3a5293b44c1e9a572d8e0b7c4f10",
      "6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f1", "6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f100",
      " 6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f10",
      "6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f1g", "6f1c3a52+93b4-4c1e-9a57-2d8e0b7c4f10",
      "6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f1é",
      "+f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f10", "6f1c3a52-+3b4-4c1e-9a57-2d8e0b7c4f10",
    ])
  func foreign(_ text: String) {
    #expect(UUID(text: text) == UUID(uuidString: text))
    #expect(Self.fromBytes(text) == UUID(text: text))
  }
}

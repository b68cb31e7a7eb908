// Replays the fuzzing corpora (Tests/Fuzz/corpus/, grown by Tests/Fuzz/fuzz.sh) through every parser: each input,
// including those that once made libFuzzer find new paths, is handled without a crash.

import Foundation
import TasksTestSupport
import Testing

@Suite("Fuzzing corpora")
struct FuzzCorpusTests {
  @Test(
    "every input of the corpus is handled without a crash",
    arguments: [
      "redirect", "token", "tasks", "settings", "navigation", "jwt", "jwks", "discovery", "authority", "feed",
      "details", "ical", "xml",
    ])
  func replay(target: String) async throws {
    let corpus = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appending(path: "Fuzz/corpus/\(target)")
    let inputs = try FileManager.default.contentsOfDirectory(atPath: corpus.path).count
    try #require(inputs > 0, "the \(target) corpus is empty")
    let run = try await ChildProcess.run(
      TestDesktop.binaryFolder.appending(path: "b2c-tasks-fuzz"), [target, corpus.path], timeout: .seconds(120))
    #expect(run.status == 0, "\(target): \(run.error.suffix(2000))")
    #expect(run.output.contains("\(target): replayed \(inputs) inputs"))
  }
}

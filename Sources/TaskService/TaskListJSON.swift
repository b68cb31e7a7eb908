// TaskListJSON: the answer to GET /api/tasks, written straight into bytes. Pure functions.

import Foundation
import TasksCalendar

/// The sample's JSON for a list of tasks, `[{"Id":1,"Owner":"…","Text":"…","Completed":false,"DateModified":
/// "2016-07-26T20:14:05.123Z"}]`, keys in the original API's order; `Owner` is the user's id at their issuer (the
/// stored owner without its issuer, `TaskOwner`).
///
/// Written by hand because it is the task API's hot path: Foundation's `JSONEncoder` (a tree of boxed values, a
/// dictionary per object, then a writer) took a quarter of the CPU time of a 100-task answer in a profile
/// (Tests/Benchmarks/RESULTS.md). The output is plain RFC 8259 JSON (`JSONWriter`); the tests parse it back with a
/// JSON parser.
public enum TaskListJSON {
  /// The JSON array of `tasks`.
  public static func encode(_ tasks: [TaskRecord]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(64 + tasks.reduce(0) { $0 + $1.owner.utf8.count + $1.text.utf8.count + 100 })
    out.append(UInt8(ascii: "["))
    for task in tasks {
      if out.count > 1 { out.append(UInt8(ascii: ",")) }
      out.append(contentsOf: #"{"Id":"#.utf8)
      out.append(contentsOf: String(task.id ?? 0).utf8)
      out.append(contentsOf: #","Owner":"#.utf8)
      JSONWriter.appendString(TaskOwner.subject(ofKey: task.owner), to: &out)
      out.append(contentsOf: #","Text":"#.utf8)
      JSONWriter.appendString(task.text, to: &out)
      out.append(
        contentsOf: (task.completed ? #","Completed":true,"DateModified":""# : #","Completed":false,"DateModified":""#)
          .utf8)
      JSONWriter.appendTimestamp(task.dateModified, to: &out)
      out.append(contentsOf: #""}"#.utf8)
    }
    out.append(UInt8(ascii: "]"))
    return out
  }
}

// Installation: where the running program's data files are. Value type; any thread.

import FoundationEssentials
import Glibc
import TasksCore

/// The files installed beside the program: `PREFIX/bin/b2c-tasks` finds its data under `PREFIX/share`.
struct Installation: Sendable {
  /// The application ID.
  static let appID = AppIdentity.appID
  /// The version, kept equal to the meson project's.
  static let version = "0.2.0"
  /// The GResource base path.
  static let resourceBase = "/io/github/b2ctasks/B2CTasks"

  /// `PREFIX/share`.
  let dataDirectory: URL

  /// The compiled GResource bundle with the `.ui` files and icons.
  var resourceBundle: URL { dataDirectory.appending(path: "b2c-tasks/b2c-tasks.gresource") }
  /// Where compiled translations are.
  var localeDirectory: String { dataDirectory.appending(path: "locale").path(percentEncoded: false) }
  /// Where the WebKit plugin is (`PREFIX/lib/b2c-tasks`).
  var pluginDirectory: URL { dataDirectory.deletingLastPathComponent().appending(path: "lib/b2c-tasks") }
  /// Where the compiled GSettings schemas are.
  var schemaDirectory: URL { dataDirectory.appending(path: "glib-2.0/schemas") }

  /// The reminder service's program: in the plugin's folder, or beside this program in a developer's build.
  var reminderService: URL {
    let installed = pluginDirectory.appending(path: "b2c-tasks-reminders")
    if FileManager.default.isExecutableFile(atPath: installed.path(percentEncoded: false)) { return installed }
    return URL(filePath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
      .appending(path: "b2c-tasks-reminders")
  }

  /// Replaces this process with the reminder service (`b2c-tasks --background`), with the other arguments given;
  /// returns only if it could not be started.
  func startReminderService() -> Never {
    let program = reminderService.path(percentEncoded: false)
    let arguments = [program] + CommandLine.arguments.dropFirst().filter { $0 != "--background" }
    let argv = arguments.map { strdup($0) } + [nil]
    execv(program, argv)
    var line = "b2c-tasks: could not start the reminder service \(program): \(String(cString: strerror(errno)))\n"
    line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(1)
  }

  /// The installation the running executable belongs to (through `/proc/self/exe`, so symlinks resolve).
  static func ofRunningProgram() -> Installation {
    let executable = URL(filePath: "/proc/self/exe").resolvingSymlinksInPath()
    let prefix = executable.deletingLastPathComponent().deletingLastPathComponent()
    return Installation(dataDirectory: prefix.appending(path: "share"))
  }
}

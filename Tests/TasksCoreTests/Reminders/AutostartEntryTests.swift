// Tests of the reminder service's autostart entry: written where the XDG autostart specification says, valid for
// desktop-file-validate, and its command read back by GLib (GDesktopAppInfo, PyGObject) as the program and
// `--background`, whatever the program's path holds (spaces, quotes, `$`, a backslash, a line break). (A `%`, written
// `%%` as the specification says, is left out: GLib looks for the program before it reads `%%` as `%`.)

import Foundation
import Testing

@testable import TasksCore

@Suite("Reminders: the autostart entry")
struct AutostartEntryTests {
  /// GLib's reading of the entry's command (the words a session starts), by PyGObject.
  private func commandGLibReads(_ file: URL) throws -> [String] {
    let script = """
      import json, sys
      from gi.repository import Gio, GLib
      info = Gio.DesktopAppInfo.new_from_filename(sys.argv[1])
      print(json.dumps(GLib.shell_parse_argv(info.get_commandline())[1]))
      """
    let process = Process()
    process.executableURL = URL(filePath: "/usr/bin/python3")
    process.arguments = ["-c", script, file.path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return try JSONDecoder().decode([String].self, from: data)
  }

  @Test(
    "the entry is in $XDG_CONFIG_HOME/autostart, valid, and GLib reads its command back exactly",
    arguments: ["bin/b2c-tasks", "my apps/b2c \"tasks\" $HOME `x` \\ end/b2c-tasks"])
  func entry(place: String) throws {
    let home = FileManager.default.temporaryDirectory.appending(path: "autostart-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    // GLib reads an entry only when its program is there.
    let program = home.appending(path: place).path
    try FileManager.default.createDirectory(
      at: URL(filePath: program).deletingLastPathComponent(), withIntermediateDirectories: true)
    FileManager.default.createFile(
      atPath: program, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
    let entry = AutostartEntry(environment: ["XDG_CONFIG_HOME": home.path, "HOME": "/nonexistent"])
    #expect(entry.file.path == home.appending(path: "autostart/io.github.b2ctasks.B2CTasks.Reminders.desktop").path)
    #expect(!entry.exists)
    try entry.write(program: program)
    #expect(entry.exists)
    #expect(try commandGLibReads(entry.file) == [program, "--background"])
    let validate = Process()
    validate.executableURL = URL(filePath: "/usr/bin/desktop-file-validate")
    validate.arguments = [entry.file.path]
    try validate.run()
    validate.waitUntilExit()
    #expect(validate.terminationStatus == 0)
    entry.remove()
    #expect(!entry.exists)
    entry.remove()  // nothing to remove: no error
  }

  @Test("a line break in the path cannot add a key to the entry")
  func lineBreak() throws {
    let contents = AutostartEntry.contents(program: "/opt/x\nExec=rm -rf ~\n/b2c-tasks")
    #expect(contents.split(separator: "\n").filter { $0.hasPrefix("Exec=") }.count == 1)
    #expect(!contents.contains("\nExec=rm"))
  }
}

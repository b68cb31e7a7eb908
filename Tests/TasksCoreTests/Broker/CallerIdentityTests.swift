// Tests of how the broker names its callers: a sandbox's app ID from /.flatpak-info (garbage refused), an
// interpreter's script, this very process read from /proc.

import Foundation
import TasksCore
import Testing

@Suite("Who is asking the broker")
struct CallerIdentityTests {
  @Test("a sandbox's app ID is read from [Application] name=, and only a valid one")
  func flatpakInfo() {
    let info = """
      [Application]
      name=org.example.Notes
      runtime=runtime/org.gnome.Platform/x86_64/47

      [Instance]
      instance-id=1234
      """
    #expect(CallerIdentity.flatpakAppID(info) == "org.example.Notes")
    #expect(CallerIdentity.flatpakAppID("[Application]\n name = org.example.Spaced \n") == "org.example.Spaced")
    #expect(CallerIdentity.flatpakAppID("[Instance]\nname=org.example.Notes\n") == nil, "another group")
    #expect(CallerIdentity.flatpakAppID("") == nil)
    for bad in ["notes", "org..Notes", "1org.example.Notes", "org.example.No tes", "org.example.Nötes", ".org.x"] {
      #expect(CallerIdentity.flatpakAppID("[Application]\nname=\(bad)\n") == nil, "\(bad)")
    }
    let long = "org." + String(repeating: "a", count: 260)
    #expect(CallerIdentity.flatpakAppID("[Application]\nname=\(long)\n") == nil, "over 255 characters")
  }

  @Test("an interpreter is named with its script (absolute), a module, or nothing for -c; other programs alone")
  func scripts() {
    let python = "/usr/bin/python3.11"
    #expect(
      CallerIdentity.script(
        arguments: ["python3", "-u", "tools/notes.py", "--x"], executable: python, directory: "/home/ann")
        == "/home/ann/tools/notes.py")
    #expect(
      CallerIdentity.script(arguments: ["python3", "/opt/a/../b/n.py"], executable: python, directory: "/")
        == "/opt/b/n.py")
    #expect(
      CallerIdentity.script(arguments: ["python3", "-m", "notes.app"], executable: python, directory: "/")
        == "-m notes.app")
    #expect(CallerIdentity.script(arguments: ["python3", "-c", "print(1)"], executable: python, directory: "/") == nil)
    #expect(
      CallerIdentity.script(arguments: ["perl", "-e", "print 1"], executable: "/usr/bin/perl", directory: "/") == nil)
    #expect(
      CallerIdentity.script(arguments: ["gjs", "app.js"], executable: "/usr/bin/gjs-console", directory: "/srv")
        == "/srv/app.js")
    #expect(
      CallerIdentity.script(arguments: ["sh", "-e", "--", "x.sh"], executable: "/usr/bin/dash", directory: "/t")
        == "/t/x.sh")
    #expect(
      CallerIdentity.script(arguments: ["notes", "file.txt"], executable: "/usr/bin/notes", directory: "/") == nil)
    #expect(
      CallerIdentity.script(arguments: ["perl5.36.0", "p.pl"], executable: "/usr/bin/perl5.36.0", directory: "/")
        == "/p.pl")
  }

  @Test(
    "an option's value is not the script: a program cannot be taken for the script it names as a value",
    arguments: [
      // Before: the script was the option's value (seen with -X faulthandler), so a program could pass for an app
      // the user allowed by naming its script there.
      (["python3", "-X", "/home/ann/notes.py", "/tmp/evil.py"], "/usr/bin/python3.11", "/tmp/evil.py"),
      (["python3", "-W", "ignore", "-Xdev", "app.py"], "/usr/bin/python3.11", "/srv/app.py"),
      (["bash", "-o", "errexit", "+o", "x", "run.sh"], "/usr/bin/bash", "/srv/run.sh"),
      (["node", "-r", "/home/ann/notes.js", "evil.js"], "/usr/bin/node", "/srv/evil.js"),
      (["nodejs", "--import", "/home/ann/notes.js", "evil.js"], "/usr/bin/nodejs", "/srv/evil.js"),
      (["node", "-p", "1"], "/usr/bin/node", nil),
      (["java", "-cp", "/opt/a.jar", "-jar", "app.jar"], "/usr/lib/jvm/bin/java", "/srv/app.jar"),
      (["php", "-c", "/etc/php.ini", "app.php"], "/usr/bin/php8.2", "/srv/app.php"),
      (["php", "-r", "echo 1;"], "/usr/bin/php8.2", nil),
      // Issue 45, L5: options with their value attached, or run together, name no script of their own.
      (["python3", "-cimport os", "/home/ann/notes.py"], "/usr/bin/python3.11", nil),
      (["python3", "-mhttp.server", "/home/ann/notes.py"], "/usr/bin/python3.11", "-m http.server"),
      (["python3", "-Bc", "print(1)", "/home/ann/notes.py"], "/usr/bin/python3.11", nil),
      (["python3", "-Bm", "evil", "/home/ann/notes.py"], "/usr/bin/python3.11", "-m evil"),
      (["python3", "-BX", "/home/ann/notes.py", "evil.py"], "/usr/bin/python3.11", "/srv/evil.py"),
      (["bash", "-xc", "echo", "/home/ann/run.sh"], "/usr/bin/bash", nil),
      (["node", "--eval=1", "/home/ann/notes.js"], "/usr/bin/node", nil),
      (["node", "--require=/home/ann/notes.js", "evil.js"], "/usr/bin/node", "/srv/evil.js"),
      (["perl", "-we", "print 1", "/home/ann/p.pl"], "/usr/bin/perl", nil),
      (["python3", "-Bu", "app.py"], "/usr/bin/python3.11", "/srv/app.py"),
    ] as [([String], String, String?)])
  func optionValues(arguments: [String], executable: String, script: String?) {
    #expect(CallerIdentity.script(arguments: arguments, executable: executable, directory: "/srv") == script)
  }

  @Test("keys and names: flatpak:APP-ID, exe:PATH [SCRIPT]; the name a person reads without a desktop file")
  func keys() {
    #expect(CallerIdentity.sandboxed("org.example.Notes").key == "flatpak:org.example.Notes")
    #expect(CallerIdentity.executable("/usr/bin/notes").key == "exe:/usr/bin/notes")
    let script = CallerIdentity.executable("/usr/bin/python3.11", script: "/home/ann/notes.py")
    #expect(script.key == "exe:/usr/bin/python3.11 /home/ann/notes.py")
    #expect(script.fallbackName == "notes.py")
    #expect(CallerIdentity.sandboxed("org.example.Notes").fallbackName == "org.example.Notes")
    #expect(script != CallerIdentity.executable("/usr/bin/python3.11", script: "/home/ann/other.py"))
  }

  @Test("this process, read from /proc: its executable; a PID that does not exist is refused")
  func fromProc() throws {
    let me = try CallerIdentity.of(pid: getpid())
    let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    #expect(me == .executable(executable))
    #expect(throws: CallerIdentityError.unreadable(pid: 0)) { try CallerIdentity.of(pid: 0) }
    #expect(throws: CallerIdentityError.unreadable(pid: Int32.max)) { try CallerIdentity.of(pid: Int32.max) }
  }

  @Test("a process whose root holds /.flatpak-info is named by it; a bad one is refused, not guessed")
  func fakeProc() throws {
    // A /proc of one process made by hand: what the broker reads of a sandboxed caller.
    let proc = FileManager.default.temporaryDirectory.appending(path: "proc-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: proc) }
    let entry = proc.appending(path: "42")
    try FileManager.default.createDirectory(at: entry.appending(path: "root"), withIntermediateDirectories: true)
    try Data("42 (notes) S 1 42 42 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 777 0 0\n".utf8)
      .write(to: entry.appending(path: "stat"))
    try Data("[Application]\nname=org.example.Notes\n".utf8).write(to: entry.appending(path: "root/.flatpak-info"))
    #expect(try CallerIdentity.of(pid: 42, proc: proc.path) == .sandboxed("org.example.Notes"))
    try Data("[Application]\nname=not valid\n".utf8).write(to: entry.appending(path: "root/.flatpak-info"))
    #expect(throws: CallerIdentityError.self) { try CallerIdentity.of(pid: 42, proc: proc.path) }
  }
}

// AppDriver: starts the installed b2c-tasks and drives it as a person would, through X11 (xdotool) and the
// accessibility tree (AT-SPI). Used by the UI tests only.

import Foundation
import TasksTestSupport
import Testing

/// An accessible object of the app's window.
struct AccessibleNode: Decodable, Equatable {
  var role: String
  var name: String
  var states: [String]
  var depth: Int
  /// Whether the object and all its ancestors are visible. GTK 4.8 reports no "showing" state, and hidden widgets
  /// stay in the tree, so the driver works this out from the "visible" states along the path.
  var onScreen: Bool

  /// Whether the object is on screen.
  var isShowing: Bool { onScreen }
}

/// A running b2c-tasks, started from the installed prefix with its own config and data folders.
final class AppDriver {
  let process: ChildProcess
  let home: URL
  private let executable: URL
  private let environment: [String: String?]

  /// Starts the app with fresh XDG config, data and cache folders (or `home`'s, to start it again with the state a
  /// previous run left); `settings`, when given, becomes the user's settings file. GSettings are kept in a key file
  /// there. `environment` adds variables.
  /// `prefix`: another installation than the tests' (a damaged one, say).
  init(
    arguments: [String] = [], settings: Data? = nil, language: String? = nil, home: URL? = nil,
    environment extra: [String: String] = [:], prefix: URL? = nil
  ) throws {
    let prefix = try prefix ?? #require(TestDesktop.installPrefix)
    self.home = try home ?? TestDesktop.temporaryFolder("ui")
    let config = self.home.appending(path: "config")
    if let settings {
      let file = config.appending(path: "io.github.b2ctasks.B2CTasks/settings.plist")
      try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try settings.write(to: file)
    }
    executable = prefix.appending(path: "bin/b2c-tasks")
    var environment: [String: String?] = [
      "XDG_CONFIG_HOME": config.path, "XDG_DATA_HOME": self.home.appending(path: "data").path,
      "XDG_CACHE_HOME": self.home.appending(path: "cache").path, "LANGUAGE": language,
      // gettext ignores LANGUAGE in the "C" locale; C.UTF-8 is always there.
      "LC_ALL": language == nil ? nil : "C.UTF-8",
      "GSETTINGS_BACKEND": "keyfile", "GTK_A11Y": nil, "NO_AT_BRIDGE": nil,
      // Should the app crash, its backtrace goes through GLib's frames too (they have no frame pointers).
      "SWIFT_BACKTRACE": "unwind=precise,threads=crashed",
    ]
    for (name, value) in extra { environment[name] = value }
    self.environment = environment
    process = try ChildProcess(executable, arguments, environment: environment)
  }

  /// Starts the app a second time in the same session, as a launcher click would.
  func launchAgain(_ arguments: [String] = []) throws -> ChildProcess {
    try ChildProcess(executable, arguments, environment: environment)
  }

  /// The X11 ids of all visible windows titled `title`, of any process.
  func visibleWindows(titled title: String = "B2C Tasks") async throws -> [String] {
    let search = try await ChildProcess.run(Tools.xdotool, ["search", "--onlyvisible", "--name", "^\(title)$"])
    return search.output.split(separator: "\n").map(String.init)
  }

  /// The X11 id of the app's visible window titled `title`, once it is mapped. GTK maps several X windows with a
  /// toplevel's title; the toplevel is the largest of them (the one a window manager would focus).
  func waitForWindow(titled title: String = "B2C Tasks") async throws -> String {
    var window: String?
    let found = try await eventually(timeout: .seconds(30)) {
      guard process.isRunning else { return false }
      let search = try await ChildProcess.run(
        Tools.xdotool, ["search", "--onlyvisible", "--pid", "\(process.pid)", "--name", "^\(title)$"])
      var best: (id: String, area: Int)?
      for id in search.output.split(separator: "\n").map(String.init) {
        let geometry = (try? await geometry(id)) ?? [:]
        let area = (geometry["WIDTH"] ?? 0) * (geometry["HEIGHT"] ?? 0)
        if area > 1, area > (best?.area ?? 0) { best = (id, area) }
      }
      window = best?.id
      return window != nil
    }
    try #require(found, "no window \"\(title)\"; app said: \(process.standardError)")
    return try #require(window)
  }

  /// The accessible objects of the app, once the app is on the accessibility bus and shows `until`.
  @discardableResult
  /// `sourceLocation`: the test's line that waited, named in the failure (the helpers pass on their caller's).
  func accessibleTree(
    timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation,
    until condition: ([AccessibleNode]) -> Bool
  ) async throws -> [AccessibleNode] {
    var nodes: [AccessibleNode] = []
    let found = try await eventually(timeout: timeout, every: .milliseconds(200)) {
      guard let dumped = try await dumpTree() else { return false }
      nodes = dumped
      return condition(nodes)
    }
    try #require(
      found,
      """
      accessible tree never matched; app running: \(process.isRunning); last tree (depth, role, name, states; "hidden": it or an ancestor is not visible): \(nodes.filter { !$0.name.isEmpty || !$0.onScreen }.map { "\($0.depth) \($0.role) \($0.name) \($0.states)\($0.onScreen ? "" : " hidden")" })
      app said: \(process.standardError.suffix(3000))
      """, sourceLocation: sourceLocation)
    return nodes
  }

  /// The app's accessible objects now (nil while the app is not on the accessibility bus).
  func dumpTree() async throws -> [AccessibleNode]? {
    let dump = try await ChildProcess.run(Tools.python, [Tools.atspiDriver, "dump", "\(process.pid)"])
    guard dump.status == 0 else { return nil }
    return dump.output.split(separator: "\n").compactMap {
      try? JSONDecoder().decode(AccessibleNode.self, from: Data($0.utf8))
    }
  }

  /// Waits for an accessible object with `role` and `name` to be on screen.
  @discardableResult
  func waitFor(
    role: String, name: String, timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> AccessibleNode {
    let matches = { (node: AccessibleNode) in node.role == role && node.name == name && node.isShowing }
    let nodes = try await accessibleTree(timeout: timeout, sourceLocation: sourceLocation) {
      $0.contains(where: matches)
    }
    return try #require(nodes.first(where: matches))
  }

  /// Gives `window` the keyboard focus, as a window manager does with a newly mapped window (Xvfb has none).
  func focus(window: String) async throws {
    let focus = try await ChildProcess.run(Tools.xdotool, ["windowfocus", "--sync", window])
    try #require(focus.status == 0, "xdotool windowfocus failed: \(focus.error)")
  }

  /// Waits until the object with `role` and `name` is on screen and has keyboard focus (typing before that loses
  /// keystrokes).
  func waitForFocus(role: String, name: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let matches = { (node: AccessibleNode) in
      node.role == role && node.name == name && node.isShowing && node.states.contains("focused")
    }
    try await accessibleTree(sourceLocation: sourceLocation) { $0.contains(where: matches) }
  }

  /// Presses the button named `name` through its accessible action, as a screen-reader user would.
  func press(button name: String) async throws {
    try await press(role: "push button", name: name)
  }

  /// Answers a question with its button `name`: presses it once it takes clicks, and again while the question stays.
  /// The consent question's Allow ignores the first half second, and GTK 4.8 may call it sensitive to AT-SPI before
  /// (seen with an xdotool click: ignored at once, taken a second later); a person clicks again too.
  func pressWhenEnabled(button name: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    for _ in 0..<10 {
      try await waitForSensitive(button: name, true, sourceLocation: sourceLocation)
      try await press(button: name)
      let answered = try await eventually(timeout: .seconds(5), every: .milliseconds(200)) {
        let nodes = try await dumpTree() ?? []
        return !nodes.contains { $0.role == "push button" && $0.name == name && $0.isShowing }
      }
      if answered { return }
    }
    Issue.record("the question stayed after ten presses of \(name)", sourceLocation: sourceLocation)
  }

  /// Performs the default action (click, toggle) of the object with `role` and `name`.
  func press(role: String, name: String) async throws {
    let run = try await ChildProcess.run(Tools.python, [Tools.atspiDriver, "press", "\(process.pid)", role, name])
    if run.status != 0 {
      let dump = try await ChildProcess.run(Tools.python, [Tools.atspiDriver, "dump", "\(process.pid)"])
      let shown = dump.output.split(separator: "\n").compactMap {
        try? JSONDecoder().decode(AccessibleNode.self, from: Data($0.utf8))
      }.filter { $0.isShowing && !$0.name.isEmpty }.map { "\($0.role) \($0.name)" }
      Issue.record("could not press \(role) \(name): \(run.error)\non screen: \(shown)")
      throw CancellationError()
    }
  }

  /// Shows the page of a preferences window whose tab is `tab`, clicking the tab until it says it is the one chosen:
  /// a click while the window still settles only hovers the tab (seen in CI), and a hidden page's objects stay in
  /// the tree as if shown.
  func choosePage(_ tab: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    var seen: [String] = []
    for attempt in 0..<10 {
      // Its accessible action, as a screen reader chooses it; then the mouse, as a person does.
      let run = try await ChildProcess.run(
        Tools.python, [Tools.atspiDriver, "press", "\(process.pid)", "page tab", tab])
      if run.status != 0 || attempt % 2 == 1 { try await click(role: "page tab", name: tab) }
      let chosen = try await eventually(timeout: .seconds(3), every: .milliseconds(200)) {
        let node = try await dumpTree()?.first { $0.role == "page tab" && $0.name == tab }
        seen = node?.states ?? []
        return seen.contains("selected") || seen.contains("checked") || seen.contains("pressed")
      }
      if chosen { return }
    }
    Issue.record("the page tab \(tab) was never chosen (its states: \(seen))", sourceLocation: sourceLocation)
    throw CancellationError()
  }

  /// Waits until no object with `role` and `name` is on screen.
  func waitUntilGone(role: String, name: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    try await accessibleTree(sourceLocation: sourceLocation) { nodes in
      !nodes.contains { $0.role == role && $0.name == name && $0.isShowing }
    }
  }

  /// The screen rectangle of the object with `role` and `name`.
  func extents(role: String, name: String) async throws -> (x: Int, y: Int, width: Int, height: Int) {
    try await waitFor(role: role, name: name)
    let run = try await ChildProcess.run(Tools.python, [Tools.atspiDriver, "extents", "\(process.pid)", role, name])
    try #require(run.status == 0, "no extents for \(role) \(name): \(run.error)")
    let box = try JSONDecoder().decode([String: Int].self, from: Data(run.output.utf8))
    return (try #require(box["x"]), try #require(box["y"]), try #require(box["width"]), try #require(box["height"]))
  }

  /// Clicks the object with `role` and `name` if it is on screen now; false when it is not (a button the app took
  /// away by itself, as the banner's Retry once the automatic retry got through).
  func clickIfShown(role: String, name: String) async throws -> Bool {
    guard let box = try await extentsNow(role: role, name: name) else { return false }
    try await click(x: box.x + box.width / 2, y: box.y + box.height / 2)
    return true
  }

  /// The screen rectangle of the object with `role` and `name` now, if it is there.
  func extentsNow(role: String, name: String) async throws -> (x: Int, y: Int, width: Int, height: Int)? {
    let run = try await ChildProcess.run(Tools.python, [Tools.atspiDriver, "extents", "\(process.pid)", role, name])
    guard run.status == 0, let box = try? JSONDecoder().decode([String: Int].self, from: Data(run.output.utf8)),
      let x = box["x"], let y = box["y"], let width = box["width"], let height = box["height"]
    else { return nil }
    return (x, y, width, height)
  }

  /// Clicks the middle of the object with `role` and `name` with the mouse (GTK 4.8 gives check boxes no
  /// accessible action).
  func click(role: String, name: String, count: Int = 1) async throws {
    let box = try await extents(role: role, name: name)
    try await click(x: box.x + box.width / 2, y: box.y + box.height / 2, count: count)
  }

  /// Moves the pointer to (`x`, `y`) on the screen and clicks the left button `count` times, as a person does.
  func click(x: Int, y: Int, count: Int = 1) async throws {
    let move = try await ChildProcess.run(Tools.xdotool, ["mousemove", "--sync", "\(x)", "\(y)"])
    try #require(move.status == 0, "xdotool mousemove failed: \(move.error)")
    let click = try await ChildProcess.run(
      Tools.xdotool, ["click", "--repeat", "\(count)", "--delay", "80", "1"])
    try #require(click.status == 0, "xdotool click failed: \(click.error)")
  }

  /// Replaces the text of the editable object with `role` and `name` through AT-SPI, as assistive technology does,
  /// once it is on screen (a window just mapped may not have its accessible objects yet).
  func setText(_ text: String, role: String = "text", name: String) async throws {
    try await waitFor(role: role, name: name)
    let run = try await ChildProcess.run(
      Tools.python, [Tools.atspiDriver, "set-text", "\(process.pid)", role, name, text])
    try #require(
      run.status == 0,
      "could not set the text of \(name): \(run.error)\napp said: \(process.standardError.prefix(3000))")
  }

  /// Quits with Ctrl+Q into `window` (nil: into the focused window as it is, an edit in progress left alone), as a
  /// person does, and presses it again (into whatever has the focus) while the app still runs after a while: a
  /// keystroke lost on a busy machine; one more Ctrl+Q to an app whose windows are gone reaches nothing. Answers the
  /// app's exit status, nil if it never ended.
  func quitByKeyboard(window: String?) async throws -> Int32? {
    try await key("ctrl+q", window: window)
    for _ in 0..<2 {
      if let status = await process.waitForExit(timeout: .seconds(15)) { return status }
      try await key("ctrl+q", window: nil)
    }
    return await process.waitForExit(timeout: .seconds(15))
  }

  /// Waits until the text of the object with `role` and `name` reads `text` (what a person typed has arrived).
  func waitForText(_ text: String, role: String = "text", name: String) async throws {
    var last = ""
    let arrived = try await eventually(timeout: .seconds(30), every: .milliseconds(200)) {
      let run = try await ChildProcess.run(Tools.python, [Tools.atspiDriver, "text", "\(process.pid)", role, name])
      guard run.status == 0, let data = run.output.data(using: .utf8),
        let read = try? JSONDecoder().decode([String: String].self, from: data)
      else { return false }
      last = read["text"] ?? ""
      return last == text
    }
    try #require(arrived, "\(name) reads \"\(last)\", not \"\(text)\"")
  }

  /// Types a key combination (xdotool syntax, e.g. `ctrl+q`) into `window` (nil: into the focused window as it is;
  /// focusing a window again makes GTK see focus leave and come back, which ends an edit in progress).
  func key(_ combination: String, window: String?) async throws {
    if let window { try await focus(window: window) }
    let key = try await ChildProcess.run(Tools.xdotool, ["key", "--clearmodifiers", combination])
    try #require(key.status == 0, "xdotool key failed: \(key.error)")
  }

  /// Types `text` into `window` (nil: the focused window) as keystrokes.
  func type(_ text: String, window: String?) async throws {
    if let window { try await focus(window: window) }
    let typed = try await ChildProcess.run(Tools.xdotool, ["type", "--delay", "30", text])
    try #require(typed.status == 0, "xdotool type failed: \(typed.error)")
  }

  /// Saves a screenshot of the whole screen as `name`.png under the test artifacts.
  func screenshot(_ name: String) async throws -> URL {
    let file = TestDesktop.artifacts.appending(path: "\(name).png")
    let shot = try await ChildProcess.run(Tools.importProgram, ["-window", "root", file.path])
    try #require(shot.status == 0, "screenshot failed: \(shot.error)")
    return file
  }

  /// Waits until WebKit has painted B2C's page: the page's area of the window (below the header bar, above the
  /// action bar) is no longer one flat colour. The page reports its load finished before it is drawn.
  func waitForPaintedPage() async throws {
    let probe = TestDesktop.artifacts.appending(path: ".page-probe-\(process.pid).png")
    defer { try? FileManager.default.removeItem(at: probe) }
    let painted = try await eventually(timeout: .seconds(15), every: .milliseconds(250)) {
      let shot = try await ChildProcess.run(
        Tools.importProgram, ["-window", "root", "-crop", "660x400+30+70", probe.path])
      guard shot.status == 0 else { return false }
      let measure = try await ChildProcess.run(Tools.identify, ["-format", "%[fx:standard_deviation]", probe.path])
      return (Double(measure.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 0.02
    }
    try #require(painted, "B2C's page was never drawn")
  }

  /// The size of `window` as the X server has it.
  func windowSize(_ window: String) async throws -> (width: Int, height: Int) {
    var values: [String: Int] = [:]
    _ = await eventually(timeout: .seconds(10)) {
      values = (try? await geometry(window)) ?? [:]
      return values["WIDTH"] != nil
    }
    return (try #require(values["WIDTH"], "no geometry: \(values)"), try #require(values["HEIGHT"]))
  }

  /// `xdotool getwindowgeometry --shell` as numbers (X, Y, WIDTH, HEIGHT, SCREEN).
  private func geometry(_ window: String) async throws -> [String: Int] {
    let run = try await ChildProcess.run(Tools.xdotool, ["getwindowgeometry", "--shell", window])
    var values: [String: Int] = [:]
    for line in run.output.split(separator: "\n") {
      let parts = line.split(separator: "=")
      if parts.count == 2 { values[String(parts[0])] = Int(parts[1]) }
    }
    return values
  }

  /// Resizes `window` as a window manager would.
  func resize(_ window: String, width: Int, height: Int) async throws {
    let run = try await ChildProcess.run(Tools.xdotool, ["windowsize", "--sync", window, "\(width)", "\(height)"])
    try #require(run.status == 0, "xdotool windowsize failed: \(run.error)")
  }

  /// Whether WebKit's libraries are mapped into the app's process.
  func mapsWebKit() throws -> Bool {
    let maps = try #require(readProcFile("/proc/\(process.pid)/maps"))
    try #require(maps.contains("libgtk-4"), "could not read the app's memory map")
    return maps.contains("libwebkitgtk-6.0")
  }

  /// Kills the app if it still runs and waits until it is gone (so the next test's app becomes the primary instance
  /// on D-Bus); keeps the home folder when `keepHome` (for a second start).
  func stop(keepHome: Bool = false) async {
    process.kill()
    _ = await process.waitForExit(timeout: .seconds(10))
    if !keepHome { try? FileManager.default.removeItem(at: home) }
  }

  deinit {
    process.kill()
  }
}

/// Makes `command` (run with the address as its last argument) the default web browser of the desktop whose XDG
/// folders are under `home` (as `AppDriver` lays them out), named `name`.
func installDefaultBrowser(home: URL, name: String, command: String) throws {
  let applications = home.appending(path: "data/applications")
  try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
  let entry = "b2c-test-browser.desktop"
  try Data(
    """
    [Desktop Entry]
    Type=Application
    Name=\(name)
    Exec=\(command) %u
    MimeType=x-scheme-handler/http;x-scheme-handler/https;
    NoDisplay=true
    """.utf8
  ).write(to: applications.appending(path: entry))
  let config = home.appending(path: "config")
  try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
  try Data("[Default Applications]\nx-scheme-handler/http=\(entry)\nx-scheme-handler/https=\(entry)\n".utf8)
    .write(to: config.appending(path: "mimeapps.list"))
}

/// Programs the UI tests use, from Debian's packages.
enum Tools {
  static let xdotool = URL(filePath: "/usr/bin/xdotool")
  static let python = URL(filePath: "/usr/bin/python3")
  static let importProgram = URL(filePath: "/usr/bin/import")
  static let identify = URL(filePath: "/usr/bin/identify")
  static let sqlite3 = URL(filePath: "/usr/bin/sqlite3")
  /// The SQL that gives an owner a default list in the playground's database (a shell function).
  static let defaultListSQL = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appending(path: "Benchmarks/default-list.sh")
  static let atspiDriver = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "atspi_driver.py").path
}

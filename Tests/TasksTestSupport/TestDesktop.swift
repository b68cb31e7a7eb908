// TestDesktop: what the test run provides (display, D-Bus session, keyring, installed app). Any thread.

import Foundation

/// Facts about the desktop session the tests run in.
///
/// `Tests/run-all.sh` runs the tests under Xvfb and `dbus-run-session` with an unlocked gnome-keyring, installs the
/// app into a prefix and sets `B2C_TASKS_TEST_DESKTOP=1`. Tests that need those parts are enabled when they are
/// present; when the variable says they must be, `TestDesktop.isRequired` makes a missing part a failure instead of
/// a skip.
public enum TestDesktop {
  private static var environment: [String: String] { ProcessInfo.processInfo.environment }

  /// Whether the run promised a full desktop (display, session bus, keyring, installed app).
  public static var isRequired: Bool { environment["B2C_TASKS_TEST_DESKTOP"] == "1" }

  /// Whether an X display is set.
  public static var hasDisplay: Bool { !(environment["DISPLAY"] ?? "").isEmpty }

  /// Whether a D-Bus session bus is set (the keyring lives on it).
  public static var hasSessionBus: Bool { !(environment["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty }

  /// The prefix the app was installed into by meson, if any.
  public static var installPrefix: URL? {
    guard let prefix = environment["B2C_TASKS_PREFIX"], !prefix.isEmpty else { return nil }
    return URL(filePath: prefix, directoryHint: .isDirectory)
  }

  /// Whether UI tests can run: a display, a session bus and an installed app.
  public static var canRunApp: Bool { hasDisplay && hasSessionBus && installPrefix != nil }

  /// Where tests leave screenshots and logs for people to look at.
  public static var artifacts: URL {
    let folder =
      environment["B2C_TASKS_ARTIFACTS"].map { URL(filePath: $0, directoryHint: .isDirectory) }
      ?? URL(filePath: FileManager.default.currentDirectoryPath).appending(path: ".build/test-artifacts")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// The folder of the running test binary, where `swift build` also puts the package's other programs.
  public static var binaryFolder: URL {
    URL(filePath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
  }

  /// `scripted-browser.sh`: the "system browser" of the tests, which signs in on the playground's page.
  public static var scriptedBrowser: URL {
    URL(filePath: #filePath).deletingLastPathComponent().appending(path: "scripted-browser.sh")
  }

  /// Where a browser given `address` goes: for the apps' hand-over page (a `file://` address or a path of a page
  /// only the user can read), the address its refresh leads to (nil once the page is gone); any other address as it is.
  public static func handOverTarget(_ address: String) -> URL? {
    let address = address.trimmingCharacters(in: .whitespacesAndNewlines)
    // GIO hands a desktop entry's %u a local file as its path.
    guard let given = address.hasPrefix("/") ? URL(filePath: address) : URL(string: address) else { return nil }
    guard given.isFileURL else { return given }
    guard let page = try? String(contentsOf: given, encoding: .utf8),
      let refresh = page.firstMatch(of: /http-equiv="refresh" content="0; url=([^"]*)"/)
    else { return nil }
    return URL(string: String(refresh.1).replacingOccurrences(of: "&amp;", with: "&"))
  }

  /// A new empty folder under the system's temporary folder.
  public static func temporaryFolder(_ name: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appending(path: "b2c-tasks-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }
}

// swift-tools-version: 6.0
// B2C Tasks: a GNOME client for Azure AD B2C and the sample task API.
//
// The targets show the architecture, from the bottom up:
//   C modules (CGtk, CWebKit, CSecret)  — pkg-config system libraries and tiny shims
//   TasksCore      — UI-free core: settings, OAuth 2.0/OpenID Connect, task API client (Foundation only)
//   TasksKeyring   — the libsecret adapter that keeps tokens in the desktop keyring
//   GtkSupport     — the thin @MainActor layer over GLib/GTK: main-queue bridge, signals, casts, gettext
//   TasksApp       — the `b2c-tasks` windows
import PackageDescription

let package = Package(
  name: "B2CTasks",
  products: [
    .executable(name: "b2c-tasks", targets: ["TasksApp"])
  ],
  targets: [
    // MARK: C libraries
    .systemLibrary(
      name: "CGtk", path: "Sources/CGtk", pkgConfig: "libadwaita-1",
      providers: [.apt(["libgtk-4-dev", "libadwaita-1-dev"])]),
    .systemLibrary(
      name: "CWebKit", path: "Sources/CWebKit", pkgConfig: "webkitgtk-6.0",
      providers: [.apt(["libwebkitgtk-6.0-dev"])]),
    .systemLibrary(
      name: "CSecret", path: "Sources/CSecret", pkgConfig: "libsecret-1",
      providers: [.apt(["libsecret-1-dev"])]),

    // MARK: Core and adapters
    .target(name: "TasksCore"),
    .target(name: "TasksKeyring", dependencies: ["TasksCore", "CSecret"]),
    .target(name: "GtkSupport", dependencies: ["CGtk"]),

    // MARK: Apps
    .executableTarget(
      name: "TasksApp", dependencies: ["TasksCore", "TasksKeyring", "GtkSupport", "CGtk"]),

    // MARK: Tests
    // A test-only program that runs a GApplication main loop and reports what the main-queue bridge did;
    // it is never installed.
    .executableTarget(name: "GtkSupportProbe", dependencies: ["GtkSupport", "CGtk"]),
    // Helpers shared by the test suites: child processes, deadlines, what the test desktop provides.
    .target(name: "TasksTestSupport", path: "Tests/TasksTestSupport"),
    .testTarget(name: "TasksCoreTests", dependencies: ["TasksCore"], resources: [.copy("Fixtures")]),
    .testTarget(name: "GtkSupportTests", dependencies: ["GtkSupport", "CGtk", "TasksTestSupport"]),
    .testTarget(name: "TasksKeyringTests", dependencies: ["TasksKeyring", "TasksTestSupport"]),
    .testTarget(
      name: "TasksAppUITests", dependencies: ["TasksTestSupport"], exclude: ["atspi_driver.py"]),
  ]
)

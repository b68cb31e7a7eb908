// swift-tools-version: 6.0
// B2C Tasks: a GNOME client for Azure AD B2C and the sample task API.
//
// The targets show the architecture, from the bottom up:
//   C modules (CGtk, CSecret, CSoup)  — pkg-config system libraries and tiny shims
//   (the WebKit plugin, libTasksWebView.so, is C built by meson: Sources/TasksWebView)
//   TasksCore      — UI-free core: settings, OAuth 2.0/OpenID Connect, task API client (FoundationEssentials, GLib's Unicode tables)
//   TasksKeyring   — the libsecret adapter that keeps tokens in the desktop keyring
//   GtkSupport     — the thin @MainActor layer over GLib/GTK: main-queue bridge, signals, casts, gettext
//   TasksApp       — the `b2c-tasks` windows
//   B2CPlayground  — `b2c-playground`: a local Azure AD B2C and task API, a second, independent implementation of
//                    the protocol (it shares no OAuth/OIDC code with TasksCore)
import PackageDescription

// b2c-tasks starts as lean as it can (issue 18, Tests/Benchmarks/RESULTS.md). Its own modules put each function in a
// section of its own, so that the linker can lay out the code a start runs (Sources/TasksApp/startup.order, written by
// Tests/Benchmarks/startup-order.sh) in one stretch of pages: the kernel maps code 64 KiB around each page it faults
// in, and scattered start-up code made most of the program resident.
let startupLayout: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-function-sections"])]
// The program links the Swift runtime and FoundationEssentials statically (no libswiftCore.so and ten more libraries
// to load, relocate and bind at every start; only the code used is in the file), with LLD to order its code by the
// start-up order, relative relocations packed (DT_RELR, glibc 2.36) and no symbols exported (nothing looks its symbols
// up; the WebKit plugin it loads is C). The order names functions; what has no name (value witnesses and other
// compiler-made functions, static initializers) is laid out before it by Sources/TasksApp/text-layout.ld, 75 KiB in
// all, instead of where each module's objects fall: one of them run made the kernel map 64 KiB of cold code around
// it (the reminder service had 1.2 MB of such code resident). Release builds through meson-wrap/tools/swift-build.sh
// also give the packages' modules a section per function (Package.swift cannot set their flags), so that the order
// moves the function a start runs, not a whole module's code with it.
func orderedLinking(_ order: String) -> [LinkerSetting] {
  [
    .unsafeFlags(
      [
        "-static-stdlib", "-lFoundationEssentials", "-l_FoundationCollections", "-l_FoundationCShims",
        "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/\(order)",
        "-Xlinker", "--no-warn-symbol-ordering", "-Xlinker", "-T",
        "-Xlinker", "\(Context.packageDirectory)/Sources/TasksApp/text-layout.ld",
      ] + leanLinking)
  ]
}
/// LLD, relative relocations packed and no symbols exported, for b2c-tasks-cli too (it links all of Foundation, so
/// not the order): its 94 789 relative relocations were 2.3 MB of `.rela.dyn` read at every start and its 17 085
/// exported symbols came first in every library's look-ups; `--help` took 10.0 ms, 8.8 ms so linked.
let leanLinking = [
  "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic",
]

let package = Package(
  name: "B2CTasks",
  products: [
    .executable(name: "b2c-tasks", targets: ["TasksApp"]),
    .executable(name: "b2c-tasks-cli", targets: ["TasksCLI"]),
    // The reminder service (`b2c-tasks --background`), installed beside the WebKit plugin: no toolkit.
    .executable(name: "b2c-tasks-reminders", targets: ["TasksReminders"]),
    .executable(name: "b2c-playground", targets: ["PlaygroundMain"]),
    // The task API alone, for a real deployment (SQLite or PostgreSQL, behind a balancer).
    .executable(name: "b2c-tasks-api", targets: ["TasksAPIMain"]),
    // The parsers' fuzzing harness (libFuzzer with -sanitize=fuzzer; a corpus replayer otherwise).
    .executable(name: "b2c-tasks-fuzz", targets: ["TasksFuzz"]),
  ],
  dependencies: [
    .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
    .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
    .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
    // X.509 (already built for JWTKit): the tests' throwaway certificate authority.
    .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
    .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
    // PostgreSQL for b2c-tasks-api (a connection pool; SQLite stays through GRDB).
    .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    // Graceful shutdown of servers run in the background (already built for Hummingbird).
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    // The task API's reads of issuers' metadata and keys (already built for Hummingbird's testing): a body's size
    // bounded, which FoundationNetworking's URLSession could not do.
    .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
  ],
  targets: [
    // MARK: C libraries
    .systemLibrary(
      name: "CGtk", path: "Sources/CGtk", pkgConfig: "libadwaita-1",
      providers: [.apt(["libgtk-4-dev", "libadwaita-1-dev"])]),
    .systemLibrary(
      name: "CSecret", path: "Sources/CSecret", pkgConfig: "libsecret-1",
      providers: [.apt(["libsecret-1-dev"])]),
    .systemLibrary(
      name: "CSoup", path: "Sources/CSoup", pkgConfig: "libsoup-3.0", providers: [.apt(["libsoup-3.0-dev"])]),
    // GLib alone: the core's Unicode folding for searches (the core links no UI library).
    .systemLibrary(name: "CGLib", path: "Sources/CGLib", pkgConfig: "glib-2.0", providers: [.apt(["libglib2.0-dev"])]),
    // GIO with its Unix parts (GApplication, GNotification, descriptors): the reminder service, which loads no toolkit.
    .systemLibrary(
      name: "CGio", path: "Sources/CGio", pkgConfig: "gio-unix-2.0", providers: [.apt(["libglib2.0-dev"])]),
    // libxml2's SAX2 reader for CalDAV's request bodies (the task API only).
    .systemLibrary(
      name: "CXML2", path: "Sources/CXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
    // gettext from glibc (libintl.h is not in Swift's Glibc module).
    .systemLibrary(name: "CIntl", path: "Sources/CIntl"),
    // The C ABI between the app and its web-view plugin (a header both sides import).
    .systemLibrary(name: "CWebViewABI", path: "Sources/CWebViewABI"),

    // MARK: Core and adapters
    .target(
      name: "TasksCore",
      dependencies: [
        "CIntl", "CGLib", "TasksCalendar", .product(name: "JWTKit", package: "jwt-kit"),
        .product(name: "Crypto", package: "swift-crypto"),
      ], swiftSettings: startupLayout),
    // The planner's calendar values (a due date, a time, a repeat rule and its occurrences): pure Swift, shared by
    // the core and the task service.
    .target(name: "TasksCalendar", swiftSettings: startupLayout),
    .target(name: "TasksKeyring", dependencies: ["TasksCore", "CSecret"], swiftSettings: startupLayout),
    // The core's HTTP over libsoup 3 (GIO): the GNOME app's, without libcurl, OpenSSL or FoundationNetworking.
    .target(name: "TasksSoup", dependencies: ["TasksCore", "CSoup"], swiftSettings: startupLayout),
    // The core's HTTP over URLSession: the command-line tool's.
    .target(name: "TasksURLSession", dependencies: ["TasksCore"]),
    // An in-memory SessionStore for tests of the session's flows and refresh without a desktop (never in an app).
    .target(name: "TasksCoreTesting", dependencies: ["TasksCore"]),
    // The signed-in account without a UI: the session, the account's files, the list's operations, one sign-out.
    .target(name: "TasksAccount", dependencies: ["TasksCore"], swiftSettings: startupLayout),
    // GLib and GIO without a toolkit: the main-queue bridge, signals, variants (the reminder service's, and
    // GtkSupport's, which re-exports it).
    .target(name: "GLibSupport", dependencies: ["CGio"], swiftSettings: startupLayout),
    .target(name: "GtkSupport", dependencies: ["GLibSupport", "CGtk", "TasksCalendar"], swiftSettings: startupLayout),
    // The RFC 8252 loopback redirect for signing in with the system browser (CLI, and the app's "Open in browser"),
    // served by libsoup: the GNOME app links no SwiftNIO.
    .target(name: "TasksLoopback", dependencies: ["TasksCore", "TasksSoup"], swiftSettings: startupLayout),

    // MARK: Apps
    .executableTarget(
      name: "TasksApp",
      dependencies: [
        "TasksCore", "TasksAccount", "TasksKeyring", "TasksSoup", "TasksLoopback", "GtkSupport", "CGtk", "CWebViewABI",
      ],
      exclude: ["startup.order", "text-layout.ld"], swiftSettings: startupLayout,
      linkerSettings: orderedLinking("TasksApp/startup.order")),

    // Linked as b2c-tasks is, with the code its reads of the feed run laid out first (service.order, written by
    // Tests/Benchmarks/reminders-order.sh): what stays resident while it waits is that code, not pages around it.
    .executableTarget(
      name: "TasksReminders", dependencies: ["TasksCore", "TasksKeyring", "TasksSoup", "GLibSupport", "CGio"],
      exclude: ["service.order"], swiftSettings: startupLayout,
      linkerSettings: orderedLinking("TasksReminders/service.order")),
    .executableTarget(name: "TasksFuzz", dependencies: ["TasksCore", "TasksURLSession", "TaskService"]),
    .executableTarget(
      name: "TasksCLI",
      dependencies: [
        "TasksCore", "TasksAccount", "TasksKeyring", "TasksLoopback", "TasksSoup", "GLibSupport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      linkerSettings: [.unsafeFlags(leanLinking)]),

    // MARK: The task API and the playground
    // The task API (routes, bearer validation, storage): served by b2c-tasks-api and, in-process, by the playground.
    .target(
      name: "TaskService",
      dependencies: [
        "TasksCalendar", "CXML2",
        .product(name: "Hummingbird", package: "hummingbird"),
        // bcrypt for the app passwords CalDAV clients sign in with.
        .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "JWTKit", package: "jwt-kit"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ],
      // The API's OpenAPI description, checked against the running server by Tests/OpenAPI/check.sh.
      exclude: ["openapi.yaml"]),
    // The task API's PostgreSQL store (only b2c-tasks-api links PostgresNIO; the playground stays on SQLite).
    .target(
      name: "TaskServicePostgres",
      dependencies: [
        "TaskService", .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    .executableTarget(
      name: "TasksAPIMain",
      dependencies: [
        "TaskService", "TaskServicePostgres", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Hummingbird", package: "hummingbird"),
      ]),
    .target(
      name: "B2CPlayground",
      dependencies: [
        "TaskService",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTLS", package: "hummingbird"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
        .product(name: "JWTKit", package: "jwt-kit"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "_CryptoExtras", package: "swift-crypto"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    .executableTarget(
      name: "PlaygroundMain",
      dependencies: [
        "B2CPlayground", "TaskService", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),

    // MARK: Tests
    // A test-only program that runs a GApplication main loop and reports what the main-queue bridge did;
    // it is never installed.
    .executableTarget(name: "GtkSupportProbe", dependencies: ["GtkSupport", "CGtk"]),
    // Helpers shared by the test suites: child processes, deadlines, what the test desktop provides, certificates.
    .target(
      name: "TasksTestSupport",
      dependencies: [
        .product(name: "X509", package: "swift-certificates"), .product(name: "SwiftASN1", package: "swift-asn1"),
        .product(name: "Crypto", package: "swift-crypto"),
      ], path: "Tests/TasksTestSupport", exclude: ["scripted-browser.sh", "hand-over-target.sh"]),
    .testTarget(
      name: "TasksCoreTests",
      dependencies: [
        "TasksCore", "TasksURLSession", "TasksTestSupport", .product(name: "Crypto", package: "swift-crypto"),
      ],
      exclude: ["Planner/dateparser_read.py"], resources: [.copy("Fixtures")]),
    .testTarget(name: "GtkSupportTests", dependencies: ["GtkSupport", "CGtk", "TasksCalendar", "TasksTestSupport"]),
    .testTarget(name: "TasksKeyringTests", dependencies: ["TasksKeyring", "TasksTestSupport"]),
    .testTarget(
      name: "B2CPlaygroundTests",
      dependencies: [
        "B2CPlayground", "TaskServicePostgres", "TasksTestSupport", .product(name: "JWTKit", package: "jwt-kit"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    .testTarget(
      name: "TasksSessionTests",
      dependencies: [
        "TasksCore", "TasksCoreTesting", "TasksAccount", "TasksKeyring", "TasksLoopback", "TasksURLSession",
        "TasksSoup",
        "B2CPlayground", "TaskService", "TasksTestSupport",
        .product(name: "JWTKit", package: "jwt-kit"),
        .product(name: "Logging", package: "swift-log"), .product(name: "_CryptoExtras", package: "swift-crypto"),
        .product(name: "Hummingbird", package: "hummingbird"),
      ]),
    .testTarget(
      name: "TasksAppUITests", dependencies: ["TasksTestSupport"],
      exclude: ["atspi_driver.py", "broker_client.py", "download_provider.py", "foreign_drag.c"]),
  ]
)

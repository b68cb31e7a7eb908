// Application, AppInfo: typed views of the GApplication the app runs and of the desktop's installed apps. Main actor.

import CGtk
import Glibc

/// A `GApplication` (the app's `AdwApplication`): its options, its lifetime and its D-Bus connection. A view: it
/// never owns the instance.
public struct Application: GPointer {
  public let application: UnsafeMutablePointer<GApplication>
  public var gpointer: gpointer { UnsafeMutableRawPointer(application) }
  public init(_ instance: some GPointer) { application = instance.cast(to: g_application_get_type()) }

  /// Keeps the application running until the answer is called (once).
  @MainActor
  public func hold() -> @MainActor () -> Void {
    g_application_hold(application)
    var released = false
    return { [application] in
      guard !released else { return }
      released = true
      g_application_release(application)
    }
  }

  /// Ends the main loop.
  @MainActor
  public func quit() { g_application_quit(application) }

  /// Its windows (a GtkApplication's), the most recently focused first.
  @MainActor
  public var windows: [Window] {
    var windows: [Window] = []
    var node = gtk_application_get_windows(application.cast(to: gtk_application_get_type()))
    while let current = node {
      if let window = current.pointee.data { windows.append(Window(window)) }
      node = current.pointee.next
    }
    return windows
  }

  /// Whether D-Bus started it as a service (`--gapplication-service`).
  @MainActor
  public var isService: Bool {
    g_application_get_flags(application).rawValue & G_APPLICATION_IS_SERVICE.rawValue != 0
  }

  /// How long, in milliseconds, it stays after its last hold is released (0: it quits at once).
  @MainActor
  public var inactivityTimeout: UInt32 {
    get { g_application_get_inactivity_timeout(application) }
    nonmutating set { g_application_set_inactivity_timeout(application, newValue) }
  }

  /// Its session-bus connection, once registered (nil before, or without a bus).
  @MainActor
  public var dbusConnection: OpaquePointer? { g_application_get_dbus_connection(application) }

  /// Adds the command-line option `--NAME` (`takesFile`: `--NAME FILE`, else a switch), described by `help`.
  @MainActor
  public func addOption(_ name: String, help: String, takesFile argument: String? = nil) {
    g_application_add_main_option(
      application, name, 0, G_OPTION_FLAG_NONE, argument == nil ? G_OPTION_ARG_NONE : G_OPTION_ARG_FILENAME, help,
      argument)
  }

  /// Runs `handler` with the parsed options before the application starts (GApplication's
  /// `handle-local-options`): it answers an exit status to stop there, or nil to go on.
  @MainActor
  public func onLocalOptions(_ handler: @escaping @MainActor (Options) -> Int32?) {
    Signal.connectReturningInt(application, "handle-local-options") { options in
      guard let options else { return -1 }
      return handler(Options(dictionary: options.assumingMemoryBound(to: GVariantDict.self))) ?? -1
    }
  }

  /// Runs the main loop with `arguments` (the program's own first); answers the exit status.
  @MainActor
  public func run(_ arguments: [String]) -> Int32 {
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
    defer { argv.forEach { free($0) } }
    return argv.withUnsafeMutableBufferPointer {
      g_application_run(application, Int32(arguments.count), $0.baseAddress)
    }
  }

  /// The options given on the command line.
  public struct Options {
    let dictionary: UnsafeMutablePointer<GVariantDict>

    /// Whether `--NAME` was given.
    public func contains(_ name: String) -> Bool { g_variant_dict_contains(dictionary, name) != 0 }

    /// The file named by `--NAME FILE`, if given.
    public func file(_ name: String) -> String? {
      guard let value = g_variant_dict_lookup_value(dictionary, name, nil) else { return nil }
      defer { g_variant_unref(value) }
      return String(cString: g_variant_get_bytestring(value))
    }
  }
}

/// An app installed on the desktop, from its desktop entry (`GAppInfo`). Holds a reference while it lives.
public final class AppInfo {
  private let info: OpaquePointer

  private init(retaining info: OpaquePointer) {
    g_object_ref(info.gpointer)
    self.info = info
  }

  deinit { g_object_unref(info.gpointer) }

  /// Every app the desktop knows (`g_app_info_get_all`).
  public static func all() -> [AppInfo] {
    let list = g_app_info_get_all()
    defer { g_list_free_full(list) { g_object_unref($0) } }
    var apps: [AppInfo] = []
    var item = list
    while let node = item {
      if let data = node.pointee.data { apps.append(AppInfo(retaining: OpaquePointer(data))) }
      item = node.pointee.next
    }
    return apps
  }

  /// The entry's id (`NAME.desktop`).
  public var id: String? { g_app_info_get_id(info).map { String(cString: $0) } }

  /// The name people see.
  public var displayName: String { String(cString: g_app_info_get_display_name(info)) }

  /// The command line it starts with.
  public var commandLine: String? { g_app_info_get_commandline(info).map { String(cString: $0) } }

  /// Its program as the entry names it.
  public var executable: String? { g_app_info_get_executable(info).map { String(cString: $0) } }

  /// Its icon (a `GIcon`, with a reference of the caller's: release it with `g_object_unref`), if it names one.
  public func retainedIcon() -> OpaquePointer? {
    guard let icon = g_app_info_get_icon(info) else { return nil }
    g_object_ref(icon.gpointer)
    return icon
  }

  /// The real path of `program` (a name found on `PATH`, or a path), links resolved; nil when there is none.
  public static func resolve(_ program: String) -> String? {
    guard let found = g_find_program_in_path(program) else { return nil }
    defer { g_free(found) }
    guard let real = realpath(found, nil) else { return nil }
    defer { free(real) }
    return String(cString: real)
  }
}

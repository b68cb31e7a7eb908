// TasksApplication: the b2c-tasks AdwApplication: options, app-wide actions, the main window. Main actor.

import CGtk
import FoundationEssentials
import Glibc
import GtkSupport
import TasksCore

/// The B2C Tasks application: single instance (a second launch presents the running window), `--settings FILE`,
/// app-wide actions (`app.quit` on Ctrl+Q, `app.about`) and the main window.
@MainActor
final class TasksApplication {
  private let installation: Installation
  private let app: UnsafeMutablePointer<AdwApplication>
  private var settingsPath: String?
  private var startupLoad: Result<StartupLoad, SettingsError>?
  private var mainWindow: MainWindow?

  init(installation: Installation) {
    self.installation = installation
    app = adw_application_new(Installation.appID, G_APPLICATION_DEFAULT_FLAGS)
    g_application_add_main_option(
      app.application, "settings", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_FILENAME,
      tr("Read settings from FILE instead of the user's settings"), tr("FILE"))
    g_application_add_main_option(
      app.application, "version", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE, tr("Show the version and exit"), nil)
    Signal.connectReturningInt(app, "handle-local-options") { [unowned self] options in
      self.readOptions(options)
    }
    Signal.connect(app, "startup") { [unowned self] in self.startUp() }
    Signal.connect(app, "activate") { [unowned self] in self.activate() }
  }

  /// Runs the GLib main loop until the application quits; returns the exit status.
  func run(arguments: [String]) -> Int32 {
    guard loadResources() else { return 1 }
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
    defer { argv.forEach { free($0) } }
    return argv.withUnsafeMutableBufferPointer { buffer in
      g_application_run(app.application, Int32(arguments.count), buffer.baseAddress)
    }
  }

  /// Registers the GResource with the `.ui` files; the app cannot show anything without it.
  private func loadResources() -> Bool {
    let path = installation.resourceBundle.path(percentEncoded: false)
    var error: UnsafeMutablePointer<GError>?
    guard let resource = g_resource_load(path, &error) else {
      let reason = error.map { String(cString: $0.pointee.message) } ?? ""
      if let error { g_error_free(error) }
      Self.complain("cannot load \(path): \(reason)\nInstall B2C Tasks with meson (see README.md).")
      return false
    }
    g_resources_register(resource)
    return true
  }

  private func readOptions(_ options: UnsafeMutableRawPointer?) -> Int32 {
    if let options, g_variant_dict_contains(options.assumingMemoryBound(to: GVariantDict.self), "version") != 0 {
      print("b2c-tasks \(Installation.version)")
      return 0  // done: exit with success
    }
    if let options,
      let value = g_variant_dict_lookup_value(options.assumingMemoryBound(to: GVariantDict.self), "settings", nil)
    {
      settingsPath = String(cString: g_variant_get_bytestring(value))
      g_variant_unref(value)
    }
    return -1  // go on with the default handling
  }

  private func startUp() {
    // Quit closes the window as its close button does (saving its state and carrying out a deletion whose Undo
    // toast still shows); the application ends when the last window and pending request are gone.
    Actions.add("quit", to: app) { [unowned self] in
      if let mainWindow = self.mainWindow {
        mainWindow.close()
      } else {
        g_application_quit(self.app.application)
      }
    }
    Actions.add("about", to: app) { [unowned self] in self.showAbout() }
    Actions.setAccelerators(app, for: "app.quit", ["<Primary>q"])
    // The keyring and the task service are asked now, on other threads, while GTK builds and paints the window.
    let locator = SettingsLocator()
    startupLoad = Result { () throws(SettingsError) in
      StartupLoad(settings: try locator.load(locator.source(commandLinePath: settingsPath)))
    }
    if case .failure(let error) = startupLoad {
      Self.complain("\(error)")
    }
  }

  /// Writes `message` to standard error as one line of b2c-tasks's.
  private static func complain(_ message: String) {
    var line = "b2c-tasks: \(message)\n"
    line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
  }

  private func activate() {
    if let mainWindow {
      mainWindow.present()
      return
    }
    guard let startupLoad else { return }
    let window = MainWindow(application: app, installation: installation, startup: startupLoad)
    mainWindow = window
    window.presentWhenReady(within: .milliseconds(500))
  }

  private func showAbout() {
    let about = adw_about_window_new()!
    let window = OpaquePointer(about.gpointer)
    adw_about_window_set_application_name(window, tr("B2C Tasks"))
    adw_about_window_set_application_icon(window, Installation.appID)
    adw_about_window_set_version(window, Installation.version)
    adw_about_window_set_developer_name(window, tr("The B2C Tasks developers"))
    adw_about_window_set_comments(window, tr("Sign in with Azure AD B2C and manage your tasks"))
    adw_about_window_set_license_type(window, GTK_LICENSE_GPL_3_0)
    adw_about_window_set_website(window, "https://github.com/b2ctasks/b2c-tasks")
    adw_about_window_set_issue_url(window, "https://github.com/b2ctasks/b2c-tasks/issues")
    adw_about_window_set_copyright(window, "© 2026 The B2C Tasks developers")
    withCStringArray(["The B2C Tasks developers https://github.com/b2ctasks/b2c-tasks"]) { developers in
      adw_about_window_set_developers(window, UnsafeMutablePointer(mutating: developers))
    }
    // Translators: your names, one per line, shown in the About window's credits.
    adw_about_window_set_translator_credits(window, tr("translator-credits"))
    withCStringArray(["Microsoft's Azure AD B2C iOS sample (the app this one is reborn from)"]) { names in
      adw_about_window_add_credit_section(window, tr("Based on"), UnsafeMutablePointer(mutating: names))
    }
    if let parent = mainWindow?.parentWindow {
      gtk_window_set_transient_for(about.window, parent)
    }
    gtk_window_present(about.window)
  }
}

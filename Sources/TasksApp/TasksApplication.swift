// TasksApplication: the b2c-tasks AdwApplication: options, app-wide actions, the main window. Main actor.

import CGtk
import FoundationEssentials
import Glibc
import GtkSupport
import TasksAccount
import TasksCore
import TasksKeyring
import TasksSoup

/// The B2C Tasks application: single instance (a second launch presents the running window), `--settings FILE`,
/// app-wide actions (`app.quit` on Ctrl+Q, `app.about`, `app.preferences`), the account (`AccountSession`: the
/// session, its files, its list, the one sign-out), the main window that shows it and the sign-in broker
/// (`BrokerBus`). Started by D-Bus for the broker (`--gapplication-service`), it shows no window and stays a while
/// after the last call.
@MainActor
final class TasksApplication {
  private let installation: Installation
  private let app: UnsafeMutablePointer<AdwApplication>
  private var settingsPath: String?
  /// The settings, or why they cannot be used.
  private var settings: Result<AppSettings, SettingsError>?
  /// The account of the settings, shown by the window and lent by the broker.
  private var account: AccountSession?
  private var mainWindow: MainWindow?
  private let consents = ConsentStore()
  private var broker: BrokerBus?
  private var preferences: PreferencesWindow?
  /// The reminder service's autostart entry and the Preferences switch (made once the planner is read).
  private lazy var reminders = BackgroundReminders(installation: installation)
  /// How long the broker, started as a service, stays after its last call.
  private static let serviceLinger: UInt32 = 300_000

  init(installation: Installation) {
    self.installation = installation
    app = adw_application_new(Installation.appID, G_APPLICATION_DEFAULT_FLAGS)
    application.addOption(
      "settings", help: tr("Read settings from FILE instead of the user's settings"), takesFile: tr("FILE"))
    application.addOption("version", help: tr("Show the version and exit"))
    application.onLocalOptions { [unowned self] options in self.readOptions(options) }
    Signal.connect(app, "startup") { [unowned self] in self.startUp() }
    Signal.connect(app, "activate") { [unowned self] in self.activate() }
  }

  /// The application as GApplication sees it.
  private var application: Application { Application(app) }

  /// Runs the GLib main loop until the application quits; returns the exit status.
  func run(arguments: [String]) -> Int32 {
    guard loadResources() else { return 1 }
    return application.run(arguments)
  }

  /// Registers the GResource with the `.ui` files; the app cannot show anything without it.
  private func loadResources() -> Bool {
    let path = installation.resourceBundle.path(percentEncoded: false)
    if let reason = Resources.register(path) {
      Self.complain("cannot load \(path): \(reason)\nInstall B2C Tasks with meson (see README.md).")
      return false
    }
    return true
  }

  /// `--version` prints the version and ends the program (status 0); `--settings FILE` is kept for the start.
  private func readOptions(_ options: Application.Options) -> Int32? {
    if options.contains("version") {
      print("b2c-tasks \(Installation.version)")
      return 0
    }
    settingsPath = options.file("settings")
    return nil
  }

  private func startUp() {
    // Quit closes the windows as their close buttons do (the main window's dialogs first: a task's details keep
    // what was typed; then the main window saves its state and carries out a deletion whose Undo toast still
    // shows), then any other (a consent dialog, which is then refused); the application ends when the last window
    // and pending request are gone.
    Actions.add("quit", to: app) { [unowned self] in
      guard let mainWindow = self.mainWindow else { return self.application.quit() }
      mainWindow.close()
      for window in self.application.windows { window.close() }
    }
    Actions.add("about", to: app) { [unowned self] in self.showAbout() }
    Actions.add("preferences", to: app) { [unowned self] in self.showPreferences() }
    // A reminder's notification clicked (the reminder service asks, starting the app through D-Bus if need be).
    Actions.add("show-task", parameter: "s", to: app) { [unowned self] target in
      self.activate()
      if let id = UUID(uuidString: target) { self.mainWindow?.openTask(id) }
    }
    Actions.setAccelerators(app, for: "app.quit", ["<Primary>q"])
    Actions.setAccelerators(app, for: "app.preferences", ["<Primary>comma"])
    let locator = SettingsLocator()
    settings = Result { () throws(SettingsError) in try locator.load(locator.source(commandLinePath: settingsPath)) }
    switch settings {
    case .success(let settings):
      let account = AccountSession(
        session: Session(settings: settings, store: KeyringSessionStore(), http: .soup()), host: self)
      self.account = account
      account.planner.onSynced = { [unowned self] shown, edited in self.reminders.synced(shown, edited: edited) }
      // A sign-out here: the reminder service forgets the account and withdraws its notifications now.
      account.observe { event in
        if case .signedOut = event { BackgroundReminders.tellService() }
      }
      startBroker(account.session)
    case .failure(let error):
      Self.complain("\(error)")
    case nil:
      break
    }
    if application.isService {
      // Started for the broker: no window; the broker stays a while after its last call.
      application.inactivityTimeout = Self.serviceLinger
      application.hold()()
    }
  }

  /// Writes `message` to standard error as one line of b2c-tasks's.
  private static func complain(_ message: String) {
    var line = "b2c-tasks: \(message)\n"
    line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
  }

  private func activate() {
    // A window makes it an app again (the launcher starts it through D-Bus as a service too): it quits with its
    // last window, as GNOME's apps do, not five minutes later.
    application.inactivityTimeout = 0
    if let mainWindow {
      mainWindow.present()
      return
    }
    guard let settings else { return }
    // The keyring and the task service are asked now, on other threads, while GTK builds and paints the window.
    let startup: Result<(AccountSession, StartupLoad), SettingsError>
    switch (settings, account) {
    case (.failure(let error), _): startup = .failure(error)
    case (.success, let account?): startup = .success((account, StartupLoad(session: account.session)))
    case (.success, nil): return
    }
    // A closed window owns nothing (the account carries on its work): a new one opens next.
    let window = MainWindow(application: app, installation: installation, startup: startup) { [unowned self] in
      self.mainWindow = nil
    }
    mainWindow = window
    window.presentWhenReady(within: .milliseconds(500))
  }

  private func showAbout() {
    let facts = AboutWindow.Facts(
      applicationName: tr("B2C Tasks"), iconName: Installation.appID, version: Installation.version,
      developerName: tr("The B2C Tasks developers"), comments: tr("Sign in with Azure AD B2C and manage your tasks"),
      website: "https://github.com/b2ctasks/b2c-tasks", issueURL: "https://github.com/b2ctasks/b2c-tasks/issues",
      copyright: "© 2026 The B2C Tasks developers",
      developers: ["The B2C Tasks developers https://github.com/b2ctasks/b2c-tasks"],
      // Translators: your names, one per line, shown in the About window's credits.
      translatorCredits: tr("translator-credits"),
      credits: [(tr("Based on"), ["Microsoft's Azure AD B2C iOS sample (the app this one is reborn from)"])])
    AboutWindow.new(facts, parent: mainWindow?.asParent).asWindow.present()
  }

  private func showPreferences() {
    let window = PreferencesWindow(
      parent: mainWindow?.asParent, consents: consents, reminders: reminders, planner: account?.planner)
    preferences = window
    window.present()
  }
}

// MARK: The broker

extension TasksApplication: BrokerHost {
  /// The broker owns its name on a connection of its own, which exports nothing but the broker: on GApplication's
  /// connection the name would also answer `org.gtk.Actions` (Sign Out, Delete Completed…) to any app allowed to
  /// talk to the broker, a sandboxed one included. The application is held until the broker is on the bus, so a
  /// start by D-Bus for a call does not end first.
  private func startBroker(_ session: Session) {
    guard application.dbusConnection != nil else { return }  // --gapplication-service or not, no bus, no broker
    let core = Broker(session: session, consents: consents) { [weak self] caller, account in
      await self?.askConsent(caller, account) ?? .none
    }
    let release = application.hold()
    Task {
      defer { release() }
      switch await openSessionBusConnection() {
      case .success(let connection): broker = BrokerBus(connection: connection, broker: core, host: self)
      case .failure(let failure): b2c_debug("broker: no connection of its own: \(failure.message)")
      }
    }
  }

  private func askConsent(_ caller: BrokerCaller, _ account: BrokerAccount) async -> Broker.Answer {
    let answer = await ConsentDialog.ask(
      caller, icon: broker?.callers.icon(for: caller.identity), account: account, parent: mainWindow?.asParent,
      application: application)
    Task { await preferences?.reload() }  // after the answer is recorded
    return answer
  }

  func holdApplication() -> @MainActor () -> Void {
    application.hold()
  }

  func signInForBroker() async throws(BrokerError) -> Account {
    guard let account else {
      throw .failed(tr("B2C Tasks' settings cannot be used; open B2C Tasks to see why."))
    }
    do { if let signedIn = try await account.session.restore() { return signedIn } } catch { throw BrokerError(error) }
    activate()
    guard let signedIn = await account.nextSignIn() else { throw .cancelled }
    return signedIn
  }

  /// The account's one sign-out, with a window or without; a sign-in made in the browser is ended there too.
  func signOutForBroker() async throws(SessionError) {
    guard let account else { return }
    let logout = try await account.signOut()
    if let logout, logout.inBrowser { _ = Browser.open(logout.url, parent: mainWindow?.parentWindow) }
  }
}

// MARK: The account's host

extension TasksApplication: AccountHost {
  func whenIdle(_ body: @escaping @MainActor () async -> Void) { Idle.run { Task { await body() } } }

  var networkAvailable: Bool { NetworkMonitor.isAvailable }

  func onNetworkChange(_ body: @escaping @MainActor () -> Void) { NetworkMonitor.onChange(body) }

  func debug(_ message: String) { b2c_debug(message) }
}

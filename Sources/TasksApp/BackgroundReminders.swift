// BackgroundReminders: the app's side of the reminder service (b2c-tasks-reminders): the autostart entry written
// once the user has a reminder and the Preferences switch is on, the service started and told of edits, and both
// ended when the switch is turned off. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// Keeps the reminder service running while the user has reminders and wants them with the window closed.
///
/// - The switch (GSettings `reminders-in-background`) is on by default; the autostart entry is written the first
///   time the planner shows a task with a reminder to come (a user without reminders gets no background service).
/// - After an edit made in the window has reached the service, the reminder service is asked to read the feed at
///   once (`app.refresh`; started, with this program's environment, if it is not running), so that a reminder set
///   for the next minute fires on time, not at its next read a minute later.
/// - Turning the switch off removes the entry and ends the service (`app.quit`), which withdraws its notifications;
///   turning it on writes the entry and starts the service.
@MainActor
final class BackgroundReminders {
  private typealias Service = AppIdentity.Reminders
  private let settings: WindowState?
  private let entry: AutostartEntry
  /// The command the entry starts: this program, where it is installed.
  private let program = URL(filePath: "/proc/self/exe").resolvingSymlinksInPath().path(percentEncoded: false)

  init(installation: Installation, environment: [String: String] = ProcessInfo.processInfo.environment) {
    settings = WindowState(schemaDirectory: installation.schemaDirectory)
    entry = AutostartEntry(environment: environment)
    var first = true
    settings?.watch(.remindersInBackground) { [unowned self] in
      defer { first = false }
      if !first { self.switched(to: self.isOn) }
    }
  }

  /// The Preferences switch.
  var isOn: Bool { settings?.bool(.remindersInBackground) ?? true }

  /// Keeps `property` of `object` (the Preferences switch's "active") and the setting equal.
  func bind(_ object: some GPointer, property: String) {
    settings?.bind(.remindersInBackground, to: object, property: property)
  }

  /// What the planner shows after a read of the feed (`edited`: one that followed an edit made here).
  func synced(_ shown: PlannerShown, edited: Bool) {
    guard isOn else { return }
    if !entry.exists {
      // (Most tasks have no reminder: their times are not reckoned.)
      guard shown.tasks.contains(where: { !$0.reminders.isEmpty && !$0.reminderTimes.isEmpty }) else { return }
      switched(to: true)
    } else if edited {
      startOrTell()
    }
  }

  /// Asks the service, if it runs, to read the keyring and the feed now (after a sign-out: it withdraws the
  /// account's notifications).
  static func tellService() {
    ApplicationLink.activate(appID: Service.appID, action: Service.Action.refresh.rawValue, start: false)
  }

  /// Asks the running service to read the feed now; starts it (`b2c-tasks --background`, with this program's
  /// environment, as the autostart entry would) when it does not run. Nothing waits for the bus.
  private func startOrTell() {
    ApplicationLink.activateIfRunning(appID: Service.appID, action: Service.Action.refresh.rawValue) { [program] in
      Self.start(program)
    }
  }

  private static func start(_ program: String) {
    var error: UnsafeMutablePointer<GError>?
    var argv = [strdup(program), strdup("--background"), nil]
    defer { argv.forEach { free($0) } }
    let started = g_spawn_async(nil, &argv, nil, G_SPAWN_DEFAULT, nil, nil, nil, &error)
    if started == 0, let error {
      b2c_debug("reminders: b2c-tasks --background did not start: \(String(cString: error.pointee.message))")
      g_error_free(error)
    }
  }

  private func switched(to on: Bool) {
    if on {
      do throws(AtomicFileError) { try entry.write(program: program) } catch {
        b2c_debug("reminders: the autostart entry could not be written: \(error)")
      }
      startOrTell()
    } else {
      entry.remove()
      ApplicationLink.activate(appID: Service.appID, action: Service.Action.quit.rawValue, start: false)
    }
  }
}

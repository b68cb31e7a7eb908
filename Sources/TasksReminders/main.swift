// The b2c-tasks-reminders program (`b2c-tasks --background` starts it): the reminder service, with GLib and GIO but
// no toolkit, so that waiting for a reminder costs little memory. GLib owns the main thread.

import CGio
import FoundationEssentials
import GLibSupport
import TasksCore
import TasksKeyring
import TasksSoup

mallopt(M_ARENA_MAX, 2)
MainQueueBridge.install()
let executable = URL(filePath: "/proc/self/exe").resolvingSymlinksInPath()
// PREFIX/lib/b2c-tasks/b2c-tasks-reminders (installed) or .build/debug/b2c-tasks-reminders (a developer's build).
let prefix = executable.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
Gettext.setUp(
  domain: AppIdentity.gettextDomain, localeDirectory: prefix.appending(path: "share/locale").path(percentEncoded: false)
)

let locator = SettingsLocator()
let settings: AppSettings
do {
  settings = try locator.load(locator.source(commandLinePath: nil))
} catch {
  print("b2c-tasks-reminders: \(error.description)")
  exit(6)
}
let service = ReminderService(
  // A process with no window: it never raises the keyring's unlock prompt (it waits for the keyring to be unlocked).
  session: Session(settings: settings, store: KeyringSessionStore(prompting: false), http: .soup()))
exit(service.run())

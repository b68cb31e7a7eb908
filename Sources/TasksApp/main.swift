// The b2c-tasks program. GLib owns the main thread: install the main-queue bridge, then run the application.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

// Two malloc arenas, not glibc's eight per CPU: each thread (GLib's, libsoup's, Swift's pool, llvmpipe's) would take
// an arena of its own at start and keep its pages, memory that buys no measurable speed (Tests/Benchmarks/RESULTS.md).
mallopt(M_ARENA_MAX, 2)
MainQueueBridge.install()
let installation = Installation.ofRunningProgram()
// `--background`: the reminder service alone, a program of its own that loads no toolkit (this one links GTK).
if CommandLine.arguments.dropFirst().contains("--background") { installation.startReminderService() }
Gettext.setUp(domain: AppIdentity.gettextDomain, localeDirectory: installation.localeDirectory)
let application = TasksApplication(installation: installation)
exit(application.run(arguments: CommandLine.arguments))

// The b2c-tasks program. GLib owns the main thread: install the main-queue bridge, then run the application.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

// Two malloc arenas, not glibc's eight per CPU: the threads (GLib's, libsoup's, Swift's pool, llvmpipe's) each took
// an arena of their own at start and kept its pages, 0.6–1.1 MB resident at start for no measurable speed
// (Tests/Benchmarks/RESULTS.md, issue 18).
mallopt(M_ARENA_MAX, 2)
MainQueueBridge.install()
let installation = Installation.ofRunningProgram()
Gettext.setUp(domain: AppIdentity.gettextDomain, localeDirectory: installation.localeDirectory)
let application = TasksApplication(installation: installation)
exit(application.run(arguments: CommandLine.arguments))

// The b2c-tasks program. GLib owns the main thread: install the main-queue bridge, then run the application.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

MainQueueBridge.install()
let installation = Installation.ofRunningProgram()
Gettext.setUp(domain: AppIdentity.gettextDomain, localeDirectory: installation.localeDirectory)
let application = TasksApplication(installation: installation)
exit(application.run(arguments: CommandLine.arguments))

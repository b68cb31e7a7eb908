// KeptAside: what the user is told when changes waiting to be sent could not all be read from disk. Any thread.

import FoundationEssentials
import TasksCore

/// The message for an outbox whose file could not all be read: what could not be read was kept in a file of its
/// own (`AtomicFile.keepAside`), which the message names, so that nothing the user did is lost unseen.
enum KeptAside {
  static func message(_ file: URL) -> String {
    String(
      template: tr("Some changes waiting to be sent could not be read. They were kept in %@."), file.path)
  }
}

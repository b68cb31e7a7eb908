// BrokerCallers: who is calling the broker: the bus tells the process, /proc tells the app (CallerIdentity), and its
// desktop file, if one is found, its name and icon. Main actor.

import CGtk
import FoundationEssentials
import Glibc
import GtkSupport
import TasksCore

/// Names the callers of the broker, remembering each app's name and icon.
@MainActor
final class BrokerCallers {
  private let connection: OpaquePointer
  /// Each app's desktop entry (by identity key): its name and icon, or nil when it has none.
  private var entries: [String: (name: String, icon: OpaquePointer?)?] = [:]

  init(connection: OpaquePointer) {
    self.connection = connection
  }

  /// The app behind the unique bus name `sender`. Only the user's own processes are served.
  func identify(_ sender: String) async throws(BrokerError) -> BrokerCaller {
    guard let answer = await callBus(connection, "GetConnectionCredentials", .tuple([.string(sender)])),
      let credentials = answer.children.first, let pid = credentials.lookup("ProcessID")?.uint32,
      let uid = credentials.lookup("UnixUserID")?.uint32
    else { throw .failed(tr("The calling app could not be identified.")) }
    guard uid == getuid() else { throw .failed(tr("Only your own apps can use your sign-in.")) }
    let identity: CallerIdentity
    do throws(CallerIdentityError) { identity = try CallerIdentity.of(pid: Int32(bitPattern: pid)) } catch {
      throw .failed(tr("The calling app could not be identified."))
    }
    return BrokerCaller(identity: identity, name: entry(for: identity)?.name ?? identity.fallbackName)
  }

  /// The icon of the app (a `GIcon`), if its desktop entry names one.
  func icon(for identity: CallerIdentity) -> OpaquePointer? { entry(for: identity)?.icon }

  private func entry(for identity: CallerIdentity) -> (name: String, icon: OpaquePointer?)? {
    if let known = entries[identity.key] { return known }
    let found = Self.desktopEntry(for: identity)
    entries[identity.key] = .some(found)
    return found
  }

  /// A sandboxed app's entry is `APP-ID.desktop`; another app's is the one whose program is its executable (for an
  /// interpreter, whose command line names its script).
  private static func desktopEntry(for identity: CallerIdentity) -> (name: String, icon: OpaquePointer?)? {
    let entry = AppInfo.all().first { app in
      if let appID = identity.appID { return app.id == appID + ".desktop" }
      if let script = identity.script { return app.commandLine?.contains(script) == true }
      return app.executable.flatMap(AppInfo.resolve) == identity.executable
    }
    return entry.map { ($0.displayName, $0.retainedIcon()) }
  }
}

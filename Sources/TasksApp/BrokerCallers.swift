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
    let all = g_app_info_get_all()
    defer { g_list_free_full(all) { g_object_unref($0) } }
    var item = all
    while let node = item {
      defer { item = node.pointee.next }
      guard let data = node.pointee.data else { continue }
      let info = OpaquePointer(data)
      if let appID = identity.appID {
        guard let id = g_app_info_get_id(info), String(cString: id) == appID + ".desktop" else { continue }
      } else if let script = identity.script {
        guard let line = g_app_info_get_commandline(info), String(cString: line).contains(script) else { continue }
      } else {
        guard let program = g_app_info_get_executable(info),
          resolve(String(cString: program)) == identity.executable
        else { continue }
      }
      return describe(info)
    }
    return nil
  }

  private static func describe(_ info: OpaquePointer) -> (name: String, icon: OpaquePointer?) {
    let icon = g_app_info_get_icon(info)
    if let icon { g_object_ref(icon.gpointer) }
    return (String(cString: g_app_info_get_display_name(info)), icon)
  }

  /// A program as a desktop entry names it (a name found on `PATH`, or a path), with links resolved.
  private static func resolve(_ program: String) -> String? {
    guard let found = g_find_program_in_path(program) else { return nil }
    defer { g_free(found) }
    guard let real = realpath(found, nil) else { return nil }
    defer { free(real) }
    return String(cString: real)
  }
}

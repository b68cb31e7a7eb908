// DBusObject: an object exported on a D-Bus connection whose method calls run a Swift closure, a well-known name
// owned for it, and calls to the bus itself. Main actor (GDBus dispatches on the main context of the thread that
// registered, the main thread here).

import CGtk

/// A method call received, answered once with `reply` or `fail` (an unanswered call is answered Failed when the
/// last copy goes, so a caller is never left waiting for nothing).
@MainActor
public final class DBusCall {
  /// The caller's unique bus name (`:1.42`).
  public let sender: String
  /// The method's name.
  public let method: String
  /// The arguments, as a tuple.
  public let parameters: Variant
  private var invocation: OpaquePointer?

  init(sender: String, method: String, parameters: Variant, invocation: OpaquePointer) {
    self.sender = sender
    self.method = method
    self.parameters = parameters
    self.invocation = invocation
  }

  /// Answers with `value` (a tuple matching the method's out arguments; nil for none).
  public func reply(_ value: Variant? = nil) {
    guard let invocation else { return }
    self.invocation = nil
    g_dbus_method_invocation_return_value(invocation, value?.value)
  }

  /// Answers with the D-Bus error `name` and `message`.
  public func fail(_ name: String, _ message: String) {
    guard let invocation else { return }
    self.invocation = nil
    g_dbus_method_invocation_return_dbus_error(invocation, name, message)
  }

  isolated deinit {
    fail("org.freedesktop.DBus.Error.Failed", "The call was dropped without an answer.")
  }
}

/// A method call as GDBus hands it over, in values that may cross into the main actor's closure.
private struct ReceivedCall: Sendable {
  let sender: String
  let method: String
  let parameters: Variant
  let invocation: UInt
  let handler: UInt
}

/// Holds the handler of an exported object: retained once by the registration and released by its destroy notify.
private final class DBusHandlerBox {
  let handler: @MainActor (DBusCall) -> Void
  init(_ handler: @escaping @MainActor (DBusCall) -> Void) { self.handler = handler }
}

/// An object at `path` implementing one interface described by introspection XML.
@MainActor
public final class DBusObject {
  /// Why an object could not be exported.
  public struct Failure: Error, Equatable, Sendable {
    public let message: String
  }

  private let connection: OpaquePointer
  private let path: String
  private let interface: String
  private var registration: UInt32 = 0
  private static let vtable: UnsafeMutablePointer<GDBusInterfaceVTable> = {
    let table = UnsafeMutablePointer<GDBusInterfaceVTable>.allocate(capacity: 1)
    table.initialize(to: GDBusInterfaceVTable())
    table.pointee.method_call = { _, sender, _, _, method, parameters, invocation, data in
      guard let data, let invocation, let parameters, let method else { return }
      // Sendable forms: GDBus calls this on the main thread, where the handler runs.
      let received = ReceivedCall(
        sender: sender.map { String(cString: $0) } ?? "", method: String(cString: method),
        parameters: Variant(owning: g_variant_ref(parameters)), invocation: UInt(bitPattern: invocation),
        handler: UInt(bitPattern: data))
      MainActor.assumeIsolated {
        let call = DBusCall(
          sender: received.sender, method: received.method, parameters: received.parameters,
          invocation: OpaquePointer(bitPattern: received.invocation)!)
        let box = UnsafeRawPointer(bitPattern: received.handler)!
        Unmanaged<DBusHandlerBox>.fromOpaque(box).takeUnretainedValue().handler(call)
      }
    }
    return table
  }()

  /// Exports `interface` (described in `xml`) at `path` on `connection`; `handler` gets every method call.
  public init(
    on connection: OpaquePointer, path: String, xml: String, interface: String,
    handler: @escaping @MainActor (DBusCall) -> Void
  ) throws(Failure) {
    self.connection = connection
    self.path = path
    self.interface = interface
    var error: UnsafeMutablePointer<GError>?
    guard let node = g_dbus_node_info_new_for_xml(xml, &error) else { throw dbusFailure(error) }
    defer { g_dbus_node_info_unref(node) }
    guard let info = g_dbus_node_info_lookup_interface(node, interface) else {
      throw Failure(message: "no interface \(interface) in its description")
    }
    let release: @convention(c) (gpointer?) -> Void = { data in
      if let data { Unmanaged<DBusHandlerBox>.fromOpaque(data).release() }
    }
    registration = g_dbus_connection_register_object(
      connection, path, info, Self.vtable, Unmanaged.passRetained(DBusHandlerBox(handler)).toOpaque(), release,
      &error)
    guard registration != 0 else { throw dbusFailure(error) }
  }

  /// Sends the signal `name` of the interface with `parameters` (a tuple; nil for none) to every listener.
  public func emit(_ name: String, _ parameters: Variant? = nil) {
    g_dbus_connection_emit_signal(connection, nil, path, interface, name, parameters?.value, nil)
  }

  /// Owns the well-known `name` on the connection for as long as the process runs (a second owner is queued).
  public func own(_ name: String) {
    g_bus_own_name_on_connection(connection, name, G_BUS_NAME_OWNER_FLAGS_NONE, nil, nil, nil, nil)
  }

  isolated deinit {
    if registration != 0 { g_dbus_connection_unregister_object(connection, registration) }
  }
}

/// Calls `method` of the bus itself (`org.freedesktop.DBus`) with `arguments` on `connection`; the answer's tuple,
/// or nil when the bus refused.
@MainActor
public func callBus(_ connection: OpaquePointer, _ method: String, _ arguments: Variant) async -> Variant? {
  await withCheckedContinuation { (continuation: CheckedContinuation<Variant?, Never>) in
    let finished: GAsyncReadyCallback = { source, result, data in
      guard let data else { return }
      let resume = Unmanaged<ContinuationBox<CheckedContinuation<Variant?, Never>>>.fromOpaque(data).takeRetainedValue()
        .value
      let answer = g_dbus_connection_call_finish(OpaquePointer(source), result, nil)
      resume.resume(returning: answer.map { Variant(owning: $0) })
    }
    g_dbus_connection_call(
      connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", method, arguments.value,
      nil, G_DBUS_CALL_FLAGS_NONE, 5000, nil, finished, Unmanaged.passRetained(ContinuationBox(continuation)).toOpaque()
    )
  }
}

/// Opens a connection of its own to the session bus: not GLib's shared one, which GApplication exports its actions
/// and menus on, so that a name owned on it answers only for what its owner exports there; GLib's reason when the
/// bus cannot be reached.
@MainActor
public func openSessionBusConnection() async -> Result<OpaquePointer, DBusObject.Failure> {
  var error: UnsafeMutablePointer<GError>?
  guard let address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, nil, &error) else {
    return .failure(dbusFailure(error))
  }
  defer { g_free(address) }
  // The connection crosses the callback as an address (a pointer is not Sendable); it is used on the main actor only.
  let opened = await withCheckedContinuation {
    (continuation: CheckedContinuation<Result<UInt, DBusObject.Failure>, Never>) in
    let finished: GAsyncReadyCallback = { _, result, data in
      guard let data else { return }
      let resume = Unmanaged<ContinuationBox<CheckedContinuation<Result<UInt, DBusObject.Failure>, Never>>>
        .fromOpaque(data).takeRetainedValue().value
      var error: UnsafeMutablePointer<GError>?
      if let connection = g_dbus_connection_new_for_address_finish(result, &error) {
        resume.resume(returning: .success(UInt(bitPattern: connection)))
      } else {
        resume.resume(returning: .failure(dbusFailure(error)))
      }
    }
    let flags = GDBusConnectionFlags(
      rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
        | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
    g_dbus_connection_new_for_address(
      address, flags, nil, nil, finished, Unmanaged.passRetained(ContinuationBox(continuation)).toOpaque())
  }
  return opened.map { OpaquePointer(bitPattern: $0)! }
}

/// GLib's error as a failure (freeing it).
private func dbusFailure(_ error: UnsafeMutablePointer<GError>?) -> DBusObject.Failure {
  defer { if let error { g_error_free(error) } }
  return DBusObject.Failure(message: error.map { String(cString: $0.pointee.message) } ?? "unknown")
}

/// A value in a reference, for C callbacks' user data.
private final class ContinuationBox<Value> {
  let value: Value
  init(_ value: Value) { self.value = value }
}

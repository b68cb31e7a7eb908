// BrokerBus: the sign-in broker on the session bus (io.github.b2ctasks.Broker): each method call read, answered by
// the core's Broker, and its errors named. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// What the broker asks of the application around it.
@MainActor
protocol BrokerHost: AnyObject, Sendable {
  /// Keeps the application running until the answer is called (a call in progress).
  func holdApplication() -> @MainActor () -> Void
  /// Shows the window to sign in and answers the account when the sign-in ends.
  func signInForBroker() async throws(BrokerError) -> Account
  /// Signs out as the window's Sign Out does (or, without a window, as the CLI does).
  func signOutForBroker() async throws(SessionError)
}

/// Puts `Broker` on the bus under the names of `AppIdentity.Broker` (its interface described in
/// `io.github.b2ctasks.Broker1.xml`).
@MainActor
final class BrokerBus {
  private typealias Names = AppIdentity.Broker

  let broker: Broker
  let callers: BrokerCallers
  private unowned let host: any BrokerHost
  private var object: DBusObject?

  /// Exports the broker on `connection` and takes its name; nil (with a message on standard error) when the
  /// description cannot be read or the object not exported.
  init?(connection: OpaquePointer, broker: Broker, host: any BrokerHost) {
    self.broker = broker
    self.host = host
    callers = BrokerCallers(connection: connection)
    let resource = Installation.resourceBase + "/" + Names.interface + ".xml"
    guard let xml = Resources.text(resource) else { return nil }
    do throws(DBusObject.Failure) {
      object = try DBusObject(on: connection, path: Names.objectPath, xml: xml, interface: Names.interface) {
        [unowned self] call in self.handle(call)
      }
    } catch {
      b2c_debug("broker: not on the bus: \(error.message)")
      return nil
    }
    object?.own(Names.busName)
    Task { [broker] in await broker.followSession() }
    Task { [weak self, broker] in
      for await _ in await broker.changes() { self?.object?.emit("AccountsChanged") }
    }
  }

  private func handle(_ call: DBusCall) {
    let release = host.holdApplication()
    Task {
      defer { release() }
      do throws(BrokerError) {
        call.reply(try await answer(call))
      } catch {
        call.fail(error.dbusName, error.message)
      }
    }
  }

  private func answer(_ call: DBusCall) async throws(BrokerError) -> Variant? {
    let arguments = call.parameters.children
    switch call.method {
    case "GetAccounts":
      let caller = try await callers.identify(call.sender)
      let accounts = try await broker.accounts(for: caller)
      return .tuple([.dictionaries(accounts.map(Self.describe))])
    case "GetToken":
      guard arguments.count == 3, let id = arguments[0].string, let scopes = arguments[1].strings else {
        throw .invalidArguments(tr("GetToken takes an account id, scopes and options."))
      }
      var kind: AppSettings.BearerToken?
      if let asked = arguments[2].lookup("kind") {
        guard let name = asked.string, let known = AppSettings.BearerToken(rawValue: name) else {
          throw .invalidArguments(tr("The token kind is access_token or id_token."))
        }
        kind = known
      }
      let caller = try await callers.identify(call.sender)
      let token = try await broker.token(for: id, scopes: scopes, kind: kind, caller: caller)
      return .tuple([.string(token.token), .int64(Int64(token.expiresOn.timeIntervalSince1970))])
    case "SignIn":
      let caller = try await callers.identify(call.sender)
      let host = self.host
      let id = try await broker.signIn(caller: caller) { () async throws(BrokerError) in
        try await host.signInForBroker()
      }
      return .tuple([.string(id)])
    case "SignOut":
      guard let id = arguments.first?.string else { throw .invalidArguments(tr("SignOut takes an account id.")) }
      let caller = try await callers.identify(call.sender)
      let host = self.host
      try await broker.signOut(id, caller: caller) { () async throws(SessionError) in
        try await host.signOutForBroker()
      }
      return nil
    default:
      throw .invalidArguments(call.method)
    }
  }

  private static func describe(_ account: BrokerAccount) -> [String: Variant] {
    var entries: [String: Variant] = [
      "id": .string(account.id), "provider": .string(account.provider), "authority": .string(account.authority),
      "display-name": .string(account.displayName), "keychain-group": .string(account.keychainGroup),
    ]
    if let email = account.email { entries["email"] = .string(email) }
    return entries
  }
}

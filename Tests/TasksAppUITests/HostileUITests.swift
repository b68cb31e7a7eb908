// The standing hostile suite: the app as an attacker on this desktop meets it. A Flatpak-style sandboxed app (its
// own /.flatpak-info in bwrap, on a bus filtered by xdg-dbus-proxy to the broker alone, as the README tells such apps
// to ask for) and another local user watching every command line. Each new feature adds its cases here.

import Foundation
import TasksTestSupport
import Testing

extension AppUI {
  @Suite("Hostile apps and users")
  struct HostileUITests {
    @Test("a sandboxed app allowed to talk to the broker alone reaches the broker's object and nothing else of the app")
    func sandboxReachesOnlyTheBroker() async throws {
      let playground = try await PlaygroundForUI()
      // Started for the broker, as D-Bus starts it for a call: the app's own actions exist all the same.
      let app = try AppDriver(arguments: ["--gapplication-service"], settings: playground.settings)
      let sandbox = FlatpakSandbox(appID: "org.example.Notes")
      let bus = try await FilteredBus(for: sandbox, talkingTo: ["io.github.b2ctasks.Broker"])
      var notes = try BrokerClient(named: "notes_app.py", in: app.home)
      notes.sandboxAppID = sandbox.appID
      notes.bus = bus.address
      var answer: [String: Any] = [:]
      let serving = await eventually(timeout: .seconds(60)) {
        guard let (reached, status) = try? await notes.run(["reachable"]), status == 0 else { return false }
        answer = reached
        return (reached["objects"] as? [String: Any])?["/io/github/b2ctasks/Broker"] != nil
      }
      try #require(serving, "the broker answers through the filtered bus: \(answer)")
      let objects = try #require(answer["objects"] as? [String: Any])
      let interfaces = Set(objects.values.compactMap { $0 as? [String] }.joined())
      let standard: Set = [
        "org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Peer", "org.freedesktop.DBus.Properties",
      ]
      #expect(interfaces.subtracting(standard) == ["io.github.b2ctasks.Broker1"], "only the broker: \(objects)")
      let actions = try #require(answer["actions"] as? [String: Any])
      #expect(actions["listed"] == nil, "the app's actions are not reachable: \(actions)")
      #expect(
        ["org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownMethod"].contains(
          actions["error"] as? String), "\(actions)")
      await app.stop()
    }
  }
}

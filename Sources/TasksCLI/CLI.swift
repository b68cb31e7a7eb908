// b2c-tasks-cli: the task list from a terminal, sharing the desktop app's sign-in through the keyring.

import ArgumentParser
import Foundation
import TasksCore
import TasksKeyring
import TasksSoup

/// `b2c-tasks-cli`. Every command names itself (`commandName`): ArgumentParser otherwise makes each name from its
/// type's through `String(describing:)`, whose dynamic casts scan every protocol conformance of this statically
/// linked program, at every start.
@main
struct TasksCLI: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "b2c-tasks-cli",
    abstract: "Your B2C Tasks from the terminal. Shares the sign-in of the B2C Tasks app through the keyring.",
    subcommands: [
      SignIn.self, Status.self, Lists.self, List.self, Add.self, Done.self, Delete.self, Reminders.self, Snooze.self,
      AppPasswordsCommand.self, SignOut.self,
    ])

  /// ArgumentParser's own `main`, after one thing: every command reads the keyring, so its connection and session
  /// (a key exchange of some 7 ms on both sides) are opened while the arguments and settings are read, not after
  /// (help and a misspelt command aside).
  static func main() async {
    let arguments = CommandLine.arguments.dropFirst()
    if let first = arguments.first,
      configuration.subcommands.contains(where: { $0.configuration.commandName == first })
    {
      SecretStore.prepare()
    }
    do {
      var command = try parseAsRoot()
      if var command = command as? AsyncParsableCommand {
        try await command.run()
      } else {
        try command.run()
      }
    } catch {
      exit(withError: error)
    }
  }
}

/// Options every command takes.
struct CommonOptions: ParsableArguments {
  @Option(help: "Read settings from this property list instead of the user's settings.") var settings: String?
  @Flag(help: "Print JSON for scripts instead of text.") var json = false
}

/// A command's failure, with the exit status scripts can test.
struct CLIFailure: Error, CustomStringConvertible {
  /// 1: failed, 3: not signed in, 4: keyring, 5: network, 6: settings.
  let status: Int32
  let code: String
  let message: String
  var description: String { message }

  static func from(_ error: SessionError) -> CLIFailure {
    switch error {
    case .notSignedIn, .signedOutElsewhere:
      return CLIFailure(status: 3, code: "not-signed-in", message: "You are not signed in. Run: b2c-tasks-cli sign-in")
    case .keyring: return CLIFailure(status: 4, code: "keyring", message: error.message)
    case .network, .discovery(.network): return CLIFailure(status: 5, code: "network", message: error.message)
    case .lock: return CLIFailure(status: 4, code: "lock", message: error.message)
    default: return CLIFailure(status: error.needsSignIn ? 3 : 1, code: "sign-in", message: error.message)
    }
  }

  static func from(_ error: TaskAPIError) -> CLIFailure {
    switch error {
    case .unauthorized(let session?): return from(session)
    case .unauthorized(nil): return CLIFailure(status: 3, code: "not-signed-in", message: error.message)
    case .network: return CLIFailure(status: 5, code: "network", message: error.message)
    case .notFound: return CLIFailure(status: 1, code: "not-found", message: error.message)
    default: return CLIFailure(status: 1, code: "task-api", message: error.message)
    }
  }
}

/// What every command does first: settings, session, printing.
struct Context {
  let options: CommonOptions
  let session: Session

  /// `options`' settings and a session. With `connecting`, the task service's connection is opened while the keyring
  /// answers (name look-up, TCP and TLS: no request, so nothing of the account is sent even when no one turns out to
  /// be signed in), for a command whose first request to the service may be sent again (a GET or a PUT): libsoup
  /// gives an idle connection to those, while a first POST, unless it comes while the connection is still being set
  /// up, opens its own. The others (those that never reach the service, or POST first) pass false.
  init(_ options: CommonOptions, connecting: Bool = true) async throws {
    self.options = options
    let locator = SettingsLocator()
    let settings: AppSettings
    do {
      settings = try locator.load(locator.source(commandLinePath: options.settings))
    } catch {
      throw Context.report(CLIFailure(status: 6, code: "settings", message: error.description), json: options.json)
    }
    // libsoup, as the app: it stops reading an answer at its limit (URLSession's libcurl inflated a 1 GiB gzip
    // answer, 1.16 GB resident, before its delegate could refuse it).
    let http = HTTPClient.soup()
    if connecting { http.prepare(for: settings.taskAPI) }
    session = Session(settings: settings, store: KeyringSessionStore(), http: http) {
      // Said on the terminal so that a pause behind another app's refresh or sign-out does not look like a hang.
      FileHandle.standardError.write(
        Data((tr("Waiting for another B2C Tasks app to finish with your sign-in…") + "\n").utf8))
    }
  }

  var tasks: TaskAPIClient { TaskAPIClient(session: session) }

  /// Prints `value` as JSON, or `text` for people.
  func output(_ text: String, json value: Any) {
    if options.json, let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) {
      print(String(decoding: data, as: UTF8.self))
    } else {
      print(text)
    }
  }

  /// Runs `body`, turning failures into a message and an exit status.
  func run(_ body: () async throws -> Void) async throws {
    do {
      try await body()
    } catch let failure as CLIFailure {
      throw Context.report(failure, json: options.json)
    } catch let error as SessionError {
      throw Context.report(.from(error), json: options.json)
    } catch let error as TaskAPIError {
      throw Context.report(.from(error), json: options.json)
    }
  }

  static func report(_ failure: CLIFailure, json: Bool) -> ExitCode {
    if json,
      let data = try? JSONSerialization.data(
        withJSONObject: ["error": failure.code, "message": failure.message], options: [.sortedKeys])
    {
      print(String(decoding: data, as: UTF8.self))
    }
    FileHandle.standardError.write(Data("b2c-tasks-cli: \(failure.message)\n".utf8))
    return ExitCode(failure.status)
  }
}

extension Account {
  var json: [String: Any] { ["objectID": objectID, "displayName": displayName, "email": email ?? NSNull()] }
}

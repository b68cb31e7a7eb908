// sign-in: the system browser and a loopback redirect (RFC 8252).

import ArgumentParser
import Foundation
import TasksCore
import TasksLoopback

struct SignIn: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sign-in",
    abstract: "Sign in with your browser.",
    discussion: """
      Opens the sign-in page in your browser ($BROWSER, else xdg-open) and listens on the loopback interface for \
      the answer (127.0.0.1, and also ::1 for a localhost redirect URI). \
      The sign-in is kept in the keyring and shared with the B2C Tasks app.
      """)
  @OptionGroup var options: CommonOptions
  @Flag(help: "Ask for the password even if the browser is still signed in.") var promptLogin = false
  @Option(help: "Fill in this email address.") var loginHint: String?
  @Option(help: "Give up after this many seconds.") var timeout = LoopbackListener.defaultTimeout

  func run() async throws {
    let context = try await Context(options, connecting: false)
    let session = context.session
    try await context.run {
      let (outcomes, finish) = AsyncStream.makeStream(of: Result<Account, SessionError>.self)
      let listener = try await Self.listen(
        session.settings.redirectURI,
        onOpenedTwice: {
          await session.cancelFlow()
          finish.yield(.failure(.authorization(.openedTwice)))
        }
      ) { url in
        guard await session.acceptsRedirect(url) else { return .rejected }
        let step = await session.handleRedirect(url)
        switch step {
        case .signedIn(let account), .profileUpdated(let account): finish.yield(.success(account))
        case .cancelled: finish.yield(.failure(.authorization(.cancelled)))
        case .failed(let error): finish.yield(.failure(error))
        case .notOurs, .load: break
        }
        return LoopbackAnswer(step, closing: tr("You can close this tab and return to the terminal."))
      }
      // Stopped, and waited for, on every way out: a failure before the answer, or the answer below.
      let outcome: Result<Account, SessionError>?
      do {
        let request = try await session.startSignIn(
          prompt: promptLogin ? "login" : nil, loginHint: loginHint, redirectURI: listener.redirectURI,
          inBrowser: true)
        // The browser gets a page only this user can read, which leads to a one-time address of the listener:
        // neither that address nor the authorize request is on a command line (readable by every local user).
        let page: URL
        do throws(HandOverPage.Failure) { page = try listener.handOverPage(redirectingTo: request.url) } catch {
          throw CLIFailure(status: 1, code: "browser", message: error.message)
        }
        if !options.json { print("Opening your browser to sign in… (waiting for it on \(listener.redirectURI.value))") }
        do { try Browser.open(page) } catch {
          throw CLIFailure(
            status: 1, code: "browser",
            message: "Could not open a browser. Open this page yourself:\n\(page.absoluteString)")
        }
        let seconds = timeout
        let timer = Task {
          try await Task.sleep(for: .seconds(seconds))
          finish.yield(.failure(.authorization(.timedOut)))
        }
        defer { timer.cancel() }
        var iterator = outcomes.makeAsyncIterator()
        outcome = await iterator.next()
      } catch {
        await listener.stop()
        throw error
      }
      // Before the program ends: the browser is sent the page that says how the sign-in ended.
      await listener.stop()
      switch outcome {
      case .success(let account):
        // Said plainly: whoever finished the sign-in in the browser is who the keyring now holds for every app.
        context.output(account.signedInLine, json: ["signedIn": true, "account": account.json])
      case .failure(.authorization(.cancelled)):
        throw CLIFailure(status: 1, code: "cancelled", message: "Sign-in was cancelled.")
      case .failure(let error):
        throw CLIFailure.from(error)
      case nil:
        throw CLIFailure(status: 1, code: "sign-in", message: "Sign-in did not finish.")
      }
    }
  }
}

extension SignIn {
  /// Starts the loopback listener; an address that cannot be had is a failure that names it.
  static func listen(
    _ registered: RedirectURI, onOpenedTwice: @escaping @Sendable () async -> Void,
    handler: @escaping @Sendable (String) async -> LoopbackAnswer
  ) async throws -> LoopbackListener {
    do {
      return try await LoopbackListener.start(registered: registered, onOpenedTwice: onOpenedTwice, handler: handler)
    } catch let error as LoopbackListener.StartError {
      throw CLIFailure(status: 1, code: "listener", message: SessionError.listener(address: error.address).message)
    }
  }
}

/// Opens URLs the way the desktop does: `$BROWSER` (a colon-separated list of commands; `%s` stands for the URL),
/// else `xdg-open`.
enum Browser {
  static func open(_ url: URL) throws {
    let environment = ProcessInfo.processInfo.environment
    let commands = (environment["BROWSER"] ?? "").split(separator: ":").map(String.init).filter { !$0.isEmpty }
    for command in commands + ["xdg-open"] {
      var words = command.split(separator: " ").map(String.init)
      guard !words.isEmpty else { continue }
      if words.contains(where: { $0.contains("%s") }) {
        words = words.map { $0.replacingOccurrences(of: "%s", with: url.absoluteString) }
      } else {
        words.append(url.absoluteString)
      }
      let process = Process()
      process.executableURL = URL(filePath: "/usr/bin/env")
      process.arguments = words
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      if (try? process.run()) != nil { return }
    }
    throw CocoaError(.fileNoSuchFile)
  }
}

extension Account {
  /// "Signed in as NAME <EMAIL>": who the keyring holds for every app of the group.
  var signedInLine: String { "Signed in as \(nameAndEmail)" }
}

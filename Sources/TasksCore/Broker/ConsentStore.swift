// ConsentStore: the user's answers to "may this app use your sign-in?", remembered per app and account in a file
// of the user's (no token in it). Actor.

import FoundationEssentials

/// One answer: an app (by `CallerIdentity.key`) may, or may not, get an account's tokens from the broker.
public struct Grant: Codable, Equatable, Sendable {
  /// The app's key.
  public var app: String
  /// The app's name as the dialog showed it.
  public var appName: String
  /// The broker's id of the account.
  public var account: String
  /// The account as the dialog showed it (name and e-mail).
  public var accountName: String
  /// Allowed (true) or denied.
  public var allowed: Bool
  /// When the user answered (or last changed their mind).
  public var decided: Date

  public init(app: String, appName: String, account: String, accountName: String, allowed: Bool, decided: Date) {
    self.app = app
    self.appName = appName
    self.account = account
    self.accountName = accountName
    self.allowed = allowed
    self.decided = decided
  }
}

/// Why the answers could not be read or kept.
public enum ConsentStoreError: Error, Equatable, Sendable {
  /// The file is not one this app wrote (it is kept aside, as `FILE.unreadable`, and no app is allowed until the
  /// user answers again).
  case unreadable(String)
  /// The file could not be written.
  case notWritten(AtomicFileError)

  /// What the app says.
  public var message: String {
    switch self {
    case .unreadable(let reason):
      String(
        template: tr("The list of apps using your sign-in could not be read (%@); every app will ask again."), reason)
    case .notWritten(.notWritten(let path, let errno)):
      String(template: tr("Your answer could not be saved in %1$@ (error %2$d)."), path, Int(errno))
    }
  }
}

/// The user's answers, in `$XDG_CONFIG_HOME/io.github.b2ctasks.B2CTasks/broker-grants.json` (mode 0600). A sandboxed
/// app cannot reach the file; an unsandboxed program of the user's can, as it can reach the keyring itself.
public actor ConsentStore {
  /// The file.
  public nonisolated let file: URL
  private var grants: [Grant]?
  /// Why the file could not be read, when it could not (it was kept aside): for the preferences to say.
  public private(set) var problem: ConsentStoreError?

  /// The store of the user's answers (`file`: another file, for tests).
  public init(file: URL? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) {
    self.file = file ?? XDGDirectory.config.appFolder(environment: environment).appending(path: "broker-grants.json")
  }

  private struct Contents: Codable {
    var version: Int
    var grants: [Grant]
  }

  /// Every answer, in the order given.
  public func all() throws(ConsentStoreError) -> [Grant] {
    if let grants { return grants }
    guard let data = FileManager.default.contents(atPath: file.path) else {
      grants = []
      return []
    }
    do throws(ConsentStoreError) {
      let loaded = try Self.parse(data)
      grants = loaded
      return loaded
    } catch {
      // Kept for a person to look at; an empty list from now on (every app asks again, none is allowed unasked).
      _ = try? FileManager.default.removeItem(atPath: file.path + ".unreadable")
      _ = try? FileManager.default.moveItem(atPath: file.path, toPath: file.path + ".unreadable")
      grants = []
      problem = error
      throw error
    }
  }

  /// The answers in `data`, checked: the format version, and each app key and account present.
  public static func parse(_ data: Data) throws(ConsentStoreError) -> [Grant] {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    let contents: Contents
    do { contents = try decoder.decode(Contents.self, from: data) } catch {
      throw .unreadable(tr("not a list of answers"))
    }
    guard contents.version == 1 else { throw .unreadable(String(template: tr("version %d"), contents.version)) }
    guard contents.grants.allSatisfy({ !$0.app.isEmpty && !$0.account.isEmpty }) else {
      throw .unreadable(tr("an answer names no app or account"))
    }
    return contents.grants
  }

  /// The answer for `app` and `account`: true (allowed), false (denied) or nil (never asked).
  public func decision(app: String, account: String) -> Bool? {
    ((try? all()) ?? []).last { $0.app == app && $0.account == account }?.allowed
  }

  /// Remembers `grant`, replacing an earlier answer for the same app and account.
  public func record(_ grant: Grant) throws(ConsentStoreError) {
    var list = (try? all()) ?? []
    list.removeAll { $0.app == grant.app && $0.account == grant.account }
    list.append(grant)
    try save(list)
  }

  /// Changes the answer for `app` and `account` (the preferences' switch); nothing if there was none.
  public func setAllowed(_ allowed: Bool, app: String, account: String, at now: Date = Date()) throws(ConsentStoreError)
  {
    var list = (try? all()) ?? []
    guard let index = list.lastIndex(where: { $0.app == app && $0.account == account }) else { return }
    list[index].allowed = allowed
    list[index].decided = now
    try save(list)
  }

  /// Forgets the answer for `app` and `account`: the app asks again next time.
  public func forget(app: String, account: String) throws(ConsentStoreError) {
    var list = (try? all()) ?? []
    list.removeAll { $0.app == app && $0.account == account }
    try save(list)
  }

  /// Rereads the file on the next question (another process of the app changed it).
  public func reload() { grants = nil }

  private func save(_ list: [Grant]) throws(ConsentStoreError) {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let data: Data
    do { data = try encoder.encode(Contents(version: 1, grants: list)) } catch { throw .unreadable("\(error)") }
    do throws(AtomicFileError) { try AtomicFile.write(data, to: file) } catch { throw .notWritten(error) }
    grants = list
  }
}

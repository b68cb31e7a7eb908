// AutostartEntry: the XDG autostart entry that starts the reminder service at login
// (`$XDG_CONFIG_HOME/autostart/io.github.b2ctasks.B2CTasks.Reminders.desktop`). Value; any thread.

import FoundationEssentials

/// The reminder service's autostart entry: written while the user has reminders and the Preferences switch is on,
/// removed when it is turned off. Its command is the installed `b2c-tasks --background`.
public struct AutostartEntry: Sendable {
  public static let fileName = AppIdentity.Reminders.appID + ".desktop"
  public let file: URL

  public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    file = XDGDirectory.config.baseFolder(environment: environment).appending(path: "autostart/" + Self.fileName)
  }

  /// The entry for `program` (the app's absolute path), started with `--background`.
  public static func contents(program: String) -> String {
    """
    [Desktop Entry]
    Type=Application
    Name=B2C Tasks Reminders
    Comment=Reminders of your tasks, with the window closed
    Exec=\(execArgument(program)) --background
    Icon=\(AppIdentity.appID)
    NoDisplay=true
    Terminal=false
    X-GNOME-Autostart-enabled=true
    X-GNOME-UsesNotifications=true

    """
  }

  /// `argument` as the Exec key holds it: quoted (with `"`, `` ` ``, `$` and `\` escaped) unless it is plain, then
  /// every backslash doubled (the key's value is a string) and `%` written `%%` (not a field code). Control
  /// characters are left out: a line break would end the key.
  static func execArgument(_ argument: String) -> String {
    var scalars = String.UnicodeScalarView()
    scalars.append(contentsOf: argument.unicodeScalars.filter { $0.properties.generalCategory != .control })
    let argument = String(scalars)
    guard !argument.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "/._-+".contains($0)) }) else {
      return argument
    }
    var quoted = "\""
    for character in argument {
      if "\"`$\\".contains(character) { quoted.append("\\") }
      quoted.append(character)
    }
    quoted.append("\"")
    return quoted.map { $0 == "\\" ? "\\\\" : $0 == "%" ? "%%" : String($0) }.joined()
  }

  /// Whether the entry is there.
  public var exists: Bool { FileManager.default.fileExists(atPath: file.path(percentEncoded: false)) }

  /// Writes the entry for `program` (atomically, readable by the user only).
  public func write(program: String) throws(AtomicFileError) {
    try AtomicFile.write(Data(Self.contents(program: program).utf8), to: file)
  }

  /// Removes the entry (nothing when there is none).
  public func remove() {
    try? FileManager.default.removeItem(at: file)
  }
}

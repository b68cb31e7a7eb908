// CallerIdentity: who asks the broker for a sign-in, as /proc tells it: a sandboxed app by its sandbox's app ID, any
// other by its executable (and, for an interpreter, the script it runs). Value type; any thread.

import FoundationEssentials

/// An app that asks the broker: the key its grants are remembered under, and what the consent dialog names.
///
/// A sandboxed caller is named by its sandbox: Flatpak writes `/.flatpak-info` into the sandbox, and the broker reads
/// it through `/proc/PID/root`, where the app inside cannot change it. An unsandboxed caller is named by its
/// executable (`/proc/PID/exe`), and when that is an interpreter (Python, GJS, a shell…) by the script too: otherwise
/// every Python program would be one app. An unsandboxed program of the same user can pretend to be another (it can
/// run another's script, or make a namespace of its own with a `/.flatpak-info`): the consent keeps tokens from apps
/// the user never allowed, and from sandboxed apps entirely, not from the user's own unsandboxed programs.
public struct CallerIdentity: Hashable, Codable, Sendable {
  /// How the caller was recognised.
  public enum Kind: String, Codable, Sendable {
    /// By its Flatpak sandbox's app ID.
    case sandboxed
    /// By its executable (and script).
    case executable
  }

  public var kind: Kind
  /// The sandbox's app ID (`org.example.Notes`), for `.sandboxed`.
  public var appID: String?
  /// The executable's path, for `.executable`.
  public var executable: String?
  /// The script an interpreter runs (a path, or `-m module`), for `.executable`.
  public var script: String?

  /// The key grants are remembered under: `flatpak:APP-ID`, or `exe:PATH` (with ` SCRIPT` for an interpreter).
  public var key: String {
    switch kind {
    case .sandboxed: "flatpak:\(appID ?? "")"
    case .executable: "exe:\(executable ?? "")" + (script.map { " \($0)" } ?? "")
    }
  }

  /// What a person reads when nothing better (a desktop file's name) is known: the app ID, the script's or the
  /// executable's file name.
  public var fallbackName: String {
    if let appID { return appID }
    let path = script ?? executable ?? "?"
    return path.split(separator: "/").last.map(String.init) ?? path
  }

  /// A sandboxed caller.
  public static func sandboxed(_ appID: String) -> CallerIdentity {
    CallerIdentity(kind: .sandboxed, appID: appID)
  }

  /// An unsandboxed caller.
  public static func executable(_ path: String, script: String? = nil) -> CallerIdentity {
    CallerIdentity(kind: .executable, executable: path, script: script)
  }
}

/// Why a caller could not be named.
public enum CallerIdentityError: Error, Equatable, Sendable {
  /// Its `/proc` entries could not be read (it exited, or is another user's).
  case unreadable(pid: Int32)
  /// Its `/.flatpak-info` names no valid app ID.
  case badSandboxInfo(String)
  /// It changed while it was read (the PID was reused).
  case changed(pid: Int32)
}

extension CallerIdentity {
  /// Names the process `pid` from `/proc` (`proc`: another mount of it, for tests). The process's start time is
  /// read before and after: a PID reused meanwhile is refused.
  public static func of(pid: Int32, proc: String = "/proc") throws(CallerIdentityError) -> CallerIdentity {
    guard pid > 0 else { throw .unreadable(pid: pid) }
    let base = "\(proc)/\(pid)"
    guard let started = startTime(base) else { throw .unreadable(pid: pid) }
    let identity: CallerIdentity
    if let info = FileManager.default.contents(atPath: "\(base)/root/.flatpak-info") {
      guard let appID = flatpakAppID(String(decoding: info, as: UTF8.self)) else {
        throw .badSandboxInfo(String(decoding: info.prefix(200), as: UTF8.self))
      }
      identity = .sandboxed(appID)
    } else {
      guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(base)/exe"),
        let commandLine = FileManager.default.contents(atPath: "\(base)/cmdline")
      else { throw .unreadable(pid: pid) }
      let arguments = commandLine.split(separator: 0, omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
      }
      let directory = (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(base)/cwd")) ?? "/"
      identity = .executable(
        executable, script: script(arguments: arguments, executable: executable, directory: directory))
    }
    guard startTime(base) == started else { throw .changed(pid: pid) }
    return identity
  }

  /// The app ID in the `[Application]` group of a `.flatpak-info` key file, if it is a valid one.
  public static func flatpakAppID(_ keyFile: String) -> String? {
    var group = ""
    for line in keyFile.lines {
      let text = line.trimmed()
      if text.hasPrefix("[") && text.hasSuffix("]") {
        group = String(text.dropFirst().dropLast())
      } else if group == "Application", let equals = text.firstIndex(of: "="),
        text[..<equals].trimmed() == "name"
      {
        let name = text[text.index(after: equals)...].trimmed()
        return isAppID(name) ? name : nil
      }
    }
    return nil
  }

  /// Whether `name` is a well-formed app ID (a D-Bus well-known name): two or more dot-separated elements of ASCII
  /// letters, digits, `_` and `-`, none starting with a digit, at most 255 characters.
  public static func isAppID(_ name: String) -> Bool {
    let elements = name.split(separator: ".", omittingEmptySubsequences: false)
    return name.utf8.count <= 255 && elements.count >= 2
      && elements.allSatisfy { element in
        guard let first = element.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return element.unicodeScalars.allSatisfy { $0.isASCIIAlphanumeric || $0 == "_" || $0 == "-" }
      }
  }

  /// The interpreters whose script, not themselves, is the app (by name without a version: `python3.11` is
  /// `python`).
  static let interpreters: Set<String> = [
    "python", "gjs", "gjs-console", "node", "nodejs", "perl", "ruby", "bash", "sh", "dash", "zsh", "lua", "dotnet",
    "java", "php", "tclsh", "wish", "guile",
  ]

  /// The options of an interpreter that take the next argument as their value: that argument is not the script
  /// (`python3 -X /home/ann/notes.py evil.py` runs evil.py).
  static let optionsWithValue: [String: Set<String>] = [
    "python": ["-X", "-W", "--check-hash-based-pycs"],
    "bash": ["-o", "+o", "-O", "+O", "--rcfile", "--init-file"], "sh": ["-o", "+o"], "dash": ["-o", "+o"],
    "zsh": ["-o", "+o"],
    "node": ["-r", "--require", "--import", "--loader", "--experimental-loader", "--input-type", "--title", "-C"],
    "ruby": ["-I", "-r", "-C", "-E"], "gjs": ["-I", "--include-path", "--coverage-prefix", "--coverage-output"],
    "lua": ["-l"], "php": ["-c", "-d", "-z"],
    "java": ["-cp", "-classpath", "--class-path", "-p", "--module-path", "--add-modules"],
  ]

  /// The options that give code on the command line (no script), per interpreter; `-c` for the others.
  static let codeOptions: [String: Set<String>] = [
    "perl": ["-e", "-E"], "ruby": ["-e"], "node": ["-e", "--eval", "-p", "--print"], "lua": ["-e"], "php": ["-r"],
  ]

  /// Other names of one interpreter, as the tables above know it.
  private static let aliases = ["nodejs": "node", "gjs-console": "gjs"]

  /// The script an interpreter `executable` runs according to its command line (`arguments`, the interpreter's name
  /// first), made absolute against its working `directory`; `-m module` for Python's modules, the jar of `java
  /// -jar`. Nil for a program that is not an interpreter, or when no script is named (code given on the command
  /// line, or read from standard input).
  public static func script(arguments: [String], executable: String, directory: String) -> String? {
    let name = executable.split(separator: "/").last.map(String.init) ?? executable
    let family = name.trimmed { $0.isNumber || $0 == "." }
    let known = interpreters.contains(family) ? family : name
    guard interpreters.contains(known) else { return nil }
    let options = aliases[known] ?? known
    let withValue = optionsWithValue[options] ?? []
    let code = codeOptions[options] ?? ["-c"]
    var rest = arguments.dropFirst().filter { !$0.isEmpty }[...]
    while let argument = rest.first {
      rest = rest.dropFirst()
      if argument == "-m", let module = rest.first { return "-m \(module)" }
      if code.contains(argument) { return nil }
      if argument == "--" || (argument == "-jar" && options == "java") {
        return rest.first.map { absolute($0, in: directory) }
      }
      if withValue.contains(argument) {
        rest = rest.dropFirst()
        continue
      }
      // A long option with its value after "=": code (`--eval=…`) names no script; any other is passed over.
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        if code.contains(String(argument[..<equals])) { return nil }
        continue
      }
      // Short options run together, or with their value attached (`-cCODE`, `-mMODULE`, `-Bc CODE`, `-Xdev`):
      // read one letter at a time, as the interpreter does (java's options are words, never run together).
      if argument.hasPrefix("-"), !argument.hasPrefix("--"), argument.count > 2, options != "java" {
        switch Self.cluster(argument, rest: &rest, code: code, withValue: withValue) {
        case .code: return nil
        case .module(let module): return "-m \(module)"
        case .flags: continue
        }
      }
      // A flag; the shells also take them with "+" (set +x).
      if argument.hasPrefix("-") || (argument.hasPrefix("+") && withValue.contains("+o")) { continue }
      return absolute(argument, in: directory)
    }
    return nil
  }

  /// What a run of short options (`-Bc`) says: code on the command line, a module, or flags and values only.
  private enum Cluster {
    case code
    case module(String)
    case flags
  }

  /// Reads the short options run together in `argument`, taking a value from `rest` for the last one when it needs
  /// one and has none attached.
  private static func cluster(
    _ argument: String, rest: inout ArraySlice<String>, code: Set<String>, withValue: Set<String>
  ) -> Cluster {
    var letters = argument.dropFirst()[...]
    while let letter = letters.first {
      letters = letters.dropFirst()
      let option = "-" + String(letter)
      let attached = letters.isEmpty ? nil : String(letters)
      if code.contains(option) { return .code }
      if option == "-m" {
        guard let module = attached ?? rest.first else { return .flags }
        return .module(module)
      }
      if withValue.contains(option) {
        if attached == nil { rest = rest.dropFirst() }
        return .flags
      }
    }
    return .flags
  }

  private static func absolute(_ path: String, in directory: String) -> String {
    guard !path.hasPrefix("/") else { return URL(filePath: path).standardized.path(percentEncoded: false) }
    return URL(filePath: directory, directoryHint: .isDirectory).appending(path: path).standardized.path(
      percentEncoded: false)
  }

  /// Field 22 of `/proc/PID/stat`: when the process started, in clock ticks since boot.
  private static func startTime(_ base: String) -> String? {
    guard let stat = FileManager.default.contents(atPath: "\(base)/stat") else { return nil }
    let text = String(decoding: stat, as: UTF8.self)
    // The command name (field 2) is in parentheses and may hold spaces or ")": count from the last ")".
    guard let close = text.lastIndex(of: ")") else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")
    return fields.count > 19 ? String(fields[19]) : nil
  }
}

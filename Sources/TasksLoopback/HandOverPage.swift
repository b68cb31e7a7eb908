// HandOverPage: what the browser is given to start a sign-in: a page only this user can read that sends it on to
// the listener's one-time start address. Sendable.

import FoundationEssentials
import Glibc
import TasksCore

/// A page in this user's `PrivateFolder` (mode 0600, in a 0700 folder) that sends the browser on to `target`. A
/// browser is handed the page's `file://` address, so the one-time start address is on no command line: every local
/// user can read `/proc/PID/cmdline`, and another user who opened the start address before the browser would sign
/// this user's apps into an account of theirs. Removed when the sign-in ends.
public struct HandOverPage: Sendable {
  /// Why the page could not be written.
  public enum Failure: Error, Equatable, Sendable {
    case folder(PrivateFolder.Failure)
    /// The file could not be created (path, errno).
    case cannotWrite(String, Int32)

    /// One line for the user, naming the path.
    public var message: String {
      switch self {
      case .folder(.unsafe(let path)):
        String(
          template: tr("The folder %@ is open to other users or not yours, so no sign-in page was written there."),
          path)
      case .folder(.cannotMake(let path, _)), .cannotWrite(let path, _):
        String(template: tr("The sign-in page for your browser could not be written at %@."), path)
      }
    }
  }

  /// The page's address, for the browser.
  public let url: URL
  private let path: String

  /// Writes a new page leading to `target` (an `http` address holding no token).
  public init(leadingTo target: URL, folder: PrivateFolder = PrivateFolder()) throws(Failure) {
    do throws(PrivateFolder.Failure) { try folder.make() } catch { throw .folder(error) }
    path = folder.path + "/sign-in-\(RandomToken.make(bytes: 16)).html"
    let address = Self.escape(target.absoluteString)
    let html = """
      <!DOCTYPE html><html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
      <meta http-equiv="refresh" content="0; url=\(address)"><title>B2C Tasks</title></head>
      <body><p><a href="\(address)">\(Self.escape(tr("Continue to sign in")))</a></p>
      <script>location.replace(\(Self.script(target.absoluteString)))</script></body></html>

      """
    // A new file (O_EXCL: never one planted under that name), never through a link, readable by this user only.
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .cannotWrite(path, errno) }
    defer { close(descriptor) }
    let bytes = Array(html.utf8)
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard written == bytes.count else {
      unlink(path)
      throw .cannotWrite(path, errno)
    }
    url = URL(filePath: path)
  }

  /// Removes the page (again: harmless).
  public func remove() {
    unlink(path)
  }

  private static func escape(_ text: String) -> String {
    text.replacing("&", with: "&amp;").replacing("\"", with: "&quot;").replacing("<", with: "&lt;")
      .replacing(">", with: "&gt;")
  }

  /// `text` as a JavaScript string literal that cannot end the script element.
  private static func script(_ text: String) -> String {
    var literal = "\""
    for scalar in text.unicodeScalars {
      if scalar.isASCII, scalar.value >= 0x20, scalar.value < 0x7f, !"\"\\<>&'".unicodeScalars.contains(scalar) {
        literal.unicodeScalars.append(scalar)
      } else {
        // Outside ASCII's printable part (not in a URL's absolute string) or able to end the string or the element.
        for unit in String(scalar).utf16 {
          let hex = String(unit, radix: 16)
          literal += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
      }
    }
    return literal + "\""
  }
}

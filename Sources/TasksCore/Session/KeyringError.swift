// KeyringError: why the desktop keyring (the session store) could not be used. Value type; any thread.

/// Why the desktop keyring could not be used. The message says what a user can do; it never holds a secret.
public struct KeyringError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Code: String, Sendable {
    /// No Secret Service answers on the session bus (no gnome-keyring, no D-Bus session).
    case unavailable
    /// The keyring is locked and was not unlocked.
    case locked
    /// The user dismissed the unlock prompt, or the service refused the request.
    case refused
    /// Any other failure of the service.
    case failed
  }

  /// What went wrong.
  public let code: Code
  /// The service's own words, for "copy details"; never shown as the main message.
  public let detail: String

  /// Creates an error.
  public init(_ code: Code, detail: String = "") {
    self.code = code
    self.detail = detail
  }

  /// One line for the user.
  public var message: String {
    switch code {
    case .unavailable:
      return tr("No keyring is running, so B2C Tasks cannot keep you signed in. Start GNOME Keyring and try again.")
    case .locked: return tr("Your keyring is locked. Unlock it to stay signed in.")
    case .refused: return tr("The keyring refused to keep your sign-in.")
    case .failed: return tr("The keyring could not keep your sign-in.")
    }
  }

  /// The message, then the service's detail.
  public var description: String { detail.isEmpty ? message : "\(message) (\(detail))" }
}

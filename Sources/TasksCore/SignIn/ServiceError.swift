// ServiceError: an error B2C reported, split into its parts. Value type; any thread.

import FoundationEssentials

/// An error reported by B2C, from a redirect (`error`, `error_description`) or a token response body.
///
/// B2C's descriptions look like `AADB2C90080: The provided grant has expired…\r\nCorrelation ID: …\r\nTimestamp: …`.
/// The first line (without the code) is what a user reads; the code, correlation id and timestamp are what support
/// asks for ("Copy details"). Nothing here is secret.
public struct ServiceError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The OAuth error (`access_denied`, `invalid_grant`, …).
  public var error: String
  /// The B2C code (`AADB2C90118`…), when the description starts with one.
  public var code: String?
  /// The first line of the description, without the code.
  public var message: String
  /// The correlation id, when given.
  public var correlationID: String?
  /// The timestamp B2C wrote, when given.
  public var timestamp: String?

  /// Splits `error` and `error_description` as B2C writes them.
  public init(error: String, description: String?) {
    self.error = error
    let lines = (description ?? "").lines.map { $0.trimmed() }.filter { !$0.isEmpty }
    var first = lines.first ?? ""
    if let colon = first.firstIndex(of: ":"), ServiceError.isCode(first[..<colon]) {
      code = String(first[..<colon])
      first = first[first.index(after: colon)...].trimmed()
    }
    message = first.isEmpty ? error : first
    correlationID = ServiceError.value(of: "Correlation ID", in: lines)
    timestamp = ServiceError.value(of: "Timestamp", in: lines)
  }

  /// Known B2C codes the app acts on.
  public static let forgotPasswordCode = "AADB2C90118"
  /// The user pressed Cancel on a B2C page.
  public static let cancelledCode = "AADB2C90091"

  /// `CODE: message`, or the message alone.
  public var description: String { code.map { "\($0): \(message)" } ?? message }

  /// Lines for "Copy details": code, message, correlation id and time.
  public var details: String {
    var lines = ["Error: \(error)"]
    if let errorCode = code { lines.append("Code: \(errorCode)") }  // B2C's error code (AADB2C…)
    lines.append("Message: \(message)")
    if let correlationID { lines.append("Correlation ID: \(correlationID)") }
    if let timestamp { lines.append("Timestamp: \(timestamp)") }
    return lines.joined(separator: "\n")
  }

  private static func isCode(_ text: Substring) -> Bool {
    text.hasPrefix("AADB2C") && text.count <= 16 && text.dropFirst(6).allSatisfy(\.isNumber) && text.count > 6
  }

  private static func value(of name: String, in lines: [String]) -> String? {
    for line in lines where line.lowercased().hasPrefix(name.lowercased() + ":") {
      let value = line.dropFirst(name.count + 1).trimmed()
      return value.isEmpty ? nil : value
    }
    return nil
  }
}

// Phrases: the rows' translated phrases, looked up once. Value types; any thread.

import FoundationEssentials

/// The row's translated phrases, looked up once: a row bound to another task (200 of them a frame while the scroll
/// bar is dragged) fills them in without asking gettext or formatting with Foundation again.
public enum Phrases {
  /// A ticked task's state.
  public static let done = tr("done")
  /// An open task's state.
  public static let notDone = tr("not done")
  /// The caption of a task whose change waits in the outbox.
  public static let changeWaiting = tr("change waiting to be sent")
  /// "%@, %@": a text and its state.
  public static let list = Template(tr("%@, %@"))

  /// A translated message with `%@` placeholders, split once.
  public struct Template: Sendable {
    private let pieces: [Substring]

    /// Splits `format` at its placeholders.
    public init(_ format: String) {
      pieces = format.split(separator: "%@", omittingEmptySubsequences: false)
    }

    /// The message with `values` in its placeholders, in order.
    public func filled(_ values: String...) -> String {
      var result = String(pieces[0])
      for (index, piece) in pieces.dropFirst().enumerated() {
        result += index < values.count ? values[index] : ""
        result += piece
      }
      return result
    }
  }
}

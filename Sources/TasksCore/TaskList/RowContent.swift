// RowKey and RowContent: what identifies a row of the task list and what it shows, with the row's translated
// phrases. Value types; any thread.

import FoundationEssentials

/// A row of the list: a task the server has, or one still waiting in the outbox.
public enum RowKey: Hashable, Sendable {
  /// A task of the server's, by its id.
  case task(Int64)
  /// A task waiting in the outbox, by its outbox id.
  case pending(String)

  /// The string kept in the list's model.
  public var modelString: String {
    switch self {
    case .task(let id): return String(id)
    case .pending(let id): return "p:" + id
    }
  }

  /// The key a model string names; nil for any other string.
  public init?(modelString: String) {
    if modelString.hasPrefix("p:") {
      self = .pending(String(modelString.dropFirst(2)))
    } else if let id = Int64(modelString) {
      self = .task(id)
    } else {
      return nil
    }
  }
}

/// What a row shows, computed once per change of its task: binding a row compares it with what the row shows and
/// touches only what differs.
public struct RowContent: Equatable, Sendable {
  /// The task's text.
  public var text: String
  /// Whether it is done.
  public var completed: Bool
  /// Under the text: when it was modified ("2 h ago"), or that it waits to be sent.
  public var caption: String
  /// Whether the server has it (a waiting task cannot be ticked yet).
  public var confirmed: Bool
  /// Whether a change to it (ticked, edited) waits to be sent; the caption says so.
  public var changeWaiting = false

  /// What a row shows.
  public init(text: String, completed: Bool, caption: String, confirmed: Bool, changeWaiting: Bool = false) {
    self.text = text
    self.completed = completed
    self.caption = caption
    self.confirmed = confirmed
    self.changeWaiting = changeWaiting
  }

  /// What assistive technologies hear for the row: its text and its state ("buy milk, not done"), and a change
  /// waiting to be sent.
  public var spokenName: String {
    let state = !confirmed ? caption : completed ? Phrases.done : Phrases.notDone
    let name = Phrases.list.filled(text, state)
    return changeWaiting ? Phrases.list.filled(name, caption) : name
  }
}

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
  /// "Delete “%@”": the delete button's name.
  public static let delete = Template(tr("Delete “%@”"))
  /// The delete button's tooltip.
  public static let deleteTooltip = tr("Delete")

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

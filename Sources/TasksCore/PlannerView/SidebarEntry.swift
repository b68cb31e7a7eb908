// PlannerSelection, SidebarEntry: what the planner's sidebar offers — Today, Upcoming and each list, with its count
// and who shares it — as values the sidebar's rows are made from. Values; any thread.

import FoundationEssentials

/// What the main list shows: a smart view across lists, or one list.
public enum PlannerSelection: Hashable, Sendable {
  /// Open tasks due today or before, in every list.
  case today
  /// Open tasks due in the next 7 days (from tomorrow), grouped by day.
  case upcoming
  case list(UUID)

  /// The string kept in the sidebar's model.
  public var modelString: String {
    switch self {
    case .today: "today"
    case .upcoming: "upcoming"
    case .list(let id): id.uuidString.lowercased()
    }
  }

  /// The selection a model string names; nil for any other string.
  public init?(modelString: String) {
    switch modelString {
    case "today": self = .today
    case "upcoming": self = .upcoming
    default:
      guard let id = UUID(uuidString: modelString) else { return nil }
      self = .list(id)
    }
  }
}

/// One entry of the sidebar.
public struct SidebarEntry: Equatable, Sendable {
  public var selection: PlannerSelection
  /// "Today", "Upcoming", or the list's name.
  public var name: String
  /// Its open tasks (Today and Upcoming: across lists).
  public var count: Int
  /// "Shared with Bob", "Shared by Ann", "Shared": for a shared list.
  public var sharing: String?
  /// The user owns it (may rename, share and delete it); false for Today, Upcoming and lists shared with them.
  public var owned: Bool
  /// The account's default list (cannot be deleted).
  public var isDefault: Bool

  /// What assistive technologies hear: "Work, 3 open tasks, shared with Bob".
  public var spokenName: String {
    var parts = [name, String(template: trn("%d open task", "%d open tasks", count), count)]
    if let sharing { parts.append(sharing) }
    return parts.joined(separator: ", ")
  }

  /// The sharing line of `list`, with its `members` when they are known.
  static func sharing(of list: PlannerListItem, members: [PlannerMemberItem]?) -> String? {
    guard list.shared || (members?.count ?? 0) > 1 else { return nil }
    let others = (members ?? []).filter { !$0.isYou }
    switch list.role {
    case .owner:
      let names = others.compactMap(\.displayName)
      return names.isEmpty ? tr("Shared") : Phrases.sharedWith.filled(names.joined(separator: ", "))
    case .member:
      guard let owner = others.first(where: { $0.role == .owner })?.displayName else { return tr("Shared") }
      return Phrases.sharedBy.filled(owner)
    }
  }
}

extension Phrases {
  /// "Shared with %@": a list the user shares with others (their names).
  public static let sharedWith = Template(tr("Shared with %@"))
  /// "Shared by %@": a list someone shares with the user (their name).
  public static let sharedBy = Template(tr("Shared by %@"))
}

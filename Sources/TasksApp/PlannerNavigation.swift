// PlannerNavigation: the sidebar beside the list page, folded away on a narrow window, and the moves between its
// entries (Ctrl+1…9, Alt+Up/Down, Ctrl+L). Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// The leaflet of the sidebar and the list page: which of them a narrow window shows, and the sidebar's entries.
/// Until the user chooses an entry, the default list is the one shown.
@MainActor
final class PlannerNavigation {
  // Template widgets (the builder keeps them).
  private let leaflet: OpaquePointer
  private let sidebarBox: Widget
  // Owned.
  let sidebar: PlannerSidebar
  /// Whether the user chose an entry (until then, the default list is shown when it comes).
  private(set) var chosen = false
  /// Called with whether the sidebar is folded away (a narrow window): the header's button brings it back.
  var onFoldChanged: (Bool) -> Void = { _ in }
  /// Called with the entry the user chose in the sidebar.
  var onChoose: (PlannerSelection) -> Void = { _ in }

  init(builder: Builder) {
    leaflet = builder.opaqueObject("planner_leaflet", adw_leaflet_get_type())
    sidebarBox = builder.widget("sidebar_box")
    sidebar = PlannerSidebar(builder: builder)
    sidebar.onSelect = { [unowned self] selection in
      self.chosen = true
      self.onChoose(selection)
      self.showContent()
    }
    Signal.connect(Widget(UnsafeMutableRawPointer(leaflet)), "notify::folded") {
      [unowned self] (_: UnsafeMutableRawPointer?) in
      self.presentShownPane()
      self.onFoldChanged(adw_leaflet_get_folded(self.leaflet) != 0)
    }
    Signal.connect(Widget(UnsafeMutableRawPointer(leaflet)), "notify::visible-child") {
      [unowned self] (_: UnsafeMutableRawPointer?) in self.presentShownPane()
    }
    sidebarBox.isVisible = false  // until the service's lists come (a service without v2 has none)
  }

  /// Shows the sidebar when there are lists.
  func showSidebar(_ shown: Bool) { sidebarBox.isVisible = shown }

  /// The user chose `selection` (from the keyboard, or a list just made or joined).
  func choose() {
    chosen = true
    showContent()
  }

  /// On a narrow window, the list page rather than the sidebar.
  func showContent() { adw_leaflet_set_visible_child_name(leaflet, "content") }

  /// Ctrl+L: the sidebar (brought back on a narrow window, where it had folded away), focused on `selection`.
  func focusSidebar(_ selection: PlannerSelection) {
    adw_leaflet_set_visible_child_name(leaflet, "sidebar")
    sidebar.focus(selection)
    // A folded leaflet maps the sidebar as its transition starts: the focus follows once it has.
    Task { self.sidebar.focus(selection) }
  }

  /// Forgets the user's choice (signed out: the next account starts on its default list).
  func reset() { chosen = false }

  /// A folded leaflet shows one pane: only that one is presented to assistive technologies (GTK 4.8 presents the
  /// other too, off screen: a screen reader would read the sidebar's lists beside the list page).
  private func presentShownPane() {
    let folded = adw_leaflet_get_folded(leaflet) != 0
    let shown = adw_leaflet_get_visible_child(leaflet)
    for name in ["sidebar", "content"] {
      guard let pane = adw_leaflet_get_child_by_name(leaflet, name) else { continue }
      Widget(pane).setAccessibleHidden(folded && pane != shown)
    }
  }
}

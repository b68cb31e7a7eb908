// Tooltip: a widget's tooltip given when GTK asks for it. Main actor.

import CGtk

/// Tooltips set without `gtk_widget_set_tooltip_text`, which makes GTK 4.8 look for the widget under the pointer
/// again each time it is called, the largest part of the cost of making a task row (Tests/Benchmarks/RESULTS.md).
@MainActor
public enum Tooltip {
  /// Shows `text` as `widget`'s tooltip, and gives it to assistive technologies as the widget's description, as a
  /// tooltip set the usual way is (unless `describing` is false: the widget's name already says it).
  public static func set(_ widget: some GPointer, _ text: String, describing: Bool = true) {
    set(widget) { text }
    if describing { b2c_accessible_set_description(widget.widget, text) }
  }

  /// Shows what `text` answers when GTK asks (nil: no tooltip), for a tooltip that changes; once per widget. Turn it
  /// off with `hasTooltip` while there is none, so GTK does not ask.
  public static func set(_ widget: some GPointer, _ text: @escaping @MainActor () -> String?) {
    gtk_widget_set_has_tooltip(widget.widget, 1)
    Signal.connectQueryTooltip(widget.widget) { tooltip in
      guard let text = text() else { return false }
      gtk_tooltip_set_text(tooltip, text)
      return true
    }
  }
}

// Tooltip: a widget's tooltip given when GTK asks for it. Main actor.

import CGtk

/// Tooltips set without `gtk_widget_set_tooltip_text`, which makes GTK 4.8 look for the widget under the pointer
/// again each time it is called: in a C harness, 50–170 µs a call, three quarters of the cost of making a task row
/// and 1.3 ms of building the main window's eight tooltips (Tests/Benchmarks/RESULTS.md, issue 18, lever 7).
@MainActor
public enum Tooltip {
  /// Shows `text` as `widget`'s tooltip, and gives it to assistive technologies as the widget's description, as a
  /// tooltip set the usual way is (unless `describing` is false: the widget's name already says it). Once per widget:
  /// a tooltip that changes keeps its text elsewhere and answers "query-tooltip" itself (as a long task's row does).
  public static func set(_ widget: UnsafeMutablePointer<GtkWidget>, _ text: String, describing: Bool = true) {
    gtk_widget_set_has_tooltip(widget, 1)
    Signal.connectQueryTooltip(widget) { tooltip in
      gtk_tooltip_set_text(tooltip, text)
      return true
    }
    if describing { b2c_accessible_set_description(widget, text) }
  }
}

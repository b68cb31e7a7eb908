// Tooltip: a widget's tooltip given when GTK asks for it. Main actor.

import CGtk

/// Tooltips set without `gtk_widget_set_tooltip_text`, which makes GTK 4.8 look for the widget under the pointer
/// again each time it is called: in a C harness, 50–170 µs a call, three quarters of the cost of making a task row
/// and 1.3 ms of building the main window's eight tooltips (Tests/Benchmarks/RESULTS.md, issue 18, lever 7).
@MainActor
public enum Tooltip {
  /// Shows `text` as `widget`'s tooltip, and gives it to assistive technologies as the widget's description, as a
  /// tooltip set the usual way is (unless `describing` is false: the widget's name already says it).
  public static func set(_ widget: UnsafeMutablePointer<GtkWidget>, _ text: String, describing: Bool = true) {
    set(widget) { text }
    if describing { b2c_accessible_set_description(widget, text) }
  }

  /// Shows what `text` answers when GTK asks (nil: no tooltip), for a tooltip that changes; once per widget. Turn it
  /// off with `gtk_widget_set_has_tooltip` while there is none, so GTK does not ask.
  public static func set(_ widget: UnsafeMutablePointer<GtkWidget>, _ text: @escaping @MainActor () -> String?) {
    gtk_widget_set_has_tooltip(widget, 1)
    Signal.connectQueryTooltip(widget) { tooltip in
      guard let text = text() else { return false }
      gtk_tooltip_set_text(tooltip, text)
      return true
    }
  }
}

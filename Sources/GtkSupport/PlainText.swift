// PlainText: text put where libadwaita reads Pango markup, shown as written. Main actor.

import CGtk

/// Status page descriptions and toast titles are Pango markup in libadwaita 1.2. Everything the app shows there —
/// a settings file's path, a provider's or the task service's message, a task's text — goes through here, escaped:
/// an `&` no longer blanks the page, and a server's `<a href>` never becomes a link in the app's own chrome.
@MainActor
public enum PlainText {
  /// `text` with Pango's markup characters escaped.
  public static func escaped(_ text: String) -> String {
    guard let escaped = g_markup_escape_text(text, -1) else { return "" }
    defer { g_free(escaped) }
    return String(cString: escaped)
  }

  /// A new toast titled `title` (a floating reference, as `adw_toast_new`).
  public static func toast(_ title: String) -> OpaquePointer {
    adw_toast_new(escaped(title))!
  }

  /// Sets `page`'s description to `text`.
  public static func setDescription(_ page: OpaquePointer, _ text: String) {
    adw_status_page_set_description(page, escaped(text))
  }
}

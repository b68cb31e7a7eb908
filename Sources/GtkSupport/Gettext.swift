// Gettext: the translation domain of B2C Tasks. Any thread.

import CGtk

/// Binds and reads the app's gettext domain.
public enum Gettext {
  /// The gettext domain of every B2C Tasks program, also named in the `.ui` files.
  public static let domain = "b2c-tasks"

  /// Sets the locale from the environment and binds the domain to `localeDirectory`. Call once at start.
  public static func setUp(localeDirectory: String) {
    setlocale(LC_ALL, "")
    bindtextdomain(domain, localeDirectory)
    bind_textdomain_codeset(domain, "UTF-8")
    textdomain(domain)
  }
}

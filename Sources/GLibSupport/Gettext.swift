// Gettext: the translation domain of B2C Tasks. Any thread.

import CGio

/// Binds the app's gettext domain.
public enum Gettext {
  /// Sets the locale from the environment and binds `domain` to `localeDirectory`. Call once at start.
  public static func setUp(domain: String, localeDirectory: String) {
    setlocale(LC_ALL, "")
    bindtextdomain(domain, localeDirectory)
    bind_textdomain_codeset(domain, "UTF-8")
    textdomain(domain)
  }
}

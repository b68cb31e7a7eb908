// SettingsKey: the keys of the app's GSettings schema (`data/io.github.b2ctasks.B2CTasks.gschema.xml`), named once.
// meson's names-agree test fails when this list and the schema's differ.

/// A key of the `io.github.b2ctasks.B2CTasks` schema.
enum SettingsKey: String, CaseIterable {
  case windowWidth = "window-width"
  case windowHeight = "window-height"
  case windowMaximized = "window-maximized"
  case keepSignedIn = "keep-signed-in"
  case showCompleted = "show-completed"
  case browserSignInTimeout = "browser-sign-in-timeout"
  case remindersInBackground = "reminders-in-background"
}

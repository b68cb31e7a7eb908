// AppIdentity: the names B2C Tasks is known by, in one place. Value constants; any thread.

/// The names every program of B2C Tasks takes from here: the application ID (D-Bus name, GSettings schema, data,
/// config and cache folders, the default keychain group) and the gettext domain (also named in the `.ui` files and
/// `meson-wrap/meson.build`). The keyring's attribute names live with the schema, in `Sources/CSecret/shim.h`.
public enum AppIdentity {
  /// The application ID.
  public static let appID = "io.github.b2ctasks.B2CTasks"
  /// The gettext domain of every B2C Tasks program.
  public static let gettextDomain = "b2c-tasks"
  /// The app's symbolic icon (in the app's resources; the welcome page names it in `main-window.ui`).
  public static let symbolicIcon = appID + "-symbolic"

  /// The sign-in broker's names on the session bus (also in `data/io.github.b2ctasks.Broker.service.in` and
  /// `data/io.github.b2ctasks.Broker1.xml`, which meson's names-agree test compares with these).
  public enum Broker {
    /// The bus name the broker owns.
    public static let busName = "io.github.b2ctasks.Broker"
    /// The broker's object.
    public static let objectPath = "/io/github/b2ctasks/Broker"
    /// The broker's interface (its description is `INTERFACE.xml`).
    public static let interface = "io.github.b2ctasks.Broker1"
    /// The D-Bus name of the broker's error `name` (`Denied`, `NotSignedIn`, …).
    public static func error(_ name: String) -> String { interface + ".Error." + name }
  }

  /// The reminder service's names (also in `data/io.github.b2ctasks.B2CTasks.Reminders.service.in` and
  /// `….desktop.in`, which meson's names-agree test compares with these), and what its callers ask of it.
  public enum Reminders {
    /// Its application ID: its bus name, its desktop entry's and its autostart entry's names.
    public static let appID = "io.github.b2ctasks.B2CTasks.Reminders"
    /// How long a notification's Snooze puts the reminder off (and the CLI's snooze, unless told otherwise).
    public static let snoozeMinutes = 10

    /// Its `app.` actions: the notifications' buttons and click (a task's id as the parameter), and what the window
    /// and the CLI ask of it.
    public enum Action: String, Sendable, CaseIterable {
      /// Mark as Done (the task's id).
      case done
      /// Snooze, for `snoozeMinutes` (the task's id).
      case snooze
      /// The notification clicked: the window opens on the task (the task's id).
      case open
      /// Read the keyring and the feed now (after an edit, or a sign-out).
      case refresh
      /// Withdraw every notification and end (the Preferences switch turned off).
      case quit

      /// As a notification names it: `app.done`.
      public var detailedName: String { "app." + rawValue }
    }
  }
}

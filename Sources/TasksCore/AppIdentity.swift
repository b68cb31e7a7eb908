// AppIdentity: the names B2C Tasks is known by, in one place. Value constants; any thread.

/// The names every program of B2C Tasks takes from here: the application ID (D-Bus name, GSettings schema, data,
/// config and cache folders, the default keychain group) and the gettext domain (also named in the `.ui` files and
/// `meson-wrap/meson.build`). The keyring's attribute names live with the schema, in `Sources/CSecret/shim.h`.
public enum AppIdentity {
  /// The application ID.
  public static let appID = "io.github.b2ctasks.B2CTasks"
  /// The gettext domain of every B2C Tasks program.
  public static let gettextDomain = "b2c-tasks"

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
}

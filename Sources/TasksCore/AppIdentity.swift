// AppIdentity: the names B2C Tasks is known by, in one place. Value constants; any thread.

/// The names every program of B2C Tasks takes from here: the application ID (D-Bus name, GSettings schema, data,
/// config and cache folders, the default keychain group) and the gettext domain (also named in the `.ui` files and
/// `meson-wrap/meson.build`). The keyring's attribute names live with the schema, in `Sources/CSecret/shim.h`.
public enum AppIdentity {
  /// The application ID.
  public static let appID = "io.github.b2ctasks.B2CTasks"
  /// The gettext domain of every B2C Tasks program.
  public static let gettextDomain = "b2c-tasks"
}

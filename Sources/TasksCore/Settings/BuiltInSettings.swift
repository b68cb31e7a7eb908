// BuiltInSettings: the default settings, which point at the local b2c-playground. Constant; any thread.

/// The settings used when the user has none: the bundled b2c-playground on loopback, with its registered client.
///
/// Kept as property-list text so it goes through the same validation as a user's file.
public enum BuiltInSettings {
  /// The playground's address.
  public static let playgroundURL = "http://127.0.0.1:5995"

  /// The property list.
  public static let propertyList = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
      <key>clientID</key><string>6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f10</string>
      <key>authorityHost</key><string>\(playgroundURL)</string>
      <key>tenant</key><string>b2ctasks.onmicrosoft.com</string>
      <key>signInPolicy</key><string>B2C_1_SignUpOrSignIn</string>
      <key>passwordResetPolicy</key><string>B2C_1_PasswordReset</string>
      <key>editProfilePolicy</key><string>B2C_1_EditProfile</string>
      <key>redirectURI</key><string>urn:ietf:wg:oauth:2.0:oob</string>
      <key>keychain</key><string>io.github.b2ctasks.B2CTasks</string>
      <key>taskAPI</key><string>\(playgroundURL)</string>
      <key>bearerToken</key><string>access_token</string>
    </dict>
    </plist>
    """
}

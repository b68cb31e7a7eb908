// FourKeySettings: the smallest settings file a provider needs (issue 14's promise): clientID, authority, keychain
// and taskAPI, nothing else; the redirect, scopes and bearer come from the app's defaults.

import Foundation

/// A settings property list of exactly `clientID`, `authority`, `keychain` and `taskAPI`.
public func fourKeySettings(clientID: String, authority: String, keychain: String, taskAPI: String) -> String {
  """
  <?xml version="1.0" encoding="UTF-8"?>
  <plist version="1.0"><dict>
    <key>clientID</key><string>\(clientID)</string>
    <key>authority</key><string>\(authority)</string>
    <key>keychain</key><string>\(keychain)</string>
    <key>taskAPI</key><string>\(taskAPI)</string>
  </dict></plist>
  """
}

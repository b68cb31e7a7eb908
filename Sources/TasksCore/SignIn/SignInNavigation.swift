// SignInNavigation: which pages the sign-in web view may load. Value type; any thread.

import FoundationEssentials

/// What the embedded sign-in view may navigate to, besides the app's own redirect (which the interpreter catches
/// first): B2C's pages over https, the playground or a development tenant over http on loopback only, and the
/// browser's own `about:`, `data:` and `blob:` documents. Anything else — plain http to another host, `file:`,
/// `javascript:`, other schemes — is refused, so a hostile page cannot lead the sign-in off TLS.
public enum SignInNavigation {
  /// Whether the sign-in view may load `uri`.
  public static func mayLoad(_ uri: String) -> Bool {
    guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased() else {
      return false
    }
    switch scheme {
    case "https": return !(components.host ?? "").isEmpty
    case "about", "data", "blob": return true
    case "http": return LoopbackHost.contains(components.host ?? "")
    default: return false
    }
  }
}

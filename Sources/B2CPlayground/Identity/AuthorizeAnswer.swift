// AuthorizeAnswer: how the end of an authorize request goes back to the app, in the response mode it asked for
// (query, fragment or form_post, as B2C and External ID offer them). Value types; any thread.

import Foundation
import Hummingbird

/// Where an authorize answer's parameters travel (OAuth 2.0 Multiple Response Type Encoding Practices §2.1 and
/// OAuth 2.0 Form Post Response Mode).
enum ResponseMode: String, Sendable, CaseIterable {
  /// In the redirect URI's query: the default for `response_type=code`, and what the app asks for.
  case query
  /// In the redirect URI's fragment.
  case fragment
  /// In a form the browser posts to the redirect URI (MSAL's loopback listener asks for this).
  case formPost = "form_post"

  /// The mode an authorize request names; nil when it names one B2C does not have.
  init?(requested value: String?) {
    guard let value else {
      self = .query
      return
    }
    self.init(rawValue: value)
  }
}

/// The answer to the app's redirect URI.
enum AuthorizeAnswer {
  /// `error` (with B2C's code in its description) and `state`, in `mode`.
  static func error(_ error: B2CError, to uri: String, state: String?, mode: ResponseMode) -> Response {
    answer(to: uri, mode: mode, [("error", error.error), ("error_description", error.description), ("state", state)])
  }

  /// `parameters` (nil values left out) sent to `uri` in `mode`: a 302 with them in the query or the fragment, or a
  /// page whose form posts them there as soon as it loads.
  static func answer(to uri: String, mode: ResponseMode, _ parameters: [(String, String?)]) -> Response {
    let present = parameters.compactMap { name, value in value.map { (name, $0) } }
    switch mode {
    case .query, .fragment:
      let encoded = present.map { "\($0)=\(formEncode($1))" }.joined(separator: "&")
      let separator = mode == .fragment ? "#" : uri.contains("?") ? "&" : "?"
      let location = encoded.isEmpty ? uri : uri + separator + encoded
      return Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
    case .formPost:
      let fields = present.map { #"<input type="hidden" name="\#(escape($0))" value="\#(escape($1))">"# }
      let page = """
        <!DOCTYPE html>
        <html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>Working...</title></head>
        <body onload="document.forms[0].submit()">
        <form method="post" action="\(escape(uri))">
        \(fields.joined(separator: "\n"))
        <noscript><p>Script is disabled. Click Continue to go on.</p><input type="submit" value="Continue"></noscript>
        </form></body></html>
        """
      return Response(
        status: .ok,
        headers: [
          .contentType: "text/html; charset=utf-8", .cacheControl: "no-store, no-cache", .init("Pragma")!: "no-cache",
          .init("X-Frame-Options")!: "DENY",
        ],
        body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
    }
  }

  /// `application/x-www-form-urlencoded` value encoding: unreserved characters kept, space as `+`.
  static func formEncode(_ value: String) -> String {
    let allowed = CharacterSet(
      charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~ ")
    let encoded = value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    return encoded.replacingOccurrences(of: " ", with: "+")
  }
}

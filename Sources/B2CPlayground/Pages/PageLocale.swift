// PageLocale: the language of the sign-in pages, from ui_locales or Accept-Language. Value type; any thread.

import Foundation

/// A language the playground's pages are written in.
public enum PageLocale: String, Sendable, CaseIterable {
  case english = "en"
  case german = "de"
  case dutch = "nl"
  case finnish = "fi"
  case italian = "it"
  case chinese = "zh-CN"

  /// The first supported language of `ui_locales` (space-separated) or `Accept-Language` (comma-separated, with
  /// q-values), else English.
  static func negotiate(uiLocales: String?, acceptLanguage: String?) -> PageLocale {
    let candidates =
      (uiLocales?.split(whereSeparator: { $0 == " " || $0 == "," }) ?? [])
      + (acceptLanguage?.split(separator: ",").map { $0.split(separator: ";").first ?? "" } ?? [])
    for candidate in candidates {
      let tag = candidate.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "-").lowercased()
      if let exact = allCases.first(where: { $0.rawValue.lowercased() == tag }) { return exact }
      let language = tag.split(separator: "-").first.map(String.init) ?? tag
      if language == "zh" { return .chinese }
      if let match = allCases.first(where: { $0.rawValue == language }) { return match }
    }
    return .english
  }
}

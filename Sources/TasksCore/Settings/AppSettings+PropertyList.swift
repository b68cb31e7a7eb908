// AppSettings+PropertyList: reads and validates settings property lists. Value types; any thread.

import FoundationEssentials

extension AppSettings {
  /// The only token-request content type B2C accepts.
  public static let formContentType = "application/x-www-form-urlencoded"

  /// Reads and validates a settings file.
  ///
  /// - Throws: `SettingsError` naming the file, the key and what is wrong.
  public static func load(from file: URL) throws(SettingsError) -> AppSettings {
    let name = file.path(percentEncoded: false)
    var isFolder = false
    guard FileManager.default.fileExists(atPath: name, isDirectory: &isFolder) else {
      throw SettingsError(.unreadable, file: name, reason: "the file does not exist")
    }
    guard !isFolder else {
      throw SettingsError(.unreadable, file: name, reason: "is a folder, not a settings file")
    }
    let data: Data
    do {
      data = try Data(contentsOf: file)
    } catch {
      throw SettingsError(.unreadable, file: name, reason: "the file cannot be read")
    }
    return try parse(data, file: name)
  }

  /// Validates the bytes of a settings property list (XML or binary); `file` names it in errors.
  public static func parse(_ data: Data, file: String) throws(SettingsError) -> AppSettings {
    guard !data.isEmpty else {
      throw SettingsError(.notAPropertyList, file: file, reason: "the file is empty")
    }
    let root: PropertyListValue
    do {
      root = try PropertyListDecoder().decode(PropertyListValue.self, from: data)
    } catch {
      throw SettingsError(
        .notAPropertyList, file: file, reason: "not a property list (XML or binary plist expected)")
    }
    guard case .dictionary(let dictionary) = root else {
      throw SettingsError(
        .notADictionary, file: file, reason: "the property list holds \(root.kind), not a dictionary of settings")
    }
    return try PropertyListReader(dictionary: dictionary, file: file).settings()
  }
}

/// Reads typed, validated values out of a settings dictionary; every failure names the key.
struct PropertyListReader {
  let dictionary: [String: PropertyListValue]
  let file: String

  func settings() throws(SettingsError) -> AppSettings {
    let clientID = try required("clientID", identifier("clientID"))
    if let secret = try string("clientSecret"), !secret.isEmpty {
      throw error(
        .invalidValue, "clientSecret",
        "must be empty: a desktop app is a public client, and B2C refuses a secret from it (AADB2C90084)")
    }
    let (authority, policyInURL) = try authority()
    let policies = try policies(for: authority, policyInURL: policyInURL)
    if let contentType = try string("contentType"),
      contentType.split(separator: ";").first?.trimmed().lowercased()
        != AppSettings.formContentType
    {
      throw error(.invalidValue, "contentType", "must be \(AppSettings.formContentType)")
    }
    let bearer = try string("bearerToken").map { value throws(SettingsError) in
      guard let kind = AppSettings.BearerToken(rawValue: value) else {
        throw error(.invalidValue, "bearerToken", "must be access_token or id_token")
      }
      return kind
    }
    let named = try scopes()
    return AppSettings(
      clientID: clientID,
      keychainGroup: try string("keychain").flatMap { $0.isEmpty ? nil : $0 }
        ?? AppIdentity.appID,
      authority: authority,
      policies: policies,
      redirectURI: try redirectURI() ?? .default(for: authority.provider),
      extraScopes: named ?? [],
      // The standard claims for a name and an address to show; B2C's user flows put them in the id_token unasked.
      defaultScopes: named == nil && !authority.hasPolicies ? ["profile", "email"] : [],
      // A plain provider's access token is for its own resource server (and may be opaque): the id_token, whose
      // audience is this app, is what the task API can check (PROTOCOL.md §9). B2C issues an access token for us.
      bearerToken: bearer ?? (authority.hasPolicies ? .accessToken : .idToken),
      taskAPI: try required("taskAPI", webURL("taskAPI")))
  }

  // MARK: Keys with structure

  /// The B2C user flows, from the policy keys and the policy the URLs name; nil for a provider without policies,
  /// where a policy key is a mistake worth saying.
  private func policies(for authority: Authority, policyInURL: String?) throws(SettingsError) -> Policies? {
    let keys = ["signInPolicy", "passwordResetPolicy", "editProfilePolicy"]
    guard authority.hasPolicies else {
      if let key = keys.first(where: { dictionary[$0] != nil }) {
        throw error(
          .invalidValue, key,
          "only Azure AD B2C has policies; remove it for this authority (user flows of "
            + "External ID are attached to the app)")
      }
      return nil
    }
    let signIn = try policy("signInPolicy") ?? policyInURL
    guard let signIn else { throw error(.missingKey, "signInPolicy", "is required with authorityHost") }
    if let policyInURL, policyInURL.lowercased() != signIn.lowercased() {
      throw error(.invalidValue, "signInPolicy", "names \(signIn) but authURL names \(policyInURL)")
    }
    return Policies(
      signIn: signIn, passwordReset: try policy("passwordResetPolicy"), editProfile: try policy("editProfilePolicy"))
  }

  /// The authority, from `authority` (any provider), `authorityHost` + `tenant` (B2C, newer shape) or `authURL` +
  /// `tokenURL` (B2C, the sample's), and the policy the URLs name, if any.
  private func authority() throws(SettingsError) -> (Authority, String?) {
    if let raw = try string("authority"), !raw.isEmpty {
      if let other = ["authorityHost", "authURL", "tokenURL"].first(where: { dictionary[$0] != nil }) {
        throw error(.invalidValue, "authority", "give either authority or \(other), not both")
      }
      return (try providerAuthority(raw), nil)
    }
    if try string("authorityHost") != nil {
      let base = try authorityBase()
      return (.tenant(base: base, tenant: try required("tenant", identifier("tenant"))), nil)
    }
    guard dictionary["authURL"] != nil || dictionary["tokenURL"] != nil else {
      throw error(.missingKey, "authority", "is required (or, for Azure AD B2C, authorityHost and tenant, or authURL)")
    }
    let authorize = try required("authURL", webURL("authURL"))
    let token = try required("tokenURL", webURL("tokenURL"))
    let (authorizeTenant, authorizePolicy) = try endpointParts("authURL", authorize, endpoint: "authorize")
    let (tokenTenant, tokenPolicy) = try endpointParts("tokenURL", token, endpoint: "token")
    guard authorize.host?.lowercased() == token.host?.lowercased(),
      authorizeTenant.lowercased() == tokenTenant.lowercased()
    else {
      throw error(.invalidValue, "tokenURL", "names another host or tenant than authURL")
    }
    guard authorizePolicy.lowercased() == tokenPolicy.lowercased() else {
      throw error(.invalidValue, "tokenURL", "names policy \(tokenPolicy) but authURL names \(authorizePolicy)")
    }
    if authorize.pathSegments.count == 5 {  // path form: the policy is a path segment
      return (.tenant(base: authorize.withPath("").withoutQuery, tenant: authorizeTenant), authorizePolicy)
    }
    return (.endpoints(authorize: authorize, token: token), authorizePolicy)
  }

  /// Splits `/{tenant}/oauth2/v2.0/{endpoint}?p={policy}` or `/{tenant}/{policy}/oauth2/v2.0/{endpoint}`.
  private func endpointParts(_ key: String, _ url: URL, endpoint: String) throws(SettingsError) -> (
    tenant: String, policy: String
  ) {
    let segments = url.pathSegments
    let queryPolicy = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
      .first { $0.name.lowercased() == "p" }?.value
    let shape = segments.map { $0.lowercased() }
    if segments.count == 4, shape[1...] == ["oauth2", "v2.0", endpoint] {
      guard let queryPolicy, PropertyListReader.isName(queryPolicy) else {
        throw error(.invalidValue, key, "names no policy (add ?p=YOUR_POLICY)")
      }
      return (segments[0], queryPolicy)
    }
    if segments.count == 5, shape[2...] == ["oauth2", "v2.0", endpoint], PropertyListReader.isName(segments[1]) {
      return (segments[0], segments[1])
    }
    throw error(.invalidValue, key, "not a B2C \(endpoint) endpoint (…/TENANT/oauth2/v2.0/\(endpoint)?p=POLICY)")
  }

  /// `authority`: an External ID authority (`https://SUBDOMAIN.ciamlogin.com[/TENANT]`, or a custom URL domain
  /// followed by the tenant id or `….onmicrosoft.com` domain) or any other OpenID Connect issuer.
  private func providerAuthority(_ raw: String) throws(SettingsError) -> Authority {
    guard let url = URL(string: raw), url.scheme != nil, let host = url.host?.lowercased(), !host.isEmpty,
      url.query == nil, url.fragment == nil, url.user == nil
    else {
      throw error(.invalidValue, "authority", "not a URL without query or fragment (https://login.example.com/…)")
    }
    try requireSecure("authority", url)
    let segments = url.pathSegments
    let base = url.withPath("")
    if host.hasSuffix(".ciamlogin.com") {
      guard segments.count <= 1 else {
        throw error(.invalidValue, "authority", "an External ID authority is https://SUBDOMAIN.ciamlogin.com[/TENANT]")
      }
      let subdomain = String(host.dropLast(".ciamlogin.com".count))
      return .externalID(base: base, tenant: segments.first ?? "\(subdomain).onmicrosoft.com")
    }
    if segments.count == 1, PropertyListReader.isTenantOfMicrosoft(segments[0]) {
      return .externalID(base: base, tenant: segments[0])  // an External ID custom URL domain
    }
    return .openID(issuer: url)
  }

  /// `authorityHost`: a host name (https is implied) or an https URL, or http on a loopback host.
  private func authorityBase() throws(SettingsError) -> URL {
    let raw = try string("authorityHost")!
    let withScheme = raw.contains("://") ? raw : "https://" + raw
    guard let url = URL(string: withScheme), url.host != nil, url.pathSegments.isEmpty, url.query == nil
    else {
      throw error(.invalidValue, "authorityHost", "not a host name or a URL without a path")
    }
    try requireSecure("authorityHost", url)
    return url
  }

  /// `redirectURI` or the sample's `bhh`; nil when neither is given (the provider's default applies).
  private func redirectURI() throws(SettingsError) -> RedirectURI? {
    let redirect = try string("redirectURI")
    let bhh = try string("bhh")
    if let redirect, let bhh, redirect != bhh {
      throw error(.invalidValue, "redirectURI", "differs from bhh; keep one of them")
    }
    guard let raw = redirect ?? bhh else { return nil }
    guard let uri = RedirectURI(raw) else {
      throw error(
        .invalidValue, redirect == nil ? "bhh" : "redirectURI",
        "not a supported redirect (urn:ietf:wg:oauth:2.0:oob, http://127.0.0.1:PORT/PATH or a reverse-DNS scheme such as com.example.app://oauth/redirect)"
      )
    }
    return uri
  }

  /// `scopes`: an array of strings or one space-separated string; `openid offline_access CLIENT_ID` are implied.
  /// `scopes`; nil when the key is absent (the provider's default applies).
  private func scopes() throws(SettingsError) -> [String]? {
    guard let value = dictionary["scopes"] else { return nil }
    let scopes: [String]
    if let text = value.string {
      scopes = text.split(whereSeparator: \.isWhitespace).map(String.init)
    } else if case .array(let array) = value {
      var strings: [String] = []
      for element in array {
        guard let scope = element.string else {
          throw error(.wrongType, "scopes", "expected strings, found \(element.kind)")
        }
        strings.append(scope)
      }
      scopes = strings
    } else {
      throw error(.wrongType, "scopes", "expected an array of strings, found \(value.kind)")
    }
    if let bad = scopes.first(where: { $0.isEmpty || $0.contains(where: \.isWhitespace) }) {
      throw error(.invalidValue, "scopes", "\"\(bad)\" is not a scope")
    }
    return scopes
  }

  // MARK: Typed values

  func string(_ key: String) throws(SettingsError) -> String? {
    guard let value = dictionary[key] else { return nil }
    guard let string = value.string else {
      throw error(.wrongType, key, "expected a string, found \(value.kind)")
    }
    return string.trimmed()
  }

  /// `value`, or a missing-key error when there is none.
  private func required<Value>(_ key: String, _ value: Value?) throws(SettingsError) -> Value {
    guard let value else { throw error(.missingKey, key, "is required") }
    return value
  }

  /// A non-empty string without spaces or slashes (client ids, tenants), or nil when absent or empty.
  private func identifier(_ key: String) throws(SettingsError) -> String? {
    guard let value = try string(key), !value.isEmpty else { return nil }
    guard !value.contains(where: { $0.isWhitespace || $0 == "/" || $0 == "?" || $0 == "#" }) else {
      throw error(.invalidValue, key, "must not contain spaces, slashes, ? or #")
    }
    return value
  }

  private func policy(_ key: String) throws(SettingsError) -> String? {
    guard let value = try string(key), !value.isEmpty else { return nil }
    guard PropertyListReader.isName(value) else {
      throw error(.invalidValue, key, "not a policy name (letters, digits, _ and - only)")
    }
    return value
  }

  /// An absolute https URL, or http on a loopback host; nil when absent or empty.
  private func webURL(_ key: String) throws(SettingsError) -> URL? {
    guard let raw = try string(key), !raw.isEmpty else { return nil }
    guard let url = URL(string: raw), url.scheme != nil, url.host?.isEmpty == false else {
      throw error(.invalidValue, key, "not a URL")
    }
    try requireSecure(key, url)
    return url
  }

  private func requireSecure(_ key: String, _ url: URL) throws(SettingsError) {
    guard LoopbackHost.permitsTransport(of: url) else {
      throw error(.invalidValue, key, "not an https URL (http is allowed only for 127.0.0.1 and localhost)")
    }
  }

  private func error(_ code: SettingsError.Code, _ key: String, _ reason: String) -> SettingsError {
    SettingsError(code, file: file, key: key, reason: reason)
  }

  /// Whether `segment` names an Entra tenant: its id (a GUID) or its `….onmicrosoft.com` domain.
  static func isTenantOfMicrosoft(_ segment: String) -> Bool {
    UUID(uuidString: segment) != nil || segment.lowercased().hasSuffix(".onmicrosoft.com")
  }

  static func isName(_ value: String) -> Bool {
    !value.isEmpty
      && value.unicodeScalars.allSatisfy { scalar in
        scalar.isASCIIAlphanumeric || scalar == "_" || scalar == "-"
      }
  }

}

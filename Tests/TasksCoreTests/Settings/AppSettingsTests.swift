// Tests of reading and validating settings files: the sample's plist as it is, the newer shape, broken files.

import Foundation
import Testing

@testable import TasksCore

@Suite("Settings files")
struct AppSettingsTests {
  private func fixture(_ name: String) throws -> URL {
    try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: "plist"))
  }

  /// Validates property-list text with one key replaced (or removed with nil) in the sample's plist.
  private func sample(replacing key: String, with value: String?) throws -> Result<AppSettings, SettingsError> {
    try sample([(key, value)])
  }

  /// Validates the sample's plist with several keys replaced (or removed with nil).
  private func sample(_ replacements: [(String, String?)]) throws -> Result<AppSettings, SettingsError> {
    var text = try String(contentsOf: fixture("sample-settings"), encoding: .utf8)
    for (key, value) in replacements {
      let pattern = try Regex("<key>\(key)</key>\\s*<[^>]+>[^<]*</[^>]+>")
      text = text.replacing(pattern, with: value.map { "<key>\(key)</key>\($0)" } ?? "")
    }
    return Result { () throws(SettingsError) in try AppSettings.parse(Data(text.utf8), file: "test.plist") }
  }

  private func failure(_ result: Result<AppSettings, SettingsError>) throws -> SettingsError {
    guard case .failure(let error) = result else {
      Issue.record("expected an error, got settings")
      throw CancellationError()
    }
    return error
  }

  @Test("the iOS sample's settings.plist loads unchanged")
  func sampleSettings() throws {
    let settings = try AppSettings.load(from: fixture("sample-settings"))
    #expect(settings.clientID == "90c0fe63-bcf2-44d5-8fb7-b8bbc0b29dc6")
    #expect(settings.keychainGroup == "com.microsoft.azureactivedirectory.samples.graph.QuickStart")
    #expect(settings.redirectURI == .outOfBand)
    #expect(settings.policies == Policies(signIn: "b2c_1_sign_in"))
    #expect(settings.taskAPI.absoluteString == "https://aadb2cplayground.azurewebsites.net")
    #expect(settings.bearerToken == .accessToken)
    #expect(settings.authority.tenantName == "fabrikamb2c.onmicrosoft.com")
    #expect(settings.authority.origin == "https://login.microsoftonline.com")
  }

  @Test("endpoints of the sample keep the policy in the query and fold the doubled slash")
  func sampleEndpoints() throws {
    let settings = try AppSettings.load(from: fixture("sample-settings"))
    let reset = try #require(settings.authority.conventionalEndpoints(for: "B2C_1_Reset"))
    #expect(
      reset.token.absoluteString
        == "https://login.microsoftonline.com/fabrikamb2c.onmicrosoft.com/oauth2/v2.0/token?p=B2C_1_Reset")
    #expect(
      reset.logout?.absoluteString
        == "https://login.microsoftonline.com/fabrikamb2c.onmicrosoft.com/oauth2/v2.0/logout?p=B2C_1_Reset")
    #expect(
      reset.discovery.absoluteString
        == "https://login.microsoftonline.com/fabrikamb2c.onmicrosoft.com/v2.0/.well-known/openid-configuration?p=B2C_1_Reset"
    )
  }

  @Test("the newer shape: authority host, tenant, policies, custom-scheme redirect, scopes, id_token bearer")
  func currentSettings() throws {
    let settings = try AppSettings.load(from: fixture("current-settings"))
    #expect(
      settings.policies
        == Policies(
          signIn: "B2C_1_SignUpOrSignIn", passwordReset: "B2C_1_PasswordReset", editProfile: "B2C_1_EditProfile"))
    #expect(settings.redirectURI.kind == .customScheme)
    #expect(settings.extraScopes == ["https://contoso.onmicrosoft.com/tasks/tasks.read"])
    #expect(settings.bearerToken == .idToken)
    let endpoints = try #require(settings.authority.conventionalEndpoints(for: settings.signInPolicy))
    #expect(
      endpoints.authorize.absoluteString
        == "https://contoso.b2clogin.com/contoso.onmicrosoft.com/B2C_1_SignUpOrSignIn/oauth2/v2.0/authorize")
    #expect(
      endpoints.discovery.absoluteString
        == "https://contoso.b2clogin.com/contoso.onmicrosoft.com/B2C_1_SignUpOrSignIn/v2.0/.well-known/openid-configuration"
    )
  }

  @Test("a path-form authURL becomes a tenant authority")
  func pathFormAuthURL() throws {
    let base = "https://fabrikamb2c.b2clogin.com/fabrikamb2c.onmicrosoft.com"
    let result = try sample([
      ("authURL", "<string>\(base)/B2C_1_SIGN_IN/oauth2/v2.0/authorize</string>"),
      ("tokenURL", "<string>\(base)/b2c_1_sign_in/oauth2/v2.0/token</string>"),
    ])
    let settings = try result.get()
    #expect(settings.signInPolicy == "B2C_1_SIGN_IN")
    guard case .tenant(let base, let tenant) = settings.authority else {
      Issue.record("expected a tenant authority")
      return
    }
    #expect(base.absoluteString == "https://fabrikamb2c.b2clogin.com")
    #expect(tenant == "fabrikamb2c.onmicrosoft.com")
  }

  @Test("the built-in settings point at the local playground")
  func builtIn() throws {
    let locator = SettingsLocator(environment: ["HOME": "/nonexistent"])
    let settings = try locator.load(.builtIn)
    #expect(settings.authority.origin == BuiltInSettings.playgroundURL)
    #expect(settings.taskAPI.absoluteString == BuiltInSettings.playgroundURL)
    #expect(settings.policies?.passwordReset != nil && settings.policies?.editProfile != nil)
  }

  @Test("look-up order: --settings, then XDG_CONFIG_HOME, then built-in")
  func lookupOrder() throws {
    let config = FileManager.default.temporaryDirectory.appending(path: "b2c-settings-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: config) }
    let locator = SettingsLocator(environment: ["XDG_CONFIG_HOME": config.path, "HOME": "/nonexistent"])
    #expect(locator.source(commandLinePath: nil) == .builtIn)
    #expect(locator.source(commandLinePath: "/x/given.plist") == .file(URL(filePath: "/x/given.plist")))
    let userFile = config.appending(path: "io.github.b2ctasks.B2CTasks/settings.plist")
    #expect(locator.userFile == userFile)
    try FileManager.default.createDirectory(at: userFile.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(contentsOf: fixture("current-settings")).write(to: userFile)
    #expect(locator.source(commandLinePath: nil) == .file(userFile))
    #expect(locator.source(commandLinePath: "/x/given.plist") == .file(URL(filePath: "/x/given.plist")))
    #expect(
      SettingsLocator(environment: ["HOME": "/home/ann"]).userFile.path
        == "/home/ann/.config/io.github.b2ctasks.B2CTasks/settings.plist")
  }

  @Test(
    "broken files name the file, the key and what is wrong",
    arguments: [
      (
        "authURL", "<string>http://login.example.com/t/oauth2/v2.0/authorize?p=x</string>",
        SettingsError.Code.invalidValue,
        "test.plist: authURL: not an https URL (http is allowed only for 127.0.0.1 and localhost)"
      ),
      ("clientID", nil, .missingKey, "test.plist: clientID: is required"),
      ("clientID", "<integer>42</integer>", .wrongType, "test.plist: clientID: expected a string, found a number"),
      ("taskAPI", "<true/>", .wrongType, "test.plist: taskAPI: expected a string, found a boolean"),
      ("taskAPI", "<string>tasks.example.com</string>", .invalidValue, "test.plist: taskAPI: not a URL"),
      ("bhh", "<string>https://example.com/callback</string>", .invalidValue, nil),
      ("clientSecret", "<string>s3cr3t-value</string>", .invalidValue, nil),
      ("contentType", "<string>application/json</string>", .invalidValue, nil),
      (
        "tokenURL",
        "<string>https://login.microsoftonline.com/fabrikamb2c.onmicrosoft.com/oauth2/v2.0/token?p=other</string>",
        .invalidValue, "test.plist: tokenURL: names policy other but authURL names b2c_1_sign_in"
      ),
      (
        "authURL",
        "<string>https://login.microsoftonline.com/fabrikamb2c.onmicrosoft.com/oauth2/v2.0/authorize</string>",
        .invalidValue, "test.plist: authURL: names no policy (add ?p=YOUR_POLICY)"
      ),
      ("authURL", "<string>https://login.microsoftonline.com/somewhere</string>", .invalidValue, nil),
      ("authURL", nil, .missingKey, nil),
      ("keychain", "<array/>", .wrongType, "test.plist: keychain: expected a string, found an array"),
    ] as [(String, String?, SettingsError.Code, String?)])
  func brokenKey(key: String, value: String?, code: SettingsError.Code, message: String?) throws {
    let error = try failure(sample(replacing: key, with: value))
    #expect(error.code == code)
    #expect(error.key == key || (key == "bhh" && error.key == "redirectURI"))
    if let message { #expect(error.description == message) }
    #expect(!error.description.contains("s3cr3t-value"))
  }

  @Test(
    "files that are not settings at all",
    arguments: [
      (Data(), SettingsError.Code.notAPropertyList, "test.plist: the file is empty"),
      (
        Data([0x00, 0xFF, 0x13, 0x37, 0xC3, 0x28, 0x9F, 0x00, 0x01]), .notAPropertyList,
        "test.plist: not a property list (XML or binary plist expected)"
      ),
      (
        Data("<plist><dict><key>clientID</key>".utf8), .notAPropertyList,
        "test.plist: not a property list (XML or binary plist expected)"
      ),
      (
        Data("<?xml version=\"1.0\"?><plist version=\"1.0\"><array><string>x</string></array></plist>".utf8),
        .notADictionary, "test.plist: the property list holds an array, not a dictionary of settings"
      ),
    ] as [(Data, SettingsError.Code, String)])
  func notSettings(data: Data, code: SettingsError.Code, message: String) throws {
    let error = try failure(Result { () throws(SettingsError) in try AppSettings.parse(data, file: "test.plist") })
    #expect(error.code == code)
    #expect(error.description == message)
  }

  @Test("a binary plist is read like XML")
  func binaryPlist() throws {
    let xml = try Data(contentsOf: fixture("sample-settings"))
    let object = try PropertyListSerialization.propertyList(from: xml, format: nil)
    let binary = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
    let settings = try AppSettings.parse(binary, file: "binary.plist")
    #expect(settings.clientID == "90c0fe63-bcf2-44d5-8fb7-b8bbc0b29dc6")
  }

  @Test("a missing file and a folder are unreadable, named by path")
  func unreadable() throws {
    let missing = try failure(
      Result { () throws(SettingsError) in try AppSettings.load(from: URL(filePath: "/nonexistent/s.plist")) })
    #expect(missing.description == "/nonexistent/s.plist: the file does not exist")
    let folder = try failure(Result { () throws(SettingsError) in try AppSettings.load(from: URL(filePath: "/tmp")) })
    #expect(folder.code == .unreadable)
  }
}

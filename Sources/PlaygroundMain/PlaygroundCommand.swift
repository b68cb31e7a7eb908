// b2c-playground: a local Azure AD B2C tenant and the sample's task API, for the app, its tests and demos.

import ArgumentParser
import B2CPlayground
import Foundation
import Logging
import TaskService

/// The command line of `b2c-playground`.
@main
struct PlaygroundCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "b2c-playground",
    abstract: "A local Azure AD B2C tenant and the sample's task API, over plain HTTP on loopback.",
    discussion: """
      Serves B2C's endpoints in all their URL forms (/{tenant}/oauth2/v2.0/authorize?p={policy} and \
      /{tenant}/{policy}/oauth2/v2.0/authorize, token, logout, discovery and keys) for the tenant \
      b2ctasks.onmicrosoft.com, and the task API at /api/tasks. Demo accounts: ann@example.com / Tasks-Demo-1 and \
      bob@example.com / Tasks-Demo-2. --flavor external-id serves Microsoft Entra External ID's endpoints instead \
      (/{tenant-id}/oauth2/v2.0/…, no policies; authority http://HOST:PORT/TENANT-ID), --flavor oidc a plain \
      OpenID Connect issuer at http://HOST:PORT.
      """)

  @Option(help: "The identity provider to play: b2c, external-id or oidc.") var flavor = Flavor.b2c
  @Option(help: "The address to listen on.") var host = "127.0.0.1"
  @Option(help: "The port to listen on (0 picks a free one).") var port = 5995
  @Option(help: "The folder for the signing key and the database (default: $XDG_DATA_HOME/b2c-playground).")
  var data: String?
  @Option(help: "The tenant's short name (NAME.onmicrosoft.com).") var tenant = "b2ctasks"
  @Option(help: "The registered client id of the app.") var clientID = PlaygroundConfiguration.appClientID
  @Option(help: "A further redirect URI to register for the client (repeatable).") var redirectURI: [String] = []
  @Flag(help: "Refuse authorize requests without a PKCE code_challenge.") var requirePKCE = false
  @Option(help: "Access token lifetime in seconds.") var accessTokenLifetime = 3600
  @Option(help: "ID token lifetime in seconds.") var idTokenLifetime = 3600
  @Option(help: "Refresh token lifetime in seconds.") var refreshTokenLifetime = 14 * 86400
  @Option(help: "Refresh token sliding window in seconds.") var refreshSlidingWindow = 90 * 86400
  @Option(help: "Authorization code lifetime in seconds.") var codeLifetime = 600
  @Option(help: "Allowed clock skew in seconds when checking tokens.") var clockSkew = 300
  @Flag(help: "Send the numbers of token responses as JSON strings.") var numbersAsStrings = false
  @Flag(help: "Do not create the demo accounts.") var noDemoAccounts = false
  @Option(help: "Validate task-API tokens of a real tenant: its policy's OpenID Connect metadata URL.")
  var issuerMetadata: String?
  @Option(help: "With --issuer-metadata: the audience (client id) its tokens must carry.") var audience: String?
  @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.") var logLevel = "info"
  @Option(help: "Serve https with this certificate chain (PEM); needs --tls-key.") var tlsCert: String?
  @Option(help: "The private key (PEM) of --tls-cert.") var tlsKey: String?
  @Option(help: "The URL the playground is reached at, if not http(s)://HOST:PORT (its issuer names it).")
  var publicURL: String?
  @Option(help: "A further Host name to answer (repeatable); others are refused (no DNS rebinding).")
  var allowedHost: [String] = []

  func validate() throws {
    if (issuerMetadata == nil) != (audience == nil) {
      throw ValidationError("--issuer-metadata and --audience go together.")
    }
    if let issuerMetadata, !IssuerKeys.isTrustworthy(issuerMetadata) {
      throw ValidationError("--issuer-metadata must be an https URL (or http on a loopback address).")
    }
    if (tlsCert == nil) != (tlsKey == nil) { throw ValidationError("--tls-cert and --tls-key go together.") }
    if let publicURL,
      URLComponents(string: publicURL).map({
        ["http", "https"].contains($0.scheme ?? "") && $0.host != nil && $0.path.isEmpty
      }) != true
    {
      throw ValidationError("--public-url must be http(s)://HOST[:PORT] without a path.")
    }
    guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown log level \(logLevel)") }
  }

  func run() async throws {
    var configuration = PlaygroundConfiguration(dataDirectory: dataDirectory)
    configuration.flavor = flavor
    configuration.host = host
    configuration.port = port
    configuration.tenantName = tenant
    configuration.clients = [
      PlaygroundConfiguration.Client(id: clientID, redirectURIs: configuration.clients[0].redirectURIs + redirectURI)
    ]
    configuration.requirePKCE = requirePKCE
    configuration.lifetimes.accessToken = accessTokenLifetime
    configuration.lifetimes.idToken = idTokenLifetime
    configuration.lifetimes.refreshToken = refreshTokenLifetime
    configuration.lifetimes.refreshSlidingWindow = refreshSlidingWindow
    configuration.lifetimes.authorizationCode = codeLifetime
    configuration.clockSkew = clockSkew
    configuration.numbersAsStrings = numbersAsStrings
    configuration.seedDemoAccounts = !noDemoAccounts
    configuration.allowedHosts = allowedHost
    configuration.publicURL = publicURL.flatMap { URL(string: $0) }
    if let tlsCert, let tlsKey {
      configuration.tls = .init(certificate: URL(filePath: tlsCert), key: URL(filePath: tlsKey))
    }
    if let issuerMetadata, let url = URL(string: issuerMetadata), let audience {
      configuration.externalTenant = .init(metadataURL: url, audience: audience)
    }
    LoggingSystem.bootstrap { label in
      var handler = StreamLogHandler.standardError(label: label)
      handler.logLevel = Logger.Level(rawValue: logLevel) ?? .info
      return handler
    }
    let playground = try await Playground(configuration: configuration)
    let (domain, tenantID) = (configuration.tenantDomain, configuration.tenantID)
    try await playground.run { origin in
      let what: String
      switch flavor {
      case .b2c: what = "B2C tenant \(domain)"
      case .externalID: what = "External ID, authority \(origin)/\(tenantID)"
      case .openID: what = "OpenID Connect issuer \(origin)"
      }
      // Scripts wait for this line; it is written in one piece and flushed.
      FileHandle.standardOutput.write(Data("b2c-playground listening on \(origin) (\(what))\n".utf8))
    }
  }

  private var dataDirectory: URL {
    if let data { return URL(filePath: data, directoryHint: .isDirectory) }
    let environment = ProcessInfo.processInfo.environment
    let base =
      environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? URL(filePath: $0, directoryHint: .isDirectory) : nil }
      ?? URL(filePath: NSHomeDirectory(), directoryHint: .isDirectory).appending(path: ".local/share")
    return base.appending(path: "b2c-playground")
  }
}

extension Flavor: ExpressibleByArgument {}

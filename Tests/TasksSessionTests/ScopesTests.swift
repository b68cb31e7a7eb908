// The scopes asked of a provider that settings of four keys leave to the app: the default `profile email` only where
// the provider's discovery document lists them, and a refusal (`invalid_scope`) that says which scopes and which
// setting. Against a provider of the test's own (a discovery document served over loopback).

import Foundation
import TasksCore
import TasksCoreTesting
import TasksTestSupport
import Testing

@Suite("Scopes asked of a provider")
struct ScopesTests {
  /// An OpenID Connect discovery document whose `scopes_supported` is argument 1 (space-separated; "-" for none
  /// listed), with its own origin as issuer.
  private static let provider = """
    def answer(origin):
        document = {"issuer": origin, "authorization_endpoint": origin + "/authorize",
                    "token_endpoint": origin + "/token", "jwks_uri": origin + "/keys"}
        if sys.argv[1] != "-":
            document["scopes_supported"] = sys.argv[1].split()
        return document
    """

  /// The scopes the authorize request asks of a provider listing `supported`, with settings of four keys (and
  /// `scopes` when given); and the session, for what follows.
  private func asked(supported: String, scopes: String? = nil) async throws -> ([String], Session, AuthorizationRequest)
  {
    let server = try await ScriptServer.json(Self.provider, [supported])
    defer { server.stop() }
    let file = SettingsFile([
      "clientID": "scopes-client", "authority": server.origin, "taskAPI": server.origin, "scopes": scopes,
    ])
    let settings = try AppSettings.parse(Data(file.xml.utf8), file: "scopes.plist")
    let session = Session(settings: settings, store: MemorySessionStore(), http: .tests)
    let request = try await session.startSignIn()
    let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    let scope = try #require(query.first { $0.name == "scope" }?.value)
    return (scope.split(separator: " ").map(String.init), session, request)
  }

  @Test("profile and email are asked for only where the document lists them (or lists no scopes); named ones always")
  func defaultsWhereListed() async throws {
    #expect(try await asked(supported: "openid offline_access tasks").0 == ["openid", "offline_access"])
    #expect(
      try await asked(supported: "openid offline_access profile email").0 == [
        "openid", "offline_access", "profile", "email",
      ])
    #expect(try await asked(supported: "openid email").0 == ["openid", "email"])
    #expect(try await asked(supported: "-").0 == ["openid", "profile", "email"])
    #expect(
      try await asked(supported: "openid", scopes: "tasks.read profile").0 == ["openid", "tasks.read", "profile"])
  }

  @Test("invalid_scope from the provider says which scopes were refused and which setting to change")
  func refusedScopesSaySo() async throws {
    let (_, session, request) = try await asked(supported: "-")
    let state = try #require(
      URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "state" }?.value)
    let step = await session.handleRedirect(
      request.redirectURI.value + "?error=invalid_scope&error_description=unknown+scope&state=\(state)")
    guard case .failed(let error) = step else {
      Issue.record("not a failure: \(step)")
      return
    }
    #expect(error.message.contains("(openid profile email)") && error.message.contains("“scopes”"), "\(error.message)")
  }
}

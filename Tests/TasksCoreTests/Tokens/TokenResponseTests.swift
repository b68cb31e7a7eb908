// Tests of the token response parser: B2C's fields, numbers as strings or integers, typed errors, and thousands of
// malformed bodies.

import Foundation
import TasksTestSupport
import Testing

@testable import TasksCore

@Suite("Token response parser")
struct TokenResponseTests {
  private func parse(_ json: String) -> Result<TokenResponse, TokenResponse.ParseError> {
    Result { () throws(TokenResponse.ParseError) in try TokenResponse.parse(Data(json.utf8)) }
  }

  @Test("B2C's answer, numbers as integers or strings")
  func b2cAnswer() throws {
    for numbers in [("3600", "1795325980", "1209600"), ("\"3600\"", "\"1795325980\"", "\"1209600\"")] {
      let body = """
        {"access_token":"a.b.c","id_token":"d.e.f","token_type":"Bearer","not_before":1795322380,
         "expires_in":\(numbers.0),"expires_on":\(numbers.1),"resource":"x","id_token_expires_in":3600,
         "profile_info":"eyJ2ZXIiOiIxLjAifQ","scope":"x offline_access openid","refresh_token":"r-1",
         "refresh_token_expires_in":\(numbers.2)}
        """
      let response = try parse(body).get()
      #expect(response.accessToken == "a.b.c" && response.idToken == "d.e.f" && response.refreshToken == "r-1")
      #expect(
        response.expiresIn == 3600 && response.expiresOn == 1_795_325_980 && response.refreshTokenExpiresIn == 1_209_600
      )
      #expect(response.scope == ["x", "offline_access", "openid"])
    }
  }

  @Test(
    "garbage gets a typed error",
    arguments: [
      ("", TokenResponse.ParseError.notJSON), ("<html>Service Unavailable</html>", .notJSON), ("[1,2]", .notJSON),
      ("{}", .noToken), (#"{"token_type":"MAC","id_token":"x"}"#, .notBearer("MAC")),
      (#"{"id_token":42}"#, .badField("id_token")), (#"{"id_token":""}"#, .badField("id_token")),
      (#"{"id_token":"a b"}"#, .badField("id_token")),
      (#"{"id_token":"x","expires_in":true}"#, .badField("expires_in")),
      (#"{"id_token":"x","expires_in":-5}"#, .badField("expires_in")),
      (#"{"id_token":"x","expires_in":"soon"}"#, .badField("expires_in")),
      (#"{"id_token":"x","expires_in":1.5}"#, .badField("expires_in")),
      (#"{"id_token":"x","scope":["openid"]}"#, .badField("scope")),
      (#"{"id_token":"x","refresh_token":{"a":1}}"#, .badField("refresh_token")),
    ])
  func garbage(body: String, error: TokenResponse.ParseError) {
    #expect(parse(body) == .failure(error))
  }

  @Test("error bodies are read as B2C's errors")
  func errorBody() throws {
    let body =
      #"{"error":"invalid_grant","error_description":"AADB2C90080: The provided grant has expired. Please re-authenticate and try again.\r\nCorrelation ID: c-1\r\nTimestamp: 2026-11-22 04:13:58Z\r\n"}"#
    let error = try #require(TokenResponse.parseError(Data(body.utf8)))
    #expect(error.code == "AADB2C90080" && error.correlationID == "c-1")
    #expect(error.message == "The provided grant has expired. Please re-authenticate and try again.")
    #expect(TokenResponse.parseError(Data("nope".utf8)) == nil)
    #expect(TokenResponse.parseError(Data(#"{"error":5}"#.utf8)) == nil)
  }

  @Test("thousands of mutated and random bodies: typed errors, never a crash")
  func fuzz() {
    var generator = SeededGenerator(seed: 4242)
    let seed = Array(
      #"{"access_token":"a.b.c","id_token":"d.e.f","token_type":"Bearer","expires_in":"3600","refresh_token":"r"}"#.utf8
    )
    var parsed = 0
    for round in 0..<6000 {
      var bytes = seed
      if round % 3 == 0 {
        bytes = (0..<Int.random(in: 0...96, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator)
        }
      } else {
        for _ in 0..<Int.random(in: 1...6, using: &generator) {
          let index = Int.random(in: 0..<bytes.count, using: &generator)
          switch Int.random(in: 0...2, using: &generator) {
          case 0: bytes[index] = UInt8.random(in: 0...255, using: &generator)
          case 1: bytes.remove(at: index)
          default: bytes.insert(Array("{}[],:\"0-e".utf8).randomElement(using: &generator)!, at: index)
          }
          if bytes.isEmpty { break }
        }
      }
      if case .success(let response) = Result(catching: { () throws(TokenResponse.ParseError) in
        try TokenResponse.parse(Data(bytes))
      }) {
        parsed += 1
        #expect(response.accessToken != nil || response.idToken != nil)
      }
      _ = TokenResponse.parseError(Data(bytes))
    }
    #expect(parsed < 6000)
  }
}

// Tests of the playground's proof of mailbox for password reset (a one-time code "mailed" to the address) and of
// its Host check (no DNS rebinding): a reset without the code, with a wrong code, and with the mailed one; requests
// for foreign host names refused, loopback names and configured ones answered.

import B2CPlayground
import Foundation
import TasksTestSupport
import Testing

@Suite("Playground: password reset proves the mailbox; Host names")
struct ResetAndHostTests {
  private func resetCodePage(
    _ driver: SignInDriver, email: String = "ann@example.com"
  ) async throws -> HTTPAnswer {
    let page = try await driver.open(AuthorizeParameters(), policy: PlaygroundHarness.reset)
    return try await driver.submit(page, [("email", email)])
  }

  @Test("the new password is taken only with the code mailed to the address; a wrong code three times voids it")
  func resetNeedsTheCode() async throws {
    let mailbox = Mailbox()
    let harness = try await PlaygroundHarness.start { $0.mailbox = mailbox.deliver }
    defer { Task { await harness.stop() } }
    let driver = SignInDriver(harness)
    let password = [("newPassword", "Taken-0ver-1"), ("reenterPassword", "Taken-0ver-1")]

    // Skipping the code page: posting the old one-step form with only an email does nothing.
    let page = try await driver.open(AuthorizeParameters(), policy: PlaygroundHarness.reset)
    let tx = try #require(HTMLForm.hidden("tx", in: page.text))
    let action = try #require(HTMLForm.action(in: page.text))
    let forged = try await Browser().post(
      harness.base.appending(path: action),
      form: [("tx", tx), ("step", "reset"), ("email", "ann@example.com")] + password)
    #expect(forged.status == 200 && HTMLForm.error(in: forged.text) != nil, "no reset without a code")

    let codePage = try await resetCodePage(driver)
    #expect(codePage.text.contains("ann@example.com") && codePage.text.contains("verificationCode"))
    let code = try #require(mailbox.latestCode(for: "ann@example.com"))
    #expect(code.count == 6 && code.allSatisfy(\.isNumber))
    let wrong = code == "000000" ? "111111" : "000000"
    for attempt in 1...3 {
      let answer = try await driver.submit(codePage, [("verificationCode", wrong)] + password)
      #expect(answer.status == 200 && HTMLForm.error(in: answer.text) != nil, "wrong code, try \(attempt)")
    }
    let voided = try await driver.submit(codePage, [("verificationCode", code)] + password)
    #expect(voided.status == 200, "the right code after three wrong ones is void")
    let signInPage = try await driver.open(AuthorizeParameters())
    let refused = try await driver.submit(signInPage, [("email", "ann@example.com"), ("password", "Taken-0ver-1")])
    #expect(refused.status == 200, "the password was not changed")

    // A fresh code works once.
    let again = try await resetCodePage(driver)
    let fresh = try #require(mailbox.latestCode(for: "ann@example.com"))
    let done = try await driver.submit(again, [("verificationCode", fresh)] + password)
    #expect(done.status == 302, "reset with the mailed code")
    _ = try await SignInDriver(harness).signIn("ann@example.com", "Taken-0ver-1")  // a browser without the session
  }

  @Test("requests for another site's name are refused (421); loopback names and configured ones are answered")
  func hostNames() async throws {
    let harness = try await PlaygroundHarness.start { $0.allowedHosts = ["tasks.example.test"] }
    defer { Task { await harness.stop() } }
    let discovery = harness.base.appending(
      path: "\(PlaygroundHarness.tenant)/\(PlaygroundHarness.signIn)/v2.0/.well-known/openid-configuration")
    for (host, status) in [
      ("attacker.example", 421), ("127.0.0.1.attacker.example", 421), ("localhost:\(harness.running.port)", 200),
      ("127.0.0.1", 200), ("[::1]:1", 200), ("tasks.example.test", 200), ("GUID.localhost", 200),
    ] {
      let answer = try await Browser().get(discovery, headers: ["Host": host])
      #expect(answer.status == status, "Host \(host)")
    }
    // The issuer comes from the configuration, whatever the Host said.
    let answer = try await Browser().get(discovery, headers: ["Host": "localhost:1"])
    let document = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
    #expect((document["issuer"] as? String)?.hasPrefix(harness.base.absoluteString) == true)
    #expect((document["token_endpoint"] as? String)?.hasPrefix(harness.base.absoluteString) == true)
  }
}

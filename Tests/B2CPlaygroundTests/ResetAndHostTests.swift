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
    try await PlaygroundHarness.with({ $0.mailbox = mailbox.deliver }) { harness in
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
  }

  @Test("L4: a transaction gets at most five codes; ten wrong codes an hour, across transactions, lock the account")
  func resetCodesAreBounded() async throws {
    let mailbox = Mailbox()
    try await PlaygroundHarness.with({ $0.mailbox = mailbox.deliver }) { harness in
      let password = [("newPassword", "Taken-0ver-1"), ("reenterPassword", "Taken-0ver-1")]
      let tooMany = "You have made too many attempts. Please try again later."

      // One transaction asks for codes again and again: the sixth is refused.
      let driver = SignInDriver(harness)
      let emailPage = try await driver.open(AuthorizeParameters(), policy: PlaygroundHarness.reset)
      for attempt in 1...5 {
        let codePage = try await driver.submit(emailPage, [("email", "bob@example.com")])
        #expect(codePage.text.contains("verificationCode"), "code \(attempt) was sent")
      }
      let sixth = try await driver.submit(emailPage, [("email", "bob@example.com")])
      #expect(HTMLForm.error(in: sixth.text) == tooMany, "\(HTMLForm.error(in: sixth.text) ?? "no error")")

      // Guessing across new transactions, two wrong codes each (a third would void the code): after ten, the right
      // code of a live transaction is refused too, and no new code is sent.
      var guesses = 0
      var last: (driver: SignInDriver, page: HTTPAnswer, code: String)?
      while guesses < 10 {
        let guesser = SignInDriver(harness)
        let codePage = try await resetCodePage(guesser)
        let code = try #require(mailbox.latestCode(for: "ann@example.com"))
        last = (guesser, codePage, code)
        for _ in 0..<2 where guesses < 10 {
          let wrong = String(format: "%06d", ((Int(code) ?? 0) + 1 + guesses) % 1_000_000)
          let answer = try await guesser.submit(codePage, [("verificationCode", wrong)] + password)
          #expect(answer.status == 200)
          guesses += 1
        }
      }
      let (guesser, page, code) = try #require(last)
      let right = try await guesser.submit(page, [("verificationCode", code)] + password)
      #expect(right.status == 200 && HTMLForm.error(in: right.text) == tooMany, "the right code of a locked account")
      let fresh = try await SignInDriver(harness).open(AuthorizeParameters(), policy: PlaygroundHarness.reset)
      let refused = try await SignInDriver(harness).submit(fresh, [("email", "ann@example.com")])
      #expect(HTMLForm.error(in: refused.text) == tooMany, "no new code for a locked account")
      let signInPage = try await SignInDriver(harness).open(AuthorizeParameters())
      let old = try await SignInDriver(harness).submit(
        signInPage, [("email", "ann@example.com"), ("password", "Tasks-Demo-1")])
      #expect(old.status == 302, "the password was not changed")
    }
  }

  @Test("requests for another site's name are refused (421); loopback names and configured ones are answered")
  func hostNames() async throws {
    try await PlaygroundHarness.with({ $0.allowedHosts = ["tasks.example.test"] }) { harness in
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
}

// CertificateProblem: what libcurl says about a refused certificate, read into what a user is told.

import TasksCore
import TasksURLSession
import Testing

@Suite("Certificate problems from the TLS libraries")
struct CertificateProblemTests {
  @Test(
    "libcurl's TLS messages (as swift-corelibs-foundation passes them on) name the problem",
    arguments: [
      ("SSL certificate problem: self-signed certificate", CertificateProblem.notTrusted),
      ("SSL certificate problem: unable to get local issuer certificate", .notTrusted),
      ("SSL certificate problem: certificate has expired", .expired),
      ("SSL certificate problem: certificate is not yet valid", .expired),
      ("SSL: no alternative certificate subject name matches target host name '127.0.0.1'", .otherName),
      ("SSL: certificate subject name 'a.example' does not match target host name 'b.example'", .otherName),
      ("OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to 127.0.0.1:443", .handshake),
    ])
  func transportMessages(_ text: String, _ problem: CertificateProblem) {
    #expect(CertificateProblem(curlMessage: text) == problem)
  }

  @Test("messages that are not about TLS are no certificate problem")
  func otherMessages() {
    for text in [
      "Could not connect to server", "", "Operation timed out after 20000 milliseconds", "\u{0}garbage",
      "Could not resolve host: tls.example.org",
    ] {
      #expect(CertificateProblem(curlMessage: text) == nil, "\(text)")
    }
  }

  @Test("the user's message names the host")
  func messageNamesHost() {
    for problem in [CertificateProblem.notTrusted, .expired, .otherName, .handshake] {
      #expect(
        NetworkError.untrusted(host: "login.example.org:8443", problem).message.contains("login.example.org:8443"))
    }
  }
}

// CertificateFlags: GIO's certificate flags (libsoup's and WebKitGTK's) read into what a user is told.

import CSoup
import TasksCore
import TasksSoup
import Testing

@Suite("Certificate problems from GIO's flags")
struct CertificateFlagsTests {
  @Test("GIO's GTlsCertificateFlags (WebKitGTK's) name the problem, dates first")
  func tlsFlags() {
    #expect(CertificateProblem(tlsFlags: G_TLS_CERTIFICATE_UNKNOWN_CA.rawValue) == .notTrusted)
    #expect(CertificateProblem(tlsFlags: G_TLS_CERTIFICATE_BAD_IDENTITY.rawValue) == .otherName)
    #expect(
      CertificateProblem(tlsFlags: G_TLS_CERTIFICATE_EXPIRED.rawValue | G_TLS_CERTIFICATE_UNKNOWN_CA.rawValue)
        == .expired)
    #expect(CertificateProblem(tlsFlags: G_TLS_CERTIFICATE_NOT_ACTIVATED.rawValue) == .expired)
    #expect(CertificateProblem(tlsFlags: G_TLS_CERTIFICATE_GENERIC_ERROR.rawValue) == .handshake)
  }
}

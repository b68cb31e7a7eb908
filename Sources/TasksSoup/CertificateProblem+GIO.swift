// CertificateProblem+GIO: GIO's certificate flags (as libsoup and WebKitGTK report them) read into what a user is
// told. Value code; any thread.

import CSoup
import TasksCore

extension CertificateProblem {
  /// Reads `GTlsCertificateFlags`: dates first, then the name, then trust; no flag the handshake itself.
  public init(tlsFlags flags: UInt32) {
    let flags = GTlsCertificateFlags(rawValue: flags)
    func has(_ any: GTlsCertificateFlags...) -> Bool { any.contains { flags.rawValue & $0.rawValue != 0 } }
    if has(G_TLS_CERTIFICATE_NOT_ACTIVATED, G_TLS_CERTIFICATE_EXPIRED) {
      self = .expired
    } else if has(G_TLS_CERTIFICATE_BAD_IDENTITY) {
      self = .otherName
    } else if has(G_TLS_CERTIFICATE_UNKNOWN_CA, G_TLS_CERTIFICATE_REVOKED, G_TLS_CERTIFICATE_INSECURE) {
      self = .notTrusted
    } else {
      self = .handshake
    }
  }
}

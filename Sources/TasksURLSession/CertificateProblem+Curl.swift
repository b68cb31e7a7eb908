// CertificateProblem+Curl: libcurl's TLS error text read into what a user is told. Value code; any thread.

import TasksCore

extension CertificateProblem {
  /// Reads libcurl's TLS error text (which swift-corelibs-foundation passes on as the error's description, with the
  /// code `URLError.unknown`); nil when it is not about TLS.
  public init?(curlMessage text: String) {
    let lowered = text.lowercased()
    guard
      lowered.hasPrefix("ssl") || lowered.hasPrefix("openssl") || lowered.contains("certificate")
        || lowered.hasPrefix("tls")
    else { return nil }
    if lowered.contains("expired") || lowered.contains("not yet valid") {
      self = .expired
    } else if lowered.contains("name") && (lowered.contains("match") || lowered.contains("subject")) {
      self = .otherName
    } else if lowered.contains("certificate") || lowered.contains("issuer") {
      self = .notTrusted
    } else {
      self = .handshake
    }
  }
}

// TestCertificates: a throwaway certificate authority trusted by the system for one test run, and server identities
// (good, expired, for another name, self-signed) for the playground's https. Sendable; the trust is set up once.

import Crypto
import Foundation
import SwiftASN1
import Synchronization
import X509

/// A server's certificate and private key, as PEM files for `b2c-playground --tls-cert/--tls-key`.
public struct ServerIdentity: Sendable {
  /// The certificate (PEM).
  public let certificate: URL
  /// The private key (PEM, PKCS #8).
  public let key: URL
}

/// The test run's certificate authority: made on first use, added to the system's trust store (the one libcurl,
/// GnuTLS and so WebKit read) and removed from it when the test process exits.
///
/// Trusting it needs root (or `sudo` without a password), as installing the test dependencies does.
/// `Tests/run-all.sh` also removes any authority a crashed run left behind.
public final class TestAuthority: Sendable {
  /// Where Debian's `update-ca-certificates` takes local authorities from.
  public static let localFolder = URL(filePath: "/usr/local/share/ca-certificates", directoryHint: .isDirectory)
  /// The prefix of the file names of test authorities in `localFolder`.
  public static let filePrefix = "b2c-tasks-test-"

  private let key: P256.Signing.PrivateKey
  private let certificate: Certificate
  private let folder: URL

  private init() throws {
    key = P256.Signing.PrivateKey()
    let name = try DistinguishedName {
      OrganizationName("B2C Tasks tests")
      CommonName("B2C Tasks throwaway test CA \(getpid())")
    }
    let now = Date()
    certificate = try Certificate(
      version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
      notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(86400), issuer: name,
      subject: name,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
        Critical(KeyUsage(keyCertSign: true, cRLSign: true))
      },
      issuerPrivateKey: .init(key))
    folder = try TestDesktop.temporaryFolder("tls")
  }

  private static let setup = Mutex<Task<TestAuthority, any Error>?>(nil)
  nonisolated(unsafe) private static var installedFile: String?

  /// The run's authority, trusted by the system from now until the test process exits.
  public static func trusted() async throws -> TestAuthority {
    let task = setup.withLock { task in
      if let task { return task }
      let made = Task { () throws -> TestAuthority in
        let authority = try TestAuthority()
        try authority.install()
        return authority
      }
      task = made
      return made
    }
    return try await task.value
  }

  /// Why the authority could not be trusted.
  public struct TrustError: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { "the test certificate authority could not be trusted: \(reason)" }
  }

  private func install() throws {
    let file = Self.localFolder.appending(path: "\(Self.filePrefix)\(getpid()).crt")
    let source = folder.appending(path: "authority.crt")
    try Data((try certificate.serializeAsPEM().pemString + "\n").utf8).write(to: source)
    try Self.privileged(["/usr/bin/install", "-D", "-m", "644", source.path, file.path])
    Self.installedFile = file.path
    atexit {
      // The process is ending: put the system's trust store back as it was.
      guard let file = TestAuthority.installedFile else { return }
      _ = try? TestAuthority.privileged(["/bin/rm", "-f", file])
      _ = try? TestAuthority.privileged(TestAuthority.updateTrust + ["--fresh"])  // drops its links too
    }
    try Self.privileged(Self.updateTrust)
  }

  /// `update-ca-certificates`, one at a time: it writes its bundle through a fixed temporary name, and another test
  /// run may be trusting or removing its own authority at the same moment.
  private static let updateTrust = [
    "/usr/bin/flock", "/run/lock/b2c-tasks-test-ca.lock", "/usr/sbin/update-ca-certificates",
  ]

  /// Runs `command` as root (through `sudo -n` unless the tests run as root) and waits for it; synchronous, so that
  /// it also works while the process exits. Its standard output is dropped, its errors go to the test's.
  private static func privileged(_ command: [String]) throws {
    let argv = getuid() == 0 ? command : ["/usr/bin/sudo", "-n"] + command
    var pid: pid_t = 0
    let cArguments = argv.map { strdup($0) } + [nil]
    defer { cArguments.forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
    guard spawned == 0 else { throw TrustError(reason: "\(argv[0]) could not be started (\(spawned))") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    guard status == 0 else {
      throw TrustError(reason: "\(argv.joined(separator: " ")) failed (wait status \(status))")
    }
  }

  /// The authority's certificate (PEM), for clients that read their own trust list instead of the system's (Python's
  /// requests takes it as `REQUESTS_CA_BUNDLE`).
  public var certificateFile: URL { folder.appending(path: "authority.crt") }

  /// A server identity signed by this authority for `names` (DNS names or IP addresses), valid from `from` to
  /// `until` (by default: an hour ago to a day from now).
  public func issue(
    _ names: [String] = ["localhost", "127.0.0.1", "::1"], from: Date = Date().addingTimeInterval(-3600),
    until: Date = Date().addingTimeInterval(86400)
  ) throws -> ServerIdentity {
    try Self.identity(names, from: from, until: until, issuer: (certificate.subject, key), in: folder)
  }

  /// A server identity for `names` that signs itself: no authority the system trusts vouches for it.
  public static func selfSigned(_ names: [String] = ["localhost", "127.0.0.1", "::1"]) throws -> ServerIdentity {
    let folder = try TestDesktop.temporaryFolder("tls-self")
    let now = Date()
    return try identity(
      names, from: now.addingTimeInterval(-3600), until: now.addingTimeInterval(86400), issuer: nil, in: folder)
  }

  private static func identity(
    _ names: [String], from: Date, until: Date, issuer: (DistinguishedName, P256.Signing.PrivateKey)?, in folder: URL
  ) throws -> ServerIdentity {
    let key = P256.Signing.PrivateKey()
    let subject = try DistinguishedName { CommonName(names.first ?? "server") }
    let alternatives = SubjectAlternativeNames(
      names.map { name -> GeneralName in
        if let address = addressBytes(name) {
          return .ipAddress(ASN1OctetString(contentBytes: address[...]))
        }
        return .dnsName(name)
      })
    let certificate = try Certificate(
      version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey), notValidBefore: from, notValidAfter: until,
      issuer: issuer?.0 ?? subject, subject: subject,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.notCertificateAuthority)
        Critical(KeyUsage(digitalSignature: true))
        try ExtendedKeyUsage([.serverAuth])
        alternatives
      },
      issuerPrivateKey: .init(issuer?.1 ?? key))
    let stem = folder.appending(path: UUID().uuidString)
    let identity = ServerIdentity(
      certificate: stem.appendingPathExtension("crt"), key: stem.appendingPathExtension("key"))
    try Data((try certificate.serializeAsPEM().pemString + "\n").utf8).write(to: identity.certificate)
    try Data((key.pemRepresentation + "\n").utf8).write(to: identity.key)
    chmod(identity.key.path, 0o600)
    return identity
  }
}

/// The certificates nobody should accept, by what is wrong with them (the session, CLI and window tests share them).
public enum BadCertificate: String, CaseIterable, Sendable {
  /// Self-signed: no authority the system trusts vouches for it.
  case untrusted
  /// Issued by the run's authority, but expired yesterday.
  case expired
  /// Issued by the run's authority for `tasks.example.org`, not for the loopback names.
  case otherName

  /// A server identity with this fault.
  public func identity(_ authority: TestAuthority) throws -> ServerIdentity {
    switch self {
    case .untrusted: return try TestAuthority.selfSigned()
    case .expired:
      return try authority.issue(from: Date().addingTimeInterval(-10 * 86400), until: Date().addingTimeInterval(-86400))
    case .otherName: return try authority.issue(["tasks.example.org"])
    }
  }
}

/// The bytes of a textual IPv4 or IPv6 address; nil for a DNS name.
private func addressBytes(_ text: String) -> [UInt8]? {
  var v4 = in_addr()
  if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
  var v6 = in6_addr()
  if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
  return nil
}

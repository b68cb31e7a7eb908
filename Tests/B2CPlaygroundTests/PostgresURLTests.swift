// PostgresURLTests: b2c-tasks-api's reading of PostgreSQL URLs (libpq's spelling), and what it refuses.

import Foundation
import TaskServicePostgres
import Testing

@Suite("PostgreSQL URLs")
struct PostgresURLTests {
  @Test("host, port, database, user; a password from PGPASSWORD; TLS verified except on loopback")
  func tcp() throws {
    let remote = try PostgresURL("postgres://tasks@db.example.com:6432/tasks", environment: ["PGPASSWORD": "s3cret"])
    #expect(remote.host == "db.example.com" && remote.port == 6432 && remote.database == "tasks")
    #expect(remote.user == "tasks" && remote.password == "s3cret" && remote.security == .verifyFull)
    let local = try PostgresURL("postgresql://tasks:pw@127.0.0.1/tasks", environment: ["PGPASSWORD": "other"])
    #expect(local.port == 5432 && local.password == "pw" && local.security == .disable)
    #expect(try PostgresURL("postgres://u@[::1]:5433/d").host == "::1")
    #expect(try PostgresURL("postgres://u@db.internal/d?sslmode=disable").security == .disable)
    #expect(try PostgresURL("postgres://u@localhost/d?sslmode=verify-full").security == .verifyFull)
  }

  @Test("L11: only loopback addresses go without TLS by default, not DNS names that start with 127.")
  func loopbackIsAnAddress() throws {
    for host in ["127.0.0.1", "127.1.2.3", "localhost", "[::1]"] {
      #expect(try PostgresURL("postgres://u@\(host)/d").security == .disable, "\(host)")
    }
    for host in ["127.db.example.com", "127.0.0.1.example.com", "127.0.0.256", "127.0.0", "1270.0.0.1", "127.0.0.1a"] {
      #expect(try PostgresURL("postgres://u@\(host)/d").security == .verifyFull, "\(host)")
    }
  }

  @Test("a Unix socket folder, as ?host= or percent-encoded in the host")
  func socket() throws {
    let query = try PostgresURL("postgres://u@/tasks?host=/run/postgresql&port=5433")
    #expect(query.socketFolder == "/run/postgresql" && query.host == nil && query.port == 5433)
    #expect(try PostgresURL("postgres://u@%2Frun%2Fpostgresql/tasks").socketFolder == "/run/postgresql")
  }

  @Test("the description never carries the password")
  func description() throws {
    let url = try PostgresURL("postgres://tasks:s3cret@db.example.com/tasks")
    #expect(!url.description.contains("s3cret") && url.description == "postgres://tasks@db.example.com:5432/tasks")
  }

  @Test(
    "garbage is refused with a typed error",
    arguments: [
      ("/var/lib/tasks.sqlite", PostgresURL.Error.notPostgresURL),
      ("postgres://db.example.com/tasks", .noUser),
      ("postgres://u@db.example.com/", .noDatabase),
      ("postgres://u@db.example.com/a/b", .noDatabase),
      ("postgres://u@/tasks", .noHost),
      ("postgres://u@h/d?sslmode=prefer", .badSSLMode("prefer")),
      ("postgres://u@h/d?port=99999", .badPort("99999")),
      ("postgres://u@h/d?application=x", .unknownParameter("application")),
    ])
  func refused(text: String, error: PostgresURL.Error) {
    #expect(throws: error) { try PostgresURL(text, environment: [:]) }
  }
}

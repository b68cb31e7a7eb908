// ListeningPort: the port a server of ours says it listens on. Value function; any thread.

/// The port in the first `listening on http://HOST:PORT` line of `output` (b2c-playground's start-up line), or nil.
public func listeningPort(in output: String) -> Int? {
  for line in output.split(separator: "\n") {
    guard let range = line.range(of: "listening on http://") ?? line.range(of: "listening on https://") else {
      continue
    }
    let address = line[range.upperBound...].prefix { $0 != " " && $0 != "/" }
    return address.split(separator: ":").last.flatMap { Int($0) }
  }
  return nil
}

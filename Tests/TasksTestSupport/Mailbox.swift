// Mailbox: the mail a playground in this process "sends" (password-reset codes), as a person's inbox. Sendable.

import Foundation
import Synchronization

/// Collects `(to, code)` deliveries; tests wait for the code sent to an address.
public final class Mailbox: Sendable {
  private let mail = Mutex<[(to: String, code: String)]>([])

  public init() {}

  /// Receives one mail (the playground's `mailbox` setting).
  public func deliver(to: String, code: String) {
    mail.withLock { $0.append((to, code)) }
  }

  /// The latest code sent to `address`, if any.
  public func latestCode(for address: String) -> String? {
    mail.withLock { $0.last { $0.to.lowercased() == address.lowercased() }?.code }
  }

  /// How many codes were sent.
  public var count: Int { mail.withLock { $0.count } }
}

// UserData: Swift objects handed to GLib callbacks as their `user_data`, on GtkSupport's `Signal` rule. Any thread.

import CSoup

/// How a Swift object travels through a GLib callback's `user_data`, by one rule: the object is retained once when
/// handed over and released exactly once — by GLib's destroy notify where the API takes one (`retained`), by the
/// callback itself where it runs exactly once and has none (`oneShot`/`take`: GIO's async callbacks). `borrowed`
/// hands an object over without a reference, for handlers whose object owns the source and outlives it (a server's
/// handlers, disconnected when it is released). GtkSupport's `Signal` keeps the same rule for the main thread.
///
/// This rules the objects' lifetimes, not their threads: the types handed over (`Exchange`, `ServerBox`, …) are
/// `@unchecked Sendable` because each is used only on its `ContextThread`, a confinement the compiler cannot see.
enum UserData {
  /// `object` retained, with the destroy notify that releases it.
  static func retained(_ object: AnyObject) -> (data: gpointer, destroy: GDestroyNotify) {
    (Unmanaged.passRetained(object).toOpaque(), { Unmanaged<AnyObject>.fromOpaque($0!).release() })
  }

  /// `object` retained for a callback that runs exactly once and releases it with `take`.
  static func oneShot(_ object: AnyObject) -> gpointer {
    Unmanaged.passRetained(object).toOpaque()
  }

  /// The object a `oneShot` handed over, released now.
  static func take<Object: AnyObject>(_ data: gpointer?, as: Object.Type = Object.self) -> Object {
    Unmanaged<Object>.fromOpaque(data!).takeRetainedValue()
  }

  /// `object` without a reference: it must outlive every call of the callback.
  static func borrowed(_ object: AnyObject) -> gpointer {
    Unmanaged.passUnretained(object).toOpaque()
  }

  /// The object behind `data` (from `retained` or `borrowed`), for the length of a call.
  static func object<Object: AnyObject>(_ data: gpointer?, as: Object.Type = Object.self) -> Object {
    Unmanaged<Object>.fromOpaque(data!).takeUnretainedValue()
  }
}

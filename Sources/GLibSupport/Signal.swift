// Signal: connects Swift closures to GObject signals. Main actor.

import CGio

/// Holds one connected closure. It is retained once when connected and released only by GLib's destroy notify,
/// so it lives exactly as long as the connection: until the handler is disconnected or the object is finalized.
package final class SignalHandlerBox<Handler> {
  let handler: Handler
  init(_ handler: Handler) { self.handler = handler }
}

/// Connects closures to GObject signals.
///
/// Each entry point matches one C signal signature exactly; a trampoline with the wrong arity would silently never
/// fire or read garbage. Pick the one whose parameters match the signal's documentation.
@MainActor
public enum Signal {
  /// `void handler(GObject *self, gpointer user_data)`: "clicked", "activate" on widgets, "startup", "destroy"…
  @discardableResult
  public static func connect(
    _ instance: some GPointer, _ name: String, _ handler: @escaping @MainActor () -> Void
  ) -> UInt {
    let trampoline: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
      MainActor.assumeIsolated { box(data, as: (@MainActor () -> Void).self)() }
    }
    return attach(instance, name, handler, unsafeBitCast(trampoline, to: UnsafeRawPointer.self))
  }

  /// `void handler(GObject *self, gpointer arg, gpointer user_data)`: "activate" on `GSimpleAction` (a
  /// `GVariant*`), "notify" (a `GParamSpec*`), "row-activated"-style signals with one pointer argument.
  @discardableResult
  public static func connect(
    _ instance: some GPointer, _ name: String,
    _ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void
  ) -> UInt {
    let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, argument, data in
      MainActor.assumeIsolated {
        box(data, as: (@MainActor (UnsafeMutableRawPointer?) -> Void).self)(argument)
      }
    }
    return attach(instance, name, handler, unsafeBitCast(trampoline, to: UnsafeRawPointer.self))
  }

  /// `void handler(GObject *self, guint position, gpointer user_data)`: "activate" on `GtkListView`.
  @discardableResult
  public static func connectPosition(
    _ instance: some GPointer, _ name: String, _ handler: @escaping @MainActor (UInt32) -> Void
  ) -> UInt {
    let trampoline: @convention(c) (gpointer?, guint, gpointer?) -> Void = { _, position, data in
      MainActor.assumeIsolated { box(data, as: (@MainActor (UInt32) -> Void).self)(position) }
    }
    return attach(instance, name, handler, unsafeBitCast(trampoline, to: UnsafeRawPointer.self))
  }

  /// `void handler(GListModel *self, guint position, guint removed, guint added, gpointer user_data)`:
  /// "items-changed".
  @discardableResult
  public static func connectItemsChanged(
    _ instance: some GPointer,
    _ handler: @escaping @MainActor (_ position: UInt32, _ removed: UInt32, _ added: UInt32) -> Void
  ) -> UInt {
    let trampoline: @convention(c) (gpointer?, guint, guint, guint, gpointer?) -> Void = {
      _, position, removed, added, data in
      MainActor.assumeIsolated {
        box(data, as: (@MainActor (UInt32, UInt32, UInt32) -> Void).self)(position, removed, added)
      }
    }
    return attach(instance, "items-changed", handler, unsafeBitCast(trampoline, to: UnsafeRawPointer.self))
  }

  /// `void handler(GtkGesture *self, gint n_press, gdouble x, gdouble y, gpointer user_data)`: "pressed" and
  /// "released" on `GtkGestureClick`.
  @discardableResult
  public static func connectClick(
    _ instance: some GPointer, _ name: String, _ handler: @escaping @MainActor (_ x: Double, _ y: Double) -> Void
  ) -> UInt {
    let trampoline: @convention(c) (gpointer?, gint, gdouble, gdouble, gpointer?) -> Void = { _, _, x, y, data in
      MainActor.assumeIsolated { box(data, as: (@MainActor (Double, Double) -> Void).self)(x, y) }
    }
    return attach(instance, name, handler, unsafeBitCast(trampoline, to: UnsafeRawPointer.self))
  }

  /// `gboolean handler(GtkWidget *self, gint x, gint y, gboolean keyboard_mode, GtkTooltip *tooltip, gpointer)`:
  /// "query-tooltip" (with `gtk_widget_set_has_tooltip`); the handler fills the tooltip and answers whether to show it.
  @discardableResult
  public static func connectQueryTooltip(
    _ instance: some GPointer, _ handler: @escaping @MainActor (_ tooltip: OpaquePointer) -> Bool
  ) -> UInt {
    let trampoline: @convention(c) (gpointer?, gint, gint, gboolean, OpaquePointer?, gpointer?) -> gboolean = {
      _, _, _, _, tooltip, data in
      guard let tooltip else { return 0 }
      return MainActor.assumeIsolated { box(data, as: (@MainActor (OpaquePointer) -> Bool).self)(tooltip) ? 1 : 0 }
    }
    return attach(instance, "query-tooltip", handler, unsafeBitCast(trampoline, to: UnsafeRawPointer.self))
  }

  /// `gboolean handler(GObject *self, gpointer user_data)`: "close-request" and other signals whose handler
  /// answers whether it handled the event.
  @discardableResult
  public static func connectReturningBool(
    _ instance: some GPointer, _ name: String, _ handler: @escaping @MainActor () -> Bool
  ) -> UInt {
    let trampoline: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, data in
      MainActor.assumeIsolated { box(data, as: (@MainActor () -> Bool).self)() ? 1 : 0 }
    }
    return attach(instance, name, handler, unsafeBitCast(trampoline, to: UnsafeRawPointer.self))
  }

  /// `gint handler(GApplication *self, GVariantDict *options, gpointer user_data)`: "handle-local-options".
  @discardableResult
  public static func connectReturningInt(
    _ instance: some GPointer, _ name: String,
    _ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Int32
  ) -> UInt {
    let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> gint = { _, argument, data in
      MainActor.assumeIsolated {
        box(data, as: (@MainActor (UnsafeMutableRawPointer?) -> Int32).self)(argument)
      }
    }
    return attach(instance, name, handler, unsafeBitCast(trampoline, to: UnsafeRawPointer.self))
  }

  /// Disconnects a handler; GLib then releases its closure.
  public static func disconnect(_ instance: some GPointer, _ handlerID: UInt) {
    g_signal_handler_disconnect(instance.gpointer, gulong(handlerID))
  }

  package static func attach<Handler>(
    _ instance: some GPointer, _ name: String, _ handler: Handler, _ trampoline: UnsafeRawPointer
  ) -> UInt {
    let data = Unmanaged.passRetained(SignalHandlerBox(handler)).toOpaque()
    let release: GClosureNotify = { data, _ in
      guard let data else { return }
      Unmanaged<AnyObject>.fromOpaque(data).release()
    }
    let id = g_signal_connect_data(
      instance.gpointer, name, b2c_gcallback(trampoline), data, release, GConnectFlags(0))
    precondition(id != 0, "no signal \(name) on this object")
    return UInt(id)
  }
}

/// The handler stored behind a signal's user data.
package func box<Handler>(_ data: gpointer?, as: Handler.Type) -> Handler {
  Unmanaged<SignalHandlerBox<Handler>>.fromOpaque(data!).takeUnretainedValue().handler
}

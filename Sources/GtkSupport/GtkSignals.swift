// GLibSupport, re-exported, and what of it needs GTK: casts to widgets and windows, GTK's signals with GDK types,
// actions' accelerators. Main actor.

import CGtk
@_exported import GLibSupport

extension GPointer {
  /// The instance as a `GtkWidget *`; the instance must be a widget.
  public var widget: UnsafeMutablePointer<GtkWidget> { cast(to: gtk_widget_get_type()) }

  /// The instance as a `GtkWindow *`; the instance must be a window.
  public var window: UnsafeMutablePointer<GtkWindow> { cast(to: gtk_window_get_type()) }
}

extension Signal {
  /// `gboolean handler(GtkEventControllerKey *self, guint keyval, guint keycode, GdkModifierType state, gpointer)`:
  /// "key-pressed"; the handler answers whether it handled the key.
  @discardableResult
  public static func connectKeyPressed(
    _ instance: some GPointer, _ handler: @escaping @MainActor (_ keyval: UInt32) -> Bool
  ) -> UInt {
    let trampoline: @convention(c) (gpointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = {
      _, keyval, _, _, data in
      MainActor.assumeIsolated { box(data, as: (@MainActor (UInt32) -> Bool).self)(keyval) ? 1 : 0 }
    }
    return attach(instance, "key-pressed", handler, unsafeBitCast(trampoline, to: UnsafeRawPointer.self))
  }

}

extension Actions {
  /// Sets the accelerators (`<Primary>q`, `F5`…) of a detailed action name such as `app.quit`.
  public static func setAccelerators(
    _ application: some GPointer, for action: String, _ accelerators: [String]
  ) {
    withCStringArray(accelerators) { array in
      gtk_application_set_accels_for_action(
        application.cast(to: gtk_application_get_type(), as: GtkApplication.self), action, array)
    }
  }
}

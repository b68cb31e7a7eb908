// DragAndDrop: a widget dragged with a text (its row's key) and dropped on another, as a list's rows are reordered
// with the mouse. Main actor.

import CGtk

/// Drag and drop of text between widgets of one window: `makeDraggable` offers what `payload` answers (nothing: no
/// drag), shown under the pointer as a picture of the widget; `acceptDrops` hands the text dropped to `onDrop`,
/// which answers whether it took it. Drops from other applications are refused; `onDrop` still checks the text.
@MainActor
public enum DragAndDrop {
  /// `picture`: the widget whose picture follows the pointer (`widget` itself when it answers nil).
  public static func makeDraggable(
    _ widget: Widget, picture: @escaping @MainActor () -> Widget? = { nil },
    payload: @escaping @MainActor () -> String?
  ) {
    let source = gtk_drag_source_new()!
    gtk_drag_source_set_actions(source, GDK_ACTION_MOVE)
    let prepare: @convention(c) (gpointer?, gdouble, gdouble, gpointer?) -> gpointer? = { _, x, y, data in
      let text = MainActor.assumeIsolated { () -> String? in
        let drag = Unmanaged<Drag>.fromOpaque(data!).takeUnretainedValue()
        drag.hotSpot = (Int32(x), Int32(y))
        return drag.payload()
      }
      return text.map { UnsafeMutableRawPointer(b2c_text_content_provider_new($0)) } ?? nil
    }
    let begin: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { source, _, data in
      MainActor.assumeIsolated {
        let drag = Unmanaged<Drag>.fromOpaque(data!).takeUnretainedValue()
        let picture = gtk_widget_paintable_new((drag.picture() ?? drag.widget).widget)
        gtk_drag_source_set_icon(OpaquePointer(source), picture, drag.hotSpot.x, drag.hotSpot.y)
        g_object_unref(UnsafeMutableRawPointer(picture))
      }
    }
    let drag = Drag(widget: widget, picture: picture, payload: payload)
    connect(source, "prepare", drag, unsafeBitCast(prepare, to: UnsafeRawPointer.self))
    connect(source, "drag-begin", drag, unsafeBitCast(begin, to: UnsafeRawPointer.self))
    widget.add(source)
  }

  public static func acceptDrops(on widget: Widget, _ onDrop: @escaping @MainActor (String) -> Bool) {
    let target = b2c_text_drop_target_new(GDK_ACTION_MOVE)
    let drop: @convention(c) (gpointer?, UnsafePointer<GValue>?, gdouble, gdouble, gpointer?) -> gboolean = {
      target, value, _, _, data in
      // Only what was dragged in this application: text from another one (a page, a file) is no row.
      guard let target, let drop = gtk_drop_target_get_current_drop(OpaquePointer(target)),
        gdk_drop_get_drag(drop) != nil
      else { return 0 }
      return MainActor.assumeIsolated {
        let handler = Unmanaged<Drop>.fromOpaque(data!).takeUnretainedValue().onDrop
        guard let value, let text = g_value_get_string(value) else { return 0 }
        return handler(String(cString: text)) ? 1 : 0
      }
    }
    connect(target, "drop", Drop(onDrop), unsafeBitCast(drop, to: UnsafeRawPointer.self))
    widget.add(target)
  }

  private final class Drag {
    let widget: Widget
    let picture: @MainActor () -> Widget?
    let payload: @MainActor () -> String?
    var hotSpot: (x: Int32, y: Int32) = (0, 0)
    init(widget: Widget, picture: @escaping @MainActor () -> Widget?, payload: @escaping @MainActor () -> String?) {
      self.widget = widget
      self.picture = picture
      self.payload = payload
    }
  }

  private final class Drop {
    let onDrop: @MainActor (String) -> Bool
    init(_ onDrop: @escaping @MainActor (String) -> Bool) { self.onDrop = onDrop }
  }

  /// Connects `trampoline` to `name` on `instance` with `object` as its data, released with the connection.
  private static func connect(
    _ instance: some GPointer, _ name: String, _ object: AnyObject, _ trampoline: UnsafeRawPointer
  ) {
    let release: GClosureNotify = { data, _ in
      guard let data else { return }
      Unmanaged<AnyObject>.fromOpaque(data).release()
    }
    let data = Unmanaged.passRetained(object).toOpaque()
    g_signal_connect_data(instance.gpointer, name, b2c_callback(trampoline), data, release, GConnectFlags(0))
  }
}

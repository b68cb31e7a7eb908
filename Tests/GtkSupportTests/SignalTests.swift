// Tests of signal connections: the closure runs, and GLib's destroy notify releases it with the object.

import CGtk
import GtkSupport
import Testing

@Suite("Signal connections")
@MainActor
struct SignalTests {
  final class Tracker {
    var calls = 0
    var lastParameter: UnsafeMutableRawPointer?
  }

  @Test("a connected closure runs with the signal's argument and is released when the object is finalized")
  func closureLifetime() {
    let action: OpaquePointer = g_simple_action_new("probe", g_variant_type_new("s"))
    weak var weakTracker: Tracker?
    do {
      let tracker = Tracker()
      weakTracker = tracker
      Signal.connect(action, "activate") { parameter in
        tracker.calls += 1
        tracker.lastParameter = parameter
      }
    }
    #expect(weakTracker != nil, "the connection keeps the closure alive")
    let parameter = g_variant_ref_sink(g_variant_new_string("hello"))
    g_action_activate(action, parameter)
    #expect(weakTracker?.calls == 1)
    #expect(weakTracker?.lastParameter == UnsafeMutableRawPointer(parameter))
    g_variant_unref(parameter)
    g_object_unref(action.gpointer)
    #expect(weakTracker == nil, "finalizing the object releases the closure")
  }

  @Test("disconnecting releases the closure at once and it no longer runs")
  func disconnect() {
    let action: OpaquePointer = g_simple_action_new("probe", nil)
    defer { g_object_unref(action.gpointer) }
    weak var weakTracker: Tracker?
    var handler: UInt = 0
    do {
      let tracker = Tracker()
      weakTracker = tracker
      handler = Signal.connect(action, "activate") { (_: UnsafeMutableRawPointer?) in tracker.calls += 1 }
    }
    g_action_activate(action, nil)
    #expect(weakTracker?.calls == 1)
    Signal.disconnect(action, handler)
    #expect(weakTracker == nil)
  }

  @Test("typed casts check the GType")
  func casts() {
    let action: OpaquePointer = g_simple_action_new("probe", nil)
    defer { g_object_unref(action.gpointer) }
    #expect(action.isA(g_simple_action_get_type()))
    #expect(action.isA(g_object_get_type()))
    #expect(!action.isA(g_application_get_type()))
    #expect(action.object == action.gpointer.assumingMemoryBound(to: GObject.self))
  }
}

// CustomFilter: a GtkCustomFilter whose match function is a Swift closure. Main actor.

import CGtk

/// Holds the match closure: retained once by the filter and released by its destroy notify, so it lives exactly as
/// long as the filter (the rule `Signal` follows for handlers).
private final class FilterMatchBox {
  let match: @MainActor (UnsafeMutableRawPointer) -> Bool
  init(_ match: @escaping @MainActor (UnsafeMutableRawPointer) -> Bool) { self.match = match }
}

/// A `GtkCustomFilter` that asks `match` about each item of the model it filters (GTK calls it on the main thread).
/// A closure that needs its owner captures it weakly: the owner holds the filter.
@MainActor
public final class CustomFilter {
  /// The filter, for `gtk_filter_list_model_set_filter`.
  public let filter: UnsafeMutablePointer<GtkFilter>

  /// A filter that lets through the items for which `match` is true.
  public init(_ match: @escaping @MainActor (_ item: UnsafeMutableRawPointer) -> Bool) {
    let trampoline: @convention(c) (gpointer?, gpointer?) -> gboolean = { item, data in
      MainActor.assumeIsolated {
        guard let item, let data else { return 1 }
        return Unmanaged<FilterMatchBox>.fromOpaque(data).takeUnretainedValue().match(item) ? 1 : 0
      }
    }
    let release: @convention(c) (gpointer?) -> Void = { data in
      if let data { Unmanaged<FilterMatchBox>.fromOpaque(data).release() }
    }
    let custom = gtk_custom_filter_new(
      trampoline, Unmanaged.passRetained(FilterMatchBox(match)).toOpaque(), release)
    filter = custom!.cast(to: gtk_filter_get_type(), as: GtkFilter.self)
  }

  /// Tells the models using the filter that its answers changed, and how.
  public func changed(_ change: GtkFilterChange) {
    gtk_filter_changed(filter, change)
  }

  isolated deinit {
    g_object_unref(filter.gpointer)
  }
}

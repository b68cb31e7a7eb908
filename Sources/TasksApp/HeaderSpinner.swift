// HeaderSpinner: the header's spinner, turning while a request runs for longer than a moment. Main actor.

import CGtk
import GtkSupport

/// The spinner in the header bar: shown and turning once a request has run for `delay`, hidden when the last one
/// ends. A quick request (a start's refresh, the usual F5) shows none: nothing flashes, and the spinner's icon, an
/// SVG that GTK 4.8 reads through librsvg, is not loaded for it (6.5 MB resident and its parse in a start, measured
/// against the build before issue 63, whose start showed no spinner).
@MainActor
final class HeaderSpinner {
  private let spinner: Spinner
  private let delay: Duration
  private var running = 0
  private var showing: Task<Void, Never>?

  init(_ spinner: Spinner, delay: Duration = .milliseconds(800)) {
    self.spinner = spinner
    self.delay = delay
    g_object_ref(spinner.gpointer)  // a request (and its delay) can outlive the window
  }

  isolated deinit { g_object_unref(spinner.gpointer) }

  /// Runs `body`; the spinner turns from `delay` after the first request began until the last one has ended.
  func whileRunning<T>(_ body: () async -> T) async -> T {
    running += 1
    if running == 1 {
      showing = Task { [weak self, delay] in
        guard (try? await Task.sleep(for: delay)) != nil, let self else { return }
        self.spinner.isVisible = true
        self.spinner.isSpinning = true
      }
    }
    defer {
      running -= 1
      if running == 0 {
        showing?.cancel()
        showing = nil
        spinner.isSpinning = false
        spinner.isVisible = false
      }
    }
    return await body()
  }
}

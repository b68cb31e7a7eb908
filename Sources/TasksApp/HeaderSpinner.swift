// HeaderSpinner: the header's spinner, turning while any request runs. Main actor.

import GtkSupport

/// The spinner in the header bar: shown and turning while at least one request runs, hidden otherwise.
@MainActor
final class HeaderSpinner {
  private let spinner: Spinner
  private var running = 0

  init(_ spinner: Spinner) {
    self.spinner = spinner
  }

  /// Runs `body` with the spinner turning; it stops when the last such request has ended.
  func whileRunning<T>(_ body: () async -> T) async -> T {
    running += 1
    spinner.isVisible = true
    spinner.isSpinning = true
    defer {
      running -= 1
      if running == 0 {
        spinner.isSpinning = false
        spinner.isVisible = false
      }
    }
    return await body()
  }
}

// WebViewLoader: loads the WebKit plugin (libTasksWebView.so) the first time a sign-in needs a web view. Main actor.

import CGtk
import Foundation
import GtkSupport

/// The plugin's C functions. WebKit's libraries are mapped only after `WebViewLoader.load()` succeeds: a start with a
/// usable keyring session never calls it.
@MainActor
struct WebViewPlugin {
  typealias Decide = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Int32
  typealias Failed = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Void
  typealias Progress = @convention(c) (UnsafeMutableRawPointer?, Double) -> Void
  typealias Loaded = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void
  typealias Committed = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int32) -> Void
  typealias TLSFailed = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UInt32) -> Void
  typealias New =
    @convention(c) (
      UnsafeMutableRawPointer?, Decide, Failed, Progress, Loaded, Committed, TLSFailed, UnsafePointer<CChar>?,
      UnsafePointer<CChar>?
    ) -> UnsafeMutableRawPointer?
  typealias Load = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void
  typealias Stop = @convention(c) (UnsafeMutableRawPointer?) -> Void

  let new: New
  let load: Load
  let stop: Stop
  let clearData: Stop
}

/// Finds and loads the plugin installed beside the program.
@MainActor
enum WebViewLoader {
  private static var loaded: WebViewPlugin?

  /// The plugin, loading it on first use; nil (with the reason) when it cannot be loaded.
  static func load(installation: Installation) -> Result<WebViewPlugin, WebViewLoadError> {
    if let loaded { return .success(loaded) }
    let path = installation.pluginDirectory.appending(path: "libTasksWebView.so").path(percentEncoded: false)
    guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
      return .failure(WebViewLoadError(detail: dlerror().map { String(cString: $0) } ?? path))
    }
    func symbol<T>(_ name: String, as: T.Type) -> T? {
      dlsym(handle, name).map { unsafeBitCast($0, to: T.self) }
    }
    guard let new = symbol("b2c_web_view_new", as: WebViewPlugin.New.self),
      let load = symbol("b2c_web_view_load", as: WebViewPlugin.Load.self),
      let stop = symbol("b2c_web_view_stop", as: WebViewPlugin.Stop.self),
      let clear = symbol("b2c_web_view_clear_data", as: WebViewPlugin.Stop.self)
    else { return .failure(WebViewLoadError(detail: "\(path) lacks the web view functions")) }
    let plugin = WebViewPlugin(new: new, load: load, stop: stop, clearData: clear)
    loaded = plugin
    return .success(plugin)
  }
}

/// The web view could not be loaded (a broken installation).
struct WebViewLoadError: Error {
  let detail: String
}

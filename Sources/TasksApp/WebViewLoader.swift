// WebViewLoader: loads the WebKit plugin (libTasksWebView.so) the first time a sign-in needs a web view. Main actor.

import CGtk
import CWebViewABI
import FoundationEssentials
import Glibc
import GtkSupport

/// The plugin's C functions (their types from `b2c-web-view.h`, which the plugin implements). WebKit's libraries are
/// mapped only after `WebViewLoader.load()` succeeds: a start with a usable keyring session never calls it.
@MainActor
struct WebViewPlugin {
  let new: B2CWebViewNewFunction
  let load: B2CWebViewLoadFunction
  let stop: B2CWebViewViewFunction
  let clearData: B2CWebViewViewFunction
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
    guard let new = symbol(B2C_WEB_VIEW_NEW, as: B2CWebViewNewFunction.self),
      let load = symbol(B2C_WEB_VIEW_LOAD_URI, as: B2CWebViewLoadFunction.self),
      let stop = symbol(B2C_WEB_VIEW_STOP, as: B2CWebViewViewFunction.self),
      let clear = symbol(B2C_WEB_VIEW_CLEAR_DATA, as: B2CWebViewViewFunction.self)
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

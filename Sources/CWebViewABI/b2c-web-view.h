// The C ABI between b2c-tasks and its web-view plugin (libTasksWebView.so, loaded with dlopen only when a sign-in
// needs it). Both sides import this header: the functions' types, the hooks the app gives a view, and the decision
// about a navigation are declared once. No Swift type crosses it.
#ifndef B2C_WEB_VIEW_H
#define B2C_WEB_VIEW_H

/// What the app decides about a navigation the view is about to make (server redirects included).
typedef enum B2CWebViewDecision {
  /// Let the view load it.
  B2C_WEB_VIEW_LOAD = 0,
  /// The app's own redirect: the app handles it, the view does not load it.
  B2C_WEB_VIEW_INTERCEPT = 1,
  /// Not for the sign-in view (another scheme, a file): not loaded.
  B2C_WEB_VIEW_REFUSE = 2,
} B2CWebViewDecision;

/// The app's callbacks for one view, each given `context`. The view keeps a copy of the hooks, and calls `release`
/// on `context` once, when the view is finalised (the app retains what `context` points to until then).
typedef struct B2CWebViewHooks {
  void *context;
  void (*release)(void *context);
  B2CWebViewDecision (*decide)(void *context, const char *uri);
  /// A page could not be loaded (not for navigations the app intercepted or that were cancelled).
  void (*load_failed)(void *context, const char *uri, const char *message);
  /// The estimated load progress, 0 to 1.
  void (*progress)(void *context, double fraction);
  /// A page finished loading: its title.
  void (*loaded)(void *context, const char *title);
  /// A page was committed: its URI, and whether it came over a verified TLS connection (1) or not (0).
  void (*committed)(void *context, const char *uri, int secure);
  /// The page's certificate was refused: its URI and `GTlsCertificateFlags`.
  void (*tls_failed)(void *context, const char *uri, unsigned int flags);
} B2CWebViewHooks;

/// `b2c_web_view_new`: a sign-in view (a floating `GtkWidget*`), or NULL. With `data_directory`, B2C's cookies are
/// kept there ("Keep me signed in"); without, the view's network session is ephemeral.
typedef void *(*B2CWebViewNewFunction)(
  const B2CWebViewHooks *hooks, const char *data_directory, const char *cache_directory);
/// `b2c_web_view_load`: loads `uri`.
typedef void (*B2CWebViewLoadFunction)(void *view, const char *uri);
/// `b2c_web_view_stop` (stops loading) and `b2c_web_view_clear_data` (forgets every cookie, at sign-out).
typedef void (*B2CWebViewViewFunction)(void *view);

#ifdef B2C_WEB_VIEW_PLUGIN
// The plugin's exported functions, of the types above: the plugin includes these prototypes, so the compiler checks
// its definitions against them, and checks each prototype against its type (web-view-plugin.c). The app, which
// finds them with dlsym by the names below, does not see them.
void *b2c_web_view_new(const B2CWebViewHooks *hooks, const char *data_directory, const char *cache_directory);
void b2c_web_view_load(void *view, const char *uri);
void b2c_web_view_stop(void *view);
void b2c_web_view_clear_data(void *view);
#endif

#define B2C_WEB_VIEW_NEW "b2c_web_view_new"
#define B2C_WEB_VIEW_LOAD_URI "b2c_web_view_load"
#define B2C_WEB_VIEW_STOP "b2c_web_view_stop"
#define B2C_WEB_VIEW_CLEAR_DATA "b2c_web_view_clear_data"

#endif

// TasksWebView: the embedded sign-in web view (WebKitGTK 6.0), built as its own shared library so that b2c-tasks
// maps WebKit only when a sign-in is needed. Main thread (GTK's); the C ABI of b2c-web-view.h towards the app.
//
// Written in C, not Swift: b2c-tasks links the Swift runtime statically (its start-up and memory), and a
// Swift plugin would bring a second runtime (a second libswiftCore and libdispatch, with a main queue nobody
// drains) into the process. This file is WebKit's C API and GObject signals only.

#include <webkit/webkit.h>

#define B2C_WEB_VIEW_PLUGIN
#include "b2c-web-view.h"

#define B2C_EXPORT __attribute__((visibility("default")))

// Each exported function has the type the app calls it through.
#define B2C_SAME_TYPE(function, type) \
  _Static_assert(__builtin_types_compatible_p(__typeof__(&function), type), #function " is not a " #type)
B2C_SAME_TYPE(b2c_web_view_new, B2CWebViewNewFunction);
B2C_SAME_TYPE(b2c_web_view_load, B2CWebViewLoadFunction);
B2C_SAME_TYPE(b2c_web_view_stop, B2CWebViewViewFunction);
B2C_SAME_TYPE(b2c_web_view_clear_data, B2CWebViewViewFunction);

/// The key under which a view keeps its copy of the app's hooks (freed, releasing the app's context, when the view
/// is finalised; its signal handlers are gone by then, disconnected when it was disposed).
static const char hooks_key[] = "b2c-web-view-hooks";

/// Set on a view once it has committed a page.
static const char shown_key[] = "b2c-web-view-shown";

static void free_hooks(gpointer data) {
  B2CWebViewHooks *hooks = data;
  if (hooks->release != NULL) hooks->release(hooks->context);
  g_free(hooks);
}

/// Whether `response` asks to be saved rather than shown (`Content-Disposition: attachment`, RFC 6266).
static gboolean is_attachment(WebKitURIResponse *response) {
  SoupMessageHeaders *headers = webkit_uri_response_get_http_headers(response);
  const char *disposition = headers != NULL ? soup_message_headers_get_one(headers, "Content-Disposition") : NULL;
  if (disposition == NULL) return FALSE;
  while (g_ascii_isspace(*disposition)) disposition++;
  return g_ascii_strncasecmp(disposition, "attachment", strlen("attachment")) == 0;
}

/// `decide-policy`: every navigation (server 302s included) is shown to the app before it happens. Intercepted (the
/// app's redirect) or refused navigations, and those the app gave no answer for, are ignored. New windows are never
/// opened (a sign-in has one page at a time). A response is shown only when WebKit can show it and it does not ask to
/// be saved: WebKit's default downloads every attachment and every type it cannot show, into the user's folders, with
/// a name the server chose; a sign-in view has no use for downloads.
static gboolean decide_policy(WebKitWebView *view, WebKitPolicyDecision *decision, WebKitPolicyDecisionType type,
                              gpointer data) {
  const B2CWebViewHooks *hooks = data;
  if (type == WEBKIT_POLICY_DECISION_TYPE_RESPONSE) {
    WebKitResponsePolicyDecision *response = WEBKIT_RESPONSE_POLICY_DECISION(decision);
    WebKitURIResponse *answer = webkit_response_policy_decision_get_response(response);
    if (webkit_response_policy_decision_is_mime_type_supported(response) && !is_attachment(answer)) {
      webkit_policy_decision_use(decision);
      return TRUE;
    }
    webkit_policy_decision_ignore(decision);
    // The first page of a sign-in that cannot be shown is a failed load to the app, which says so in its own page
    // (the view would stay blank). Later, a link or script that leads to a file leaves the page as it is, as a
    // browser that refuses the download does, and a frame's download just does not happen.
    if (webkit_response_policy_decision_is_main_frame_main_resource(response) &&
        g_object_get_data(G_OBJECT(view), shown_key) == NULL && hooks->load_failed != NULL)
      hooks->load_failed(hooks->context, webkit_uri_response_get_uri(answer), "The server sent a file to download.");
    return TRUE;
  }
  if (type != WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION && type != WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION) {
    webkit_policy_decision_ignore(decision);
    return TRUE;
  }
  WebKitNavigationAction *action =
      webkit_navigation_policy_decision_get_navigation_action(WEBKIT_NAVIGATION_POLICY_DECISION(decision));
  WebKitURIRequest *request = action != NULL ? webkit_navigation_action_get_request(action) : NULL;
  const char *uri = request != NULL ? webkit_uri_request_get_uri(request) : NULL;
  // The app still sees a new window's address (a page may send its redirect with target=_blank), but never loads it.
  B2CWebViewDecision decided = uri != NULL && hooks->decide != NULL ? hooks->decide(hooks->context, uri)
                                                                     : B2C_WEB_VIEW_REFUSE;
  if (decided == B2C_WEB_VIEW_LOAD && type == WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION) return FALSE;
  webkit_policy_decision_ignore(decision);
  return TRUE;
}

/// `create`: no new window or tab, whatever a page asks (window.open, target=_blank).
static GtkWidget *create_window(WebKitWebView *view, WebKitNavigationAction *action, gpointer data) {
  (void)view;
  (void)action;
  (void)data;
  return NULL;
}

/// `decide-destination` of a download: no destination is ever chosen (handled, so WebKit does not pick the
/// downloads folder itself); the download was cancelled already.
static gboolean refuse_destination(WebKitDownload *download, gchar *suggested, gpointer data) {
  (void)suggested;
  (void)data;
  webkit_download_cancel(download);
  return TRUE;
}

/// `download-started` of the view's network session: the second line behind `decide_policy` (a download can also
/// start from a page's script or a context menu). Cancelled before anything is written.
static void download_started(WebKitNetworkSession *session, WebKitDownload *download, gpointer data) {
  (void)session;
  (void)data;
  g_signal_connect(download, "decide-destination", G_CALLBACK(refuse_destination), NULL);
  webkit_download_cancel(download);
}

/// `load-failed`: navigations the app intercepted or that were cancelled are not failures; any other is told to
/// the app, which shows its own page instead of WebKit's.
static gboolean load_failed(WebKitWebView *view, WebKitLoadEvent event, gchar *uri, GError *error, gpointer data) {
  (void)view;
  (void)event;
  const B2CWebViewHooks *hooks = data;
  if (error == NULL) return FALSE;
  if (error->domain == WEBKIT_POLICY_ERROR) return TRUE;
  if (g_error_matches(error, WEBKIT_NETWORK_ERROR, WEBKIT_NETWORK_ERROR_CANCELLED)) return TRUE;
  if (hooks->load_failed != NULL) hooks->load_failed(hooks->context, uri, error->message);
  return TRUE;
}

/// `load-failed-with-tls-errors`: the page's certificate was refused (WebKit's policy is to fail). The app is told
/// the URI and the `GTlsCertificateFlags`; no exception is ever made, and nothing from that host is shown.
static gboolean load_failed_with_tls_errors(WebKitWebView *view, gchar *uri, GTlsCertificate *certificate,
                                            GTlsCertificateFlags flags, gpointer data) {
  (void)view;
  (void)certificate;
  const B2CWebViewHooks *hooks = data;
  if (hooks->tls_failed != NULL) hooks->tls_failed(hooks->context, uri, flags);
  return TRUE;  // handled: no load-failed, no WebKit error page
}

/// `load-changed`: once a page is committed (its first bytes came from the server), the app is told its URI and
/// whether it came over a verified TLS connection, as a browser shows it beside the address.
static void load_changed(WebKitWebView *view, WebKitLoadEvent event, gpointer data) {
  const B2CWebViewHooks *hooks = data;
  if (event != WEBKIT_LOAD_COMMITTED) return;
  g_object_set_data(G_OBJECT(view), shown_key, GINT_TO_POINTER(1));
  if (hooks->committed == NULL) return;
  GTlsCertificate *certificate = NULL;
  GTlsCertificateFlags errors = 0;
  gboolean secure = webkit_web_view_get_tls_info(view, &certificate, &errors) && errors == 0;
  hooks->committed(hooks->context, webkit_web_view_get_uri(view), secure ? 1 : 0);
}

/// `notify::estimated-load-progress`.
static void progress_changed(GObject *object, GParamSpec *property, gpointer data) {
  (void)property;
  const B2CWebViewHooks *hooks = data;
  if (hooks->progress != NULL)
    hooks->progress(hooks->context, webkit_web_view_get_estimated_load_progress(WEBKIT_WEB_VIEW(object)));
}

/// `notify::title` and `notify::is-loading`: the page's title, once the page has finished loading (the title alone
/// can come before the new page is painted).
static void title_or_loading_changed(GObject *object, GParamSpec *property, gpointer data) {
  (void)property;
  const B2CWebViewHooks *hooks = data;
  WebKitWebView *view = WEBKIT_WEB_VIEW(object);
  const char *title = webkit_web_view_get_title(view);
  if (webkit_web_view_is_loading(view) || title == NULL || hooks->loaded == NULL) return;
  hooks->loaded(hooks->context, title);
}

/// `B2CWebViewNewFunction`: a sign-in web view (a floating `GtkWidget*`), or NULL. With `data_directory` B2C's
/// cookies are kept there ("Keep me signed in"); otherwise the view's network session is ephemeral and its cookies
/// end with it. The hooks are copied; their `release` runs when the view is finalised (or at once, on failure).
B2C_EXPORT void *b2c_web_view_new(const B2CWebViewHooks *hooks, const char *data_directory,
                                  const char *cache_directory) {
  if (hooks == NULL) return NULL;
  B2CWebViewHooks *copy = g_memdup2(hooks, sizeof *hooks);
  WebKitNetworkSession *session = data_directory != NULL
                                      ? webkit_network_session_new(data_directory, cache_directory)
                                      : webkit_network_session_new_ephemeral();
  if (session == NULL) {
    free_hooks(copy);
    return NULL;
  }
  if (data_directory != NULL) {
    // A persistent session keeps cookies only where it is told to.
    WebKitCookieManager *cookies = webkit_network_session_get_cookie_manager(session);
    char *file = g_build_filename(data_directory, "cookies.sqlite", NULL);
    webkit_cookie_manager_set_persistent_storage(cookies, file, WEBKIT_COOKIE_PERSISTENT_STORAGE_SQLITE);
    g_free(file);
  }
  g_signal_connect(session, "download-started", G_CALLBACK(download_started), NULL);
  GtkWidget *view = g_object_new(WEBKIT_TYPE_WEB_VIEW, "network-session", session, NULL);
  g_object_unref(session);
  g_object_set_data_full(G_OBJECT(view), hooks_key, copy, free_hooks);
  g_signal_connect(view, "decide-policy", G_CALLBACK(decide_policy), copy);
  g_signal_connect(view, "create", G_CALLBACK(create_window), NULL);
  g_signal_connect(view, "load-failed", G_CALLBACK(load_failed), copy);
  g_signal_connect(view, "load-failed-with-tls-errors", G_CALLBACK(load_failed_with_tls_errors), copy);
  g_signal_connect(view, "load-changed", G_CALLBACK(load_changed), copy);
  g_signal_connect(view, "notify::estimated-load-progress", G_CALLBACK(progress_changed), copy);
  g_signal_connect(view, "notify::title", G_CALLBACK(title_or_loading_changed), copy);
  g_signal_connect(view, "notify::is-loading", G_CALLBACK(title_or_loading_changed), copy);
  return view;
}

/// `B2CWebViewLoadFunction`: loads `uri` in a view made by `b2c_web_view_new`.
B2C_EXPORT void b2c_web_view_load(void *view, const char *uri) {
  if (view != NULL && uri != NULL) webkit_web_view_load_uri(WEBKIT_WEB_VIEW(view), uri);
}

/// Stops loading.
B2C_EXPORT void b2c_web_view_stop(void *view) {
  if (view != NULL) webkit_web_view_stop_loading(WEBKIT_WEB_VIEW(view));
}

/// Removes every cookie and stored item of the view's network session (sign-out), asynchronously.
B2C_EXPORT void b2c_web_view_clear_data(void *view) {
  if (view == NULL) return;
  WebKitNetworkSession *session = webkit_web_view_get_network_session(WEBKIT_WEB_VIEW(view));
  WebKitWebsiteDataManager *manager = session != NULL ? webkit_network_session_get_website_data_manager(session) : NULL;
  if (manager != NULL) webkit_website_data_manager_clear(manager, WEBKIT_WEBSITE_DATA_ALL, 0, NULL, NULL, NULL);
}

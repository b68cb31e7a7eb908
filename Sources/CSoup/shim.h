// libsoup 3 as seen from Swift: what Swift cannot call itself (variadic constructors) and the thread the app's HTTP
// runs on.
#ifndef B2C_CSOUP_SHIM_H
#define B2C_CSOUP_SHIM_H
#include <libsoup/soup.h>

/// A session whose requests fail with G_IO_ERROR_TIMED_OUT after `timeout` seconds of silence, bound to the calling
/// thread's default context. A new SoupSession keeps no cookies (no SoupCookieJar) and caches nothing (no SoupCache);
/// it uses GIO's default proxy resolver (GNOME's proxy settings) and TLS backend (the system's trust store).
static inline SoupSession *_Nonnull b2c_http_session_new(guint timeout) {
  return soup_session_new_with_options("timeout", timeout, NULL);
}

/// A server that says nothing of itself (no Server header).
static inline SoupServer *_Nonnull b2c_http_server_new(void) {
  return soup_server_new("server-header", NULL, NULL);
}

static inline gpointer b2c_http_thread_run(gpointer data) {
  GMainLoop *loop = data;
  GMainContext *context = g_main_loop_get_context(loop);
  g_main_context_push_thread_default(context);
  g_main_loop_run(loop);
  g_main_context_pop_thread_default(context);
  g_main_loop_unref(loop);
  return NULL;
}

/// Runs `loop` on a thread of its own (its context the thread's default) until it quits; takes the reference.
static inline void b2c_http_thread_start(GMainLoop *_Nonnull loop) {
  g_thread_unref(g_thread_new("b2c-http", b2c_http_thread_run, loop));
}
#endif

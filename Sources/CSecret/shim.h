// libsecret as seen from Swift. SecretSchema holds a 32-entry array that Swift imports as a tuple, so the
// schema of our stored sessions is defined here in C.
#ifndef B2C_CSECRET_SHIM_H
#define B2C_CSECRET_SHIM_H
#include <libsecret/secret.h>
// SecretBackend (public since libsecret 0.19, exported; 0.20's secret.h does not include its header, which may only
// be included from inside secret.h).
#ifndef __SECRET_BACKEND_H__
#define __SECRET_INSIDE_HEADER__
#include <libsecret/secret-backend.h>
#undef __SECRET_INSIDE_HEADER__
#endif

// The attributes of a session item: named once, here, for the schema and for Swift (imported as String constants).
#define B2C_ATTRIBUTE_KEYCHAIN_GROUP "keychain-group"
#define B2C_ATTRIBUTE_CLIENT_ID "client-id"
#define B2C_ATTRIBUTE_AUTHORITY "authority"
#define B2C_ATTRIBUTE_TENANT "tenant"
#define B2C_ATTRIBUTE_POLICY "policy"
#define B2C_ATTRIBUTE_PROVIDER "provider"
#define B2C_ATTRIBUTE_ACCOUNT "account"
#define B2C_ATTRIBUTE_KIND "kind"
#define B2C_ATTRIBUTE_KEPT "kept"

/// The schema of a B2C Tasks session in the keyring. Every app of ours that names the same keychain group,
/// client id, provider, authority and tenant finds the same item.
static inline const SecretSchema *_Nonnull b2c_session_schema(void) {
  static const SecretSchema schema = {
    "io.github.b2ctasks.Session",
    SECRET_SCHEMA_NONE,
    {
      {B2C_ATTRIBUTE_KEYCHAIN_GROUP, SECRET_SCHEMA_ATTRIBUTE_STRING},
      {B2C_ATTRIBUTE_CLIENT_ID, SECRET_SCHEMA_ATTRIBUTE_STRING},
      {B2C_ATTRIBUTE_AUTHORITY, SECRET_SCHEMA_ATTRIBUTE_STRING},
      {B2C_ATTRIBUTE_TENANT, SECRET_SCHEMA_ATTRIBUTE_STRING},
      {B2C_ATTRIBUTE_POLICY, SECRET_SCHEMA_ATTRIBUTE_STRING},
      {B2C_ATTRIBUTE_PROVIDER, SECRET_SCHEMA_ATTRIBUTE_STRING},
      {B2C_ATTRIBUTE_ACCOUNT, SECRET_SCHEMA_ATTRIBUTE_STRING},
      {B2C_ATTRIBUTE_KIND, SECRET_SCHEMA_ATTRIBUTE_STRING},
      {B2C_ATTRIBUTE_KEPT, SECRET_SCHEMA_ATTRIBUTE_STRING},
      {NULL, 0},
    },
  };
  return &schema;
}
static inline void b2c_secret_prepared(GObject *_Nullable source, GAsyncResult *_Nonnull result, gpointer data) {
  GError *error = NULL;
  // Not released: a backend made here is cached by libsecret as this very reference, without one of its own (its
  // password calls release theirs neither); one reference kept for the process.
  (void)secret_backend_get_finish(result, &error);
  g_clear_error(&error);
  *(gboolean *)data = TRUE;
}

/// Readies the backend libsecret's password calls use (kept for the process) with its encrypted session open:
/// connected and the keys exchanged, nothing unlocked, no prompt. Blocks, as those calls' blocking forms do, in a
/// context of this thread's own until it has answered; a failure is left to the next call to meet.
static inline void b2c_secret_prepare(void) {
  GMainContext *context = g_main_context_new();
  gboolean answered = FALSE;
  g_main_context_push_thread_default(context);
  secret_backend_get(SECRET_BACKEND_OPEN_SESSION, NULL, b2c_secret_prepared, &answered);
  while (!answered) g_main_context_iteration(context, TRUE);
  g_main_context_pop_thread_default(context);
  g_main_context_unref(context);
}
#endif

// libsecret as seen from Swift. SecretSchema holds a 32-entry array that Swift imports as a tuple, so the
// schema of our stored sessions is defined here in C.
#ifndef B2C_CSECRET_SHIM_H
#define B2C_CSECRET_SHIM_H
#include <libsecret/secret.h>

/// The schema of a B2C Tasks session in the keyring. Every app of ours that names the same keychain group,
/// client id, provider, authority and tenant finds the same item.
static inline const SecretSchema *_Nonnull b2c_session_schema(void) {
  static const SecretSchema schema = {
    "io.github.b2ctasks.Session",
    SECRET_SCHEMA_NONE,
    {
      {"keychain-group", SECRET_SCHEMA_ATTRIBUTE_STRING},
      {"client-id", SECRET_SCHEMA_ATTRIBUTE_STRING},
      {"authority", SECRET_SCHEMA_ATTRIBUTE_STRING},
      {"tenant", SECRET_SCHEMA_ATTRIBUTE_STRING},
      {"policy", SECRET_SCHEMA_ATTRIBUTE_STRING},
      {"provider", SECRET_SCHEMA_ATTRIBUTE_STRING},
      {"account", SECRET_SCHEMA_ATTRIBUTE_STRING},
      {"kind", SECRET_SCHEMA_ATTRIBUTE_STRING},
      {NULL, 0},
    },
  };
  return &schema;
}
#endif

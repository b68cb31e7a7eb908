// libsecret as seen from Swift. SecretSchema holds a 32-entry array that Swift imports as a tuple, so the
// schema of our stored sessions is defined here in C.
#ifndef B2C_CSECRET_SHIM_H
#define B2C_CSECRET_SHIM_H
#include <libsecret/secret.h>

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
#endif

#!/usr/bin/env python3
# provision.py CLIENT_ID REDIRECT_URI...: a fresh database with the provider's signing key, the demo user
# ann / Interop-Pass-1 (Ann Interop, ann@interop.example) and CLIENT_ID registered as a public client with PKCE,
# RS256 id_tokens and REDIRECT_URIs (exact matches, as this provider compares them), also as post-logout redirects.
import os
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "interop_oidc.settings")
import django  # noqa: E402

django.setup()
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from oidc_provider.models import Client, ResponseType  # noqa: E402

client_id, redirects = sys.argv[1], sys.argv[2:]
call_command("migrate", verbosity=0)
call_command("creatersakey")
User.objects.create_user("ann", "ann@interop.example", "Interop-Pass-1", first_name="Ann", last_name="Interop")
client = Client(
    name="B2C Tasks", client_type="public", client_id=client_id, jwt_alg="RS256", require_consent=True,
    reuse_consent=True,
)
client.redirect_uris = redirects
client.post_logout_redirect_uris = redirects
client.save()
client.response_types.add(ResponseType.objects.get(value="code"))

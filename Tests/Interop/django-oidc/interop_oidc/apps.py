"""With INTEROP_LOOPBACK_ANY_PORT=1, the provider matches loopback redirect URIs as RFC 8252 §7.3 asks of every
provider for native apps: a registered http://127.0.0.1/PATH (or [::1]) with no port matches that address and path on
any port. django-oidc-provider 0.9 compares redirect URIs exactly and has no setting for it; this wraps its list of a
client's registered URIs and changes nothing else it does. Unset, it stays the exact-matching provider it is.
"""
import os
import urllib.parse

from django.apps import AppConfig

LOOPBACK_ADDRESSES = {"127.0.0.1", "::1"}


def loopback_match(uri, registered):
    given = urllib.parse.urlsplit(uri)
    if given.scheme != "http" or given.hostname not in LOOPBACK_ADDRESSES or given.fragment:
        return False
    for candidate in registered:
        known = urllib.parse.urlsplit(candidate)
        if (known.scheme, known.hostname, known.port) == ("http", given.hostname, None) and (
            (known.path or "/") == (given.path or "/") and known.query == given.query
        ):
            return True
    return False


class Registered(list):
    def __contains__(self, uri):
        return list.__contains__(self, uri) or loopback_match(uri, self)


class InteropConfig(AppConfig):
    name = "interop_oidc"

    def ready(self):
        if os.environ.get("INTEROP_LOOPBACK_ANY_PORT") != "1":
            return
        from oidc_provider.models import Client

        exact = Client.redirect_uris
        Client.redirect_uris = property(lambda client: Registered(exact.fget(client)), exact.fset)

#!/bin/sh
# venv.sh: the interoperability tests' pinned packages from PyPI in .build/interop-venv (../python-venv.sh): Django
# with django-oidc-provider (an independent OpenID provider), Microsoft's MSAL Python (Microsoft's own client) and
# dateparser (what the date parser's phrases are checked against). Prints the venv's path.
exec "$(dirname "$0")/../python-venv.sh" interop-venv \
  'Django>=4.2,<6 django-oidc-provider==0.9.0 msal==1.39.0 dateparser==1.2.2'

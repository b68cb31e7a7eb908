#!/bin/sh
# serve.sh PORT CLIENT_ID REDIRECT_URI...: serves the independent OpenID Connect provider of the interoperability
# tests (django-oidc-provider from PyPI on Django) on 127.0.0.1:PORT with a fresh database in $INTEROP_DATA (a new
# temporary folder when unset), the issuer http://127.0.0.1:PORT/openid. Installs the pinned packages into
# .build/interop-venv the first time. Runs in the foreground; stop it with SIGTERM.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
port=$1
shift
venv="$repo/.build/interop-venv"
if [ ! -x "$venv/bin/django-admin" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "Django>=4.2,<6" "django-oidc-provider==0.9.0"
fi
INTEROP_DATA=${INTEROP_DATA:-$(mktemp -d /tmp/b2c-interop-oidc.XXXXXX)}
INTEROP_PORT=$port
export INTEROP_DATA INTEROP_PORT
cd "$here"
"$venv/bin/python" provision.py "$@" >/dev/null
echo "interop OpenID provider listening on http://127.0.0.1:$port/openid"
exec "$venv/bin/python" manage.py runserver "127.0.0.1:$port" --noreload --nothreading

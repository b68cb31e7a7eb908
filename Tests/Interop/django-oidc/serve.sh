#!/bin/sh
# serve.sh PORT CLIENT_ID REDIRECT_URI...: serves the independent OpenID Connect provider of the interoperability
# tests (django-oidc-provider from PyPI on Django) on 127.0.0.1:PORT with a fresh database in $INTEROP_DATA (a new
# temporary folder when unset), the issuer http://127.0.0.1:PORT/openid. Installs the pinned packages into
# .build/interop-venv the first time (../venv.sh). Runs in the foreground; stop it with SIGTERM.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
port=$1
shift
venv=$("$here/../venv.sh")
INTEROP_DATA=${INTEROP_DATA:-$(mktemp -d /tmp/b2c-interop-oidc.XXXXXX)}
INTEROP_PORT=$port
export INTEROP_DATA INTEROP_PORT
cd "$here"
"$venv/bin/python" provision.py "$@" >/dev/null
echo "interop OpenID provider listening on http://127.0.0.1:$port/openid"
exec "$venv/bin/python" manage.py runserver "127.0.0.1:$port" --noreload --nothreading

#!/bin/sh
# venv.sh: makes sure .build/interop-venv holds the pinned packages of the interoperability tests, software nobody
# here wrote, from PyPI: Django with django-oidc-provider (an independent OpenID provider), Microsoft's MSAL Python
# (Microsoft's own client) and dateparser (what the date parser's phrases are checked against). Several tests may ask at once: one installs, the others wait. Prints the venv's path.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
venv="$repo/.build/interop-venv"
mkdir -p "$repo/.build"
exec 9>"$repo/.build/interop-venv.lock"
flock 9
packages='Django>=4.2,<6 django-oidc-provider==0.9.0 msal==1.39.0 dateparser==1.2.2'
if [ "$(cat "$venv/.packages" 2>/dev/null)" != "$packages" ]; then
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  # shellcheck disable=SC2086 # the list is split on purpose
  "$venv/bin/pip" install -q --disable-pip-version-check $packages
  printf '%s' "$packages" >"$venv/.packages"
fi
echo "$venv"

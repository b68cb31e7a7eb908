#!/bin/sh
# python-venv.sh NAME PACKAGES: makes sure .build/NAME is a Python virtualenv holding PACKAGES (pinned, from PyPI:
# software nobody here wrote), installing them when the list changed, and prints its path. Several tests may ask at
# once: one installs, the others wait.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
venv="$repo/.build/$1" packages=$2
mkdir -p "$repo/.build"
exec 9>"$venv.lock"
flock 9
if [ "$(cat "$venv/.packages" 2>/dev/null)" != "$packages" ]; then
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  # shellcheck disable=SC2086 # the list is split on purpose
  "$venv/bin/pip" install -q --disable-pip-version-check $packages
  printf '%s' "$packages" >"$venv/.packages"
fi
echo "$venv"

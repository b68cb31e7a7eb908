#!/bin/sh
# venv.sh: makes sure .build/schemathesis-venv holds the pinned schemathesis from PyPI (software nobody here wrote;
# it brings jsonschema-rs, which validate.py uses), and prints its path. Several tests may ask at once: one installs,
# the others wait.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
venv="$repo/.build/schemathesis-venv"
mkdir -p "$repo/.build"
exec 9>"$repo/.build/schemathesis-venv.lock"
flock 9
if [ ! -x "$venv/bin/st" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "schemathesis==4.32.5"
fi
echo "$venv"

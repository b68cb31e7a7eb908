#!/bin/sh
# run.sh [ARGS…]: installs what is missing, builds and installs B2C Tasks into .build-prefix/, starts the bundled
# b2c-playground on 127.0.0.1:5995 (unless one already answers there) and starts the app with its built-in settings,
# which point at it. The playground stops when the app quits.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
prefix="$repo/.build-prefix"
"$repo/meson-wrap/tools/install-deps.sh"
"$repo/meson-wrap/tools/dev-install.sh" "$prefix" release

health=http://127.0.0.1:5995/health
if ! curl -sf "$health" >/dev/null 2>&1; then
  "$prefix/bin/b2c-playground" --log-level warning &
  playground=$!
  trap 'kill "$playground" 2>/dev/null || true' EXIT INT TERM
  tries=0
  until curl -sf "$health" >/dev/null 2>&1; do
    tries=$((tries + 1))
    if [ "$tries" -gt 150 ] || ! kill -0 "$playground" 2>/dev/null; then
      echo "run.sh: b2c-playground did not start" >&2
      exit 1
    fi
    sleep 0.2
  done
  echo "b2c-playground is running on http://127.0.0.1:5995 (demo account: ann@example.com / Tasks-Demo-1)"
fi
"$prefix/bin/b2c-tasks" "$@"

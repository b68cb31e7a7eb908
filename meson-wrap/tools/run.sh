#!/bin/sh
# run.sh [ARGS…]: installs what is missing, builds and installs B2C Tasks into .build-prefix/ and starts it with the
# built-in settings, which point at the bundled playground on 127.0.0.1.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
"$repo/meson-wrap/tools/install-deps.sh"
"$repo/meson-wrap/tools/dev-install.sh" "$repo/.build-prefix" release
exec "$repo/.build-prefix/bin/b2c-tasks" "$@"

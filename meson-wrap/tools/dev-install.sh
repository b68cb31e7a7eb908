#!/bin/sh
# dev-install.sh PREFIX [debug|release]: builds B2C Tasks with meson (which runs swift build) and installs it into
# PREFIX, as a packager would. Reuses the repository's .build folder so tests and installs share one build.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
prefix=$1
configuration=${2:-release}
builddir="$repo/.build-meson-$configuration"
if [ ! -f "$builddir/build.ninja" ]; then
  meson setup "$builddir" "$repo/meson-wrap" --prefix "$prefix" \
    -Dswiftpm_configuration="$configuration" -Dswiftpm_scratch_path="$repo/.build"
else
  meson configure "$builddir" --prefix "$prefix" >/dev/null
fi
meson install -C "$builddir" --quiet

#!/bin/sh
# build-debs.sh OUTDIR: builds the binary Debian packages b2c-tasks, b2c-tasks-api and b2c-playground into OUTDIR,
# from the repository's tracked files (as they are in the work tree), with debhelper and meson-wrap/debian/. The
# version is the meson project's. SwiftPM's build is kept in .build-debs/ between runs (B2C_SWIFT_SCRATCH). Needs the
# build dependencies (meson-wrap/tools/install-deps.sh --debs) and the Swift toolchain on PATH.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
outdir=$(mkdir -p "$1" && cd "$1" && pwd)
version=$(sed -n "s/^  version: '\([^']*\)',$/\1/p" "$repo/meson-wrap/meson.build")
[ -n "$version" ] || { echo "no version in meson-wrap/meson.build" >&2; exit 1; }
stage=$(mktemp -d /tmp/b2c-tasks-debs.XXXXXX)
trap 'rm -rf "$stage"' EXIT
source="$stage/b2c-tasks-$version"
mkdir -p "$source"
# The tracked files only (as they are in the work tree): no build folders, no Package.resolved, nothing left over
# from a run, no file that is not in git yet.
(cd "$repo" && git ls-files -z --cached | xargs -0 sh -c '
  for file; do [ -e "$file" ] && printf "%s\0" "$file"; done' sh | tar --null -T - -cf -) | tar -xf - -C "$source"
cp -r "$repo/meson-wrap/debian" "$source/debian"
date=$(date -R -d "@$(git -C "$repo" log -1 --format=%ct)")
cat >"$source/debian/changelog" <<CHANGELOG
b2c-tasks ($version) unstable; urgency=medium

  * Release $version (commit $(git -C "$repo" rev-parse --short HEAD)).

 -- The B2C Tasks developers <maintainers@users.noreply.a-seed-148641b7.example>  $date
CHANGELOG
# SwiftPM reads its packages' addresses through git's configuration, which debhelper's private HOME would hide.
if [ -f "$HOME/.gitconfig" ]; then export GIT_CONFIG_GLOBAL="$HOME/.gitconfig"; fi
export B2C_SWIFT_SCRATCH="$repo/.build-debs"
# The -dbgsym packages were made and then left out of OUTDIR: not made at all (dh_strip no longer copies and compresses
# the programs' debug sections, some hundred megabytes).
export DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:+$DEB_BUILD_OPTIONS }noautodbgsym"
(cd "$source" && dpkg-buildpackage -b -us -uc --no-pre-clean)
rm -f "$outdir"/b2c-tasks_*.deb "$outdir"/b2c-tasks-api_*.deb "$outdir"/b2c-playground_*.deb
for deb in "$stage"/*.deb; do
  case $deb in *-dbgsym_*) continue ;; esac
  cp -f "$deb" "$outdir/"
done
ls -l "$outdir"

#!/bin/sh
# swift-build.sh REPO SCRATCH CONFIGURATION static|shared OUTDIR OUTPUT...: builds the Swift products named by the
# outputs' file names (libNAME.so is the library product NAME) and copies them into OUTDIR; `static` links the Swift
# runtime and Foundation into each (b2c-tasks always does). Called by meson-wrap/programs/meson.build.
set -eu
repo=$1 scratch=$2 configuration=$3 stdlib=$4 outdir=$5
shift 5
static=""
# Packages: no rpath either (nothing is loaded from beside the program).
[ "$stdlib" = static ] && static="--static-swift-stdlib --disable-local-rpath"
product_of() { name=$(basename "$1"); case $name in lib*.so) name=${name#lib}; name=${name%.so} ;; esac; echo "$name"; }
for output in "$@"; do
  product=$(product_of "$output")
  swift build --package-path "$repo" --scratch-path "$scratch" -c "$configuration" $static --product "$product"
done
bin=$(swift build --package-path "$repo" --scratch-path "$scratch" -c "$configuration" $static --show-bin-path)
for output in "$@"; do
  cp -f "$bin/$(basename "$output")" "$outdir/"
done

#!/bin/sh
# swift-build.sh REPO SCRATCH CONFIGURATION OUTDIR OUTPUT...: builds the Swift products named by the outputs'
# file names (libNAME.so is the library product NAME) and copies them into OUTDIR. Called by
# meson-wrap/programs/meson.build.
set -eu
repo=$1 scratch=$2 configuration=$3 outdir=$4
shift 4
product_of() { name=$(basename "$1"); case $name in lib*.so) name=${name#lib}; name=${name%.so} ;; esac; echo "$name"; }
for output in "$@"; do
  product=$(product_of "$output")
  swift build --package-path "$repo" --scratch-path "$scratch" -c "$configuration" --product "$product"
done
bin=$(swift build --package-path "$repo" --scratch-path "$scratch" -c "$configuration" --show-bin-path)
for output in "$@"; do
  cp -f "$bin/$(basename "$output")" "$outdir/"
done

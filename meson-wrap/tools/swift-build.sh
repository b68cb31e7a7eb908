#!/bin/sh
# swift-build.sh REPO SCRATCH CONFIGURATION OUTDIR OUTPUT...: builds the Swift products named by the outputs'
# file names and copies them into OUTDIR. Called by meson-wrap/programs/meson.build.
set -eu
repo=$1 scratch=$2 configuration=$3 outdir=$4
shift 4
for output in "$@"; do
  product=$(basename "$output")
  swift build --package-path "$repo" --scratch-path "$scratch" -c "$configuration" --product "$product"
done
bin=$(swift build --package-path "$repo" --scratch-path "$scratch" -c "$configuration" --show-bin-path)
for output in "$@"; do
  cp -f "$bin/$(basename "$output")" "$outdir/"
done

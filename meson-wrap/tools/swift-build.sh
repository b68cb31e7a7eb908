#!/bin/sh
# swift-build.sh REPO SCRATCH CONFIGURATION static|shared OUTDIR OUTPUT...: builds the Swift products named by the
# outputs' file names (libNAME.so is the library product NAME) and copies them into OUTDIR; `static` links the Swift
# runtime and Foundation into each (b2c-tasks always does; every release build does, as the packages are built, so that
# what the benchmarks measure is what ships: the CLI with the shared runtime spent 7-8 ms more starting, and its first
# sync measured 1.85-1.98 times the transfer against 1.53-1.62 as shipped). Called by meson-wrap/programs/meson.build.
# swift-build.sh --flags CONFIGURATION: prints the flags it gives swift build for CONFIGURATION, for the other scripts
# that build into the same folder (Tests/Benchmarks/task-api-setup.sh): built with other flags, every module would be
# compiled again at each turn.
set -eu
# Release builds give every module a section per function, the packages' and their C too (Package.swift sets its own
# modules' flags only), so that the code orders of b2c-tasks and the reminder service (Package.swift's orderedLinking)
# move the functions a start runs, not a whole module's code with each.
flags() {
  [ "$1" = release ] &&
    echo "--static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections"
  true
}
if [ "$1" = --flags ]; then flags "$2"; exit 0; fi
repo=$1 scratch=$2 configuration=$3 stdlib=$4 outdir=$5
shift 5
options=$(flags "$configuration")
# Packages: no rpath either (nothing is loaded from beside the program).
if [ "$stdlib" = static ]; then
  options="$options --disable-local-rpath"
  [ "$configuration" = release ] || options="$options --static-swift-stdlib"
fi
product_of() { name=$(basename "$1"); case $name in lib*.so) name=${name#lib}; name=${name%.so} ;; esac; echo "$name"; }
for output in "$@"; do
  product=$(product_of "$output")
  swift build --package-path "$repo" --scratch-path "$scratch" -c "$configuration" $options --product "$product"
done
bin=$(swift build --package-path "$repo" --scratch-path "$scratch" -c "$configuration" $options --show-bin-path)
for output in "$@"; do
  cp -f "$bin/$(basename "$output")" "$outdir/"
done
